import { useMemo } from 'react';
import type { Entry } from '../model/entry';
import { linesLabel, parseNoteKey, type NoteTarget } from '../../shared/note-keys';
import type { NotesApi } from '../state/notes-api';
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

/**
 * Notes on cards that cards.json no longer holds (the agent renamed or deleted an earlier
 * card): shown with their text, in Cards and in Raw, never dropped with their card.
 */
export function NotesOnGoneCards({ cardIds, notes }: { cardIds: ReadonlySet<string>; notes: NotesApi }) {
  const gone = Object.keys(notes.notes).filter((key) => {
    const target = parseNoteKey(key);
    return target.kind === 'card' && !cardIds.has(target.id);
  });
  if (gone.length === 0) return null;
  return (
    <section className="inv-notes-elsewhere" aria-label="Notes on cards no longer in cards.json">
      <h2 className="inv-section-title">Notes on cards no longer in cards.json</h2>
      {gone.map((id) => {
        const note = notes.notes[id]!;
        return (
          <div key={id} className="inv-outdated" data-gone-card={id}>
            <p className="inv-outdated-label" role="note">
              Note on the card “<Visible text={note.title} />” (<code>{id}</code>), which cards.json no longer holds:
              the agent renamed or deleted it. <code>involut check</code> tells the agent to put it back.
            </p>
            <NoteBox
              noteKey={id}
              title={note.title}
              refs={note.refs}
              notes={notes}
              label={`Note on the card ${note.title}, no longer in cards.json`}
            />
          </div>
        );
      })}
    </section>
  );
}
