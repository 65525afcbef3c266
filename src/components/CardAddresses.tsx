import type { Note } from '../../schemas/notes';
import { linesLabel, parseNoteKey } from '../../shared/note-keys';
import { Visible } from './Visible';

/** On a card that lists `addresses`: the notes it answers, each by its title, its quoted line, and its words. */
export function CardAddresses({ keys, notes }: { keys: string[]; notes: Record<string, Note> }) {
  if (keys.length === 0) return null;
  return (
    <section className="inv-addresses" aria-label="Notes this card answers">
      <h3>Answers {keys.length === 1 ? 'a note' : `${keys.length} notes`}</h3>
      <ul>
        {keys.map((key) => (
          <li key={key} data-addresses={key}>
            <AddressedNote noteKey={key} note={notes[key]} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function AddressedNote({ noteKey, note }: { noteKey: string; note: Note | undefined }) {
  const target = parseNoteKey(noteKey);
  const where =
    target.kind === 'line' ? `${target.ref} ${linesLabel(target)}` : target.kind === 'file' ? target.ref : null;
  if (!note) {
    // The viewer cannot tell a note removed from one that never was: it names the key as unknown.
    return (
      <span className="inv-muted">
        an unknown note: no note in notes.json has the key{' '}
        <code>
          <Visible text={noteKey} />
        </code>
      </span>
    );
  }
  return (
    <>
      <span className="inv-addressed-title">
        <Visible text={where ?? note.title} />
      </span>
      {note.kind === 'question' && <span className="inv-tag">question</span>}
      {note.quote !== undefined && (
        <code className="inv-quote">
          <Visible text={note.quote} />
        </code>
      )}
      <q className="inv-addressed-text">
        <Visible text={note.text} />
      </q>
    </>
  );
}
