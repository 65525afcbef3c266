import type { NoteStatus } from '../state/notes-api';

/** What a note box shows: the text to edit, an answered note to follow up or resolve, a resolved one to reopen. */
export type Mode = 'edit' | 'answered' | 'follow-up' | 'resolved';

/** Resolve an open or answered note, follow up on an answered one, reopen a resolved one. */
/** Resolve, reopen, or follow up on an answered note. */
export function LifeButtons({
  mode,
  locked,
  onFollowUp,
  onResolve,
}: {
  mode: Mode;
  locked: boolean;
  onFollowUp: () => void;
  onResolve: (on: boolean) => void;
}) {
  if (mode === 'resolved') {
    return (
      <button type="button" disabled={locked} onClick={() => onResolve(false)}>
        Reopen
      </button>
    );
  }
  return (
    <>
      {mode === 'answered' && (
        <button type="button" disabled={locked} onClick={onFollowUp}>
          Follow up
        </button>
      )}
      <button
        type="button"
        disabled={locked}
        onClick={() => onResolve(true)}
        title="Nothing more to do: kept in notes.json, closed"
      >
        Resolve
      </button>
    </>
  );
}

/** Where the note stands between the reader's keyboard and notes.json, in words. */
export function StatusLine({
  status,
  locked,
  empty,
}: {
  status: NoteStatus | undefined;
  locked: string | null;
  empty: boolean;
}) {
  if (locked)
    return (
      <span className="inv-note-status inv-refused" role="alert">
        {locked}
      </span>
    );
  if (!status) return <span className="inv-note-status">{empty ? '' : 'saved'}</span>;
  switch (status.state) {
    case 'saving':
      return <span className="inv-note-status">saving…</span>;
    case 'draft':
      return <span className="inv-note-status">draft, not sent yet</span>;
    case 'saved':
      return <span className="inv-note-status inv-saved">{empty ? 'deleted' : 'saved'}</span>;
    case 'conflict':
      return <span className="inv-note-status inv-refused">not saved: changed elsewhere</span>;
    case 'gone':
      return <span className="inv-note-status inv-refused">no longer in notes.json</span>;
    case 'refused':
      return (
        <span className="inv-note-status inv-refused" role="alert">
          not saved: {status.reason} (kept here, will retry when you type)
        </span>
      );
  }
}
