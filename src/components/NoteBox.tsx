import { useEffect, useRef } from 'react';
import type { NoteKind } from '../../schemas/notes';
import type { NotesApi, NoteStatus } from '../state/useNotes';
import { invisibleWarning } from '../model/invisible';
import { NoteChoice } from './NoteChoice';
import { Visible } from './Visible';
import { NoteThread } from './NoteThread';

interface Props {
  noteKey: string;
  /** Copied into the note so it makes sense without the viewer. */
  title: string;
  refs: string[];
  /** The diff line a line note is anchored to. */
  quote?: string;
  notes: NotesApi;
  /** Focus the box when it mounts. */
  autoFocus?: boolean;
  /** Called once the box took the focus, so a box drawn again later does not take it again. */
  onFocused?: () => void;
  label: string;
}

/** A note on a card, a file or a line: saved as you type, never lost, cleared to delete; under it, its thread. */
export function NoteBox({ noteKey, title, refs, quote, notes, autoFocus, onFocused, label }: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const text = notes.text(noteKey);
  const kind: NoteKind = notes.notes[noteKey]?.kind ?? 'change';
  const status = notes.status(noteKey);
  // A textarea cannot draw markers: a note holding such characters is shown again, marked, under it.
  const invisible = invisibleWarning(text, 'This note');

  useEffect(() => {
    const box = area.current;
    if (!autoFocus || !box) return;
    box.focus({ preventScroll: true });
    box.setSelectionRange(box.value.length, box.value.length);
    onFocused?.();
  }, [autoFocus]); // eslint-disable-line react-hooks/exhaustive-deps

  const write = (next: { text?: string; kind?: NoteKind }) =>
    notes.write(noteKey, {
      text: next.text ?? text,
      title,
      refs,
      ...(quote !== undefined ? { quote } : {}),
      kind: next.kind ?? kind,
    });

  return (
    <div className="inv-note" data-note-key={noteKey}>
      <textarea
        ref={area}
        className="inv-note-text"
        aria-label={label}
        placeholder="Leave a note for the agent: a question, an objection, an instruction…"
        value={text}
        rows={Math.min(12, Math.max(2, text.split('\n').length))}
        disabled={notes.locked !== null}
        onChange={(e) => write({ text: e.target.value })}
        onKeyDown={(e) => e.key === 'Escape' && (e.target as HTMLElement).blur()}
      />
      <div className="inv-note-bar">
        <label>
          <span className="inv-visually-hidden">Kind of note</span>
          <select
            value={kind}
            aria-label="Kind of note"
            disabled={notes.locked !== null}
            onChange={(e) => write({ kind: e.target.value as NoteKind })}
          >
            <option value="change">change request</option>
            <option value="question">question</option>
          </select>
        </label>
        <StatusLine status={status} locked={notes.locked} empty={text === ''} />
      </div>
      {status?.state === 'conflict' || status?.state === 'gone' ? (
        <NoteChoice noteKey={noteKey} status={status} notes={notes} />
      ) : null}
      {invisible && (
        <p className="inv-invisible-warning" role="alert">
          {invisible} Here it reads: <Visible text={text} />
        </p>
      )}
      <NoteThread noteKey={noteKey} hasNote={noteKey in notes.notes} />
    </div>
  );
}

function StatusLine({
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
