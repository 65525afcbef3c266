import type { Note } from '../../schemas/notes';
import { linesLabel, parseNoteKey } from '../../shared/note-keys';
import { Visible } from './Visible';

/** On a card that lists `addresses`: the notes it answers, each by its title, its quoted line, and its words. */
export function CardAddresses({
  cardId,
  keys,
  notes,
}: {
  cardId: string;
  keys: string[];
  notes: Record<string, Note>;
}) {
  if (keys.length === 0) return null;
  return (
    <section className="inv-addresses" aria-label="Notes this card answers">
      <h3>Answers {keys.length === 1 ? 'a note' : `${keys.length} notes`}</h3>
      <ul>
        {keys.map((key) => (
          <li key={key} data-addresses={key}>
            <AddressedNote cardId={cardId} noteKey={key} note={notes[key]} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function AddressedNote({ cardId, noteKey, note }: { cardId: string; noteKey: string; note: Note | undefined }) {
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
        <Visible text={answeredText(note, cardId)} />
      </q>
    </>
  );
}

/** The text of the note this card answered: an earlier one when the reader has followed up since. */
function answeredText(note: Note, cardId: string): string {
  const answered = note.earlier?.findLast((earlier) => earlier.answeredBy.some((card) => card.id === cardId));
  return answered?.text ?? note.text;
}
