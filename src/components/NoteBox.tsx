import { useContext, useEffect, useRef, useState } from 'react';
import type { Note, NoteKind } from '../../schemas/notes';
import type { NotesApi } from '../state/notes-api';
import { invisibleWarning } from '../model/invisible';
import { offerUndo } from '../state/undoDelete';
import { NoteChoice } from './NoteChoice';
import { LifeButtons, StatusLine, type Mode } from './NoteLife';
import { Visible } from './Visible';
import { EarlierTexts, NoteThread, ThreadsContext } from './NoteThread';

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
  /** Says in full what a note is for (default false): one box a page does (a card's), the others say less. */
  hint?: boolean;
}

/** What a note is for, said once a page. */
const NOTE_HINT = 'Leave a note for the agent: a question, an objection, an instruction…';

/**
 * A note on a card, a file or lines: saved as you type, never lost, cleared to delete;
 * above it the texts it held before a follow-up, under it its thread. An answered note
 * is not typed over: a follow-up is written below it and keeps it in `earlier`; any note
 * can be resolved (kept, with when) and reopened.
 */
export function NoteBox({ noteKey, title, refs, quote, notes, autoFocus, onFocused, label, hint = false }: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const round = useContext(ThreadsContext);
  const thread = round?.threads.get(noteKey);
  const note: Note | undefined = notes.notes[noteKey];
  const text = notes.text(noteKey);
  const kind: NoteKind = notes.kind(noteKey) ?? 'change';
  const status = notes.status(noteKey);
  // Set while a write the server has not confirmed yet says so (the draft is laid over the note).
  const asked = note as { resolve?: boolean; follows?: string } | undefined;
  const following = asked?.follows;
  const resolved = asked?.resolve ?? note?.resolvedAt !== undefined;
  const [followUp, setFollowUp] = useState(false);
  const mode: Mode = !note
    ? 'edit'
    : resolved
      ? 'resolved'
      : thread?.answered && following === undefined
        ? followUp
          ? 'follow-up'
          : 'answered'
        : 'edit';
  // A textarea cannot draw markers: a note holding such characters is shown again, marked, under it.
  const invisible = invisibleWarning(text, 'This note');

  useEffect(() => {
    const box = area.current;
    if (!autoFocus || !box) return;
    box.focus({ preventScroll: true });
    box.setSelectionRange(box.value.length, box.value.length);
    onFocused?.();
  }, [autoFocus]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (mode === 'follow-up') area.current?.focus();
  }, [mode]);
  // Once the follow-up is written, the box is an ordinary open note again.
  useEffect(() => {
    if (following !== undefined) setFollowUp(false);
  }, [following]);

  const write = (next: { text?: string; kind?: NoteKind; resolve?: boolean }) => {
    // A follow-up names the answered note it follows, and the cards that had answered it.
    const follows = following ?? (mode === 'follow-up' ? note?.at : undefined);
    const answeredBy = (thread?.addressedBy ?? []).map((id) => ({ id, title: round?.titleOf(id) ?? id }));
    notes.write(noteKey, {
      text: next.text ?? text,
      title,
      refs,
      ...(quote !== undefined ? { quote } : {}),
      kind: next.kind ?? kind,
      ...(next.resolve !== undefined ? { resolve: next.resolve } : {}),
      ...(follows !== undefined ? { follows, answeredBy } : {}),
    });
  };
  const editing = mode === 'edit' || mode === 'follow-up';

  return (
    <div className="inv-note" data-note-key={noteKey} data-note-mode={mode}>
      <EarlierTexts earlier={note?.earlier ?? []} />
      {!editing && (
        <blockquote className="inv-note-read" aria-label={`${label}, ${mode}`}>
          <Visible text={text} />
        </blockquote>
      )}
      {editing && (
        <textarea
          ref={area}
          className="inv-note-text"
          aria-label={mode === 'follow-up' ? `Follow-up on ${label.replace(/^Note on /, '')}` : label}
          placeholder={
            mode === 'follow-up'
              ? 'Follow up: what is still missing? The note above and its answer are kept.'
              : hint
                ? NOTE_HINT
                : 'Note for the agent…'
          }
          value={mode === 'follow-up' ? '' : text}
          rows={Math.min(12, Math.max(2, text.split('\n').length))}
          onChange={(e) => write({ text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            if (mode === 'follow-up') setFollowUp(false);
            (e.target as HTMLElement).blur();
          }}
        />
      )}
      <div className="inv-note-bar">
        {editing && (
          <label className="inv-note-kind">
            <span>Kind</span>
            <select
              value={kind}
              // Named after what it belongs to: a page has one such select per note box.
              aria-label={`Kind of ${label.replace(/^Note/, 'note')}`}
              disabled={notes.locked !== null}
              onChange={(e) => write({ kind: e.target.value as NoteKind })}
            >
              <option value="change">change request</option>
              <option value="question">question</option>
            </select>
          </label>
        )}
        {!editing && (
          // Answered or resolved, the note still says what it asked for.
          <span className="inv-tag inv-note-kind-read">{kind === 'question' ? 'question' : 'change request'}</span>
        )}
        {note && text !== '' && (
          <button
            type="button"
            disabled={notes.locked !== null}
            aria-label={`Delete: ${label}`}
            onClick={() => {
              const body = { text, title, refs, ...(quote !== undefined ? { quote } : {}), kind };
              notes.write(noteKey, { ...body, text: '' });
              offerUndo(noteKey, body, label);
            }}
          >
            Delete
          </button>
        )}
        {note && (
          <LifeButtons
            mode={mode}
            locked={notes.locked !== null}
            onFollowUp={() => setFollowUp(true)}
            onResolve={(on) => write({ resolve: on })}
          />
        )}
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
