import { useMemo } from 'react';
import type { Entry } from '../model/entry';
import { linesLabel, parseNoteKey, type NoteTarget } from '../model/note-keys';
import type { NotesApi } from '../state/useNotes';
import { NoteBox } from './NoteBox';
import { Visible } from './Visible';

type FileTarget = Extract<NoteTarget, { kind: 'file' | 'line' }>;

/**
 * Notes on files this round does not change (written against an earlier round): shown
 * at the top of Raw, each with what it was written on, never dropped.
 */
export function NotesElsewhere({ entries, notes }: { entries: Entry[]; notes: NotesApi }) {
  const refs = useMemo(() => new Set(entries.map((e) => e.ref)), [entries]);
  const elsewhere = Object.keys(notes.notes)
    .map((key) => ({ key, target: parseNoteKey(key) }))
    .filter((n): n is { key: string; target: FileTarget } => n.target.kind !== 'card' && !refs.has(n.target.ref));
  if (elsewhere.length === 0) return null;
  return (
    <section className="inv-notes-elsewhere" aria-label="Notes on files not in this round">
      <h2 className="inv-section-title">Notes on files not in this round</h2>
      {elsewhere.map(({ key, target }) => {
        const note = notes.notes[key]!;
        const where = target.kind === 'line' ? `${target.ref} ${linesLabel(target)}` : target.ref;
        return (
          <div key={key} className="inv-outdated" data-outdated-key={key}>
            <p className="inv-outdated-label" role="note">
              {target.kind === 'line' ? (target.to > target.line ? 'Range note' : 'Line note') : 'Note'} on{' '}
              <Visible text={where} />
              {note.quote !== undefined && (
                <>
                  , written on{' '}
                  <code className="inv-quote">
                    <Visible text={note.quote} />
                  </code>
                </>
              )}
              . This round does not change {target.ref}.
            </p>
            <NoteBox
              noteKey={key}
              title={note.title}
              refs={note.refs}
              quote={note.quote}
              notes={notes}
              label={target.kind === 'line' ? `Note on ${where}` : `Note on file ${target.ref}`}
            />
          </div>
        );
      })}
    </section>
  );
}
