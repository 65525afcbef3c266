import type { Card } from '../../schemas/cards';
import type { Note } from '../../schemas/notes';

/** A note with the cards that answer it. */
export interface Thread {
  /** Ids of the cards that list the note's key in `addresses`, in cards.json order. */
  addressedBy: string[];
  /**
   * True when a card addresses the note and the reader has not touched the note since:
   * the round in view was captured after the note was last written. Writing the note
   * again opens it again.
   */
  answered: boolean;
}

/**
 * The thread of every note. `capturedAt` is the material's `generated` time: the agent
 * answers by writing cards, then captures a new round (the skill says so).
 */
export function noteThreads(
  notes: Record<string, Note>,
  cards: Card[],
  capturedAt: string | null,
): Map<string, Thread> {
  const threads = new Map<string, Thread>();
  for (const [key, note] of Object.entries(notes)) {
    const addressedBy = cards.filter((card) => card.addresses?.includes(key)).map((card) => card.id);
    const answered = addressedBy.length > 0 && capturedAt !== null && isBefore(note.at, capturedAt);
    threads.set(key, { addressedBy, answered });
  }
  return threads;
}

/** Compares two ISO 8601 times, whatever their offsets; an unreadable time is never "before". */
function isBefore(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isFinite(ta) && Number.isFinite(tb) && ta < tb;
}
