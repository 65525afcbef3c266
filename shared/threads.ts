import type { Card } from '../schemas/cards';
import type { Note } from '../schemas/notes';

/**
 * Where a note stands: `open` (the agent has something to do), `answered` (a card
 * addresses it and the reader has not written it since), `resolved` (the reader closed it).
 */
export type NoteState = 'open' | 'answered' | 'resolved';

/** A note with the cards that answer it. */
export interface Thread {
  /** Ids of the cards that list the note's key in `addresses`, in cards.json order. */
  addressedBy: string[];
  /**
   * True when a card addresses the note and the reader has not touched the note since:
   * the round in view was captured after the note was last written. Writing the note
   * again (a follow-up) opens it again.
   */
  answered: boolean;
  /** Resolved wins over answered; anything else is open. */
  state: NoteState;
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
    const state = note.resolvedAt !== undefined ? 'resolved' : answered ? 'answered' : 'open';
    threads.set(key, { addressedBy, answered, state });
  }
  return threads;
}

/** The notes the agent still has to address: neither answered nor resolved. */
export function openNotes(notes: Record<string, Note>, threads: Map<string, Thread>): Array<[string, Note]> {
  return Object.entries(notes).filter(([key]) => (threads.get(key)?.state ?? 'open') === 'open');
}

/** Compares two ISO 8601 times, whatever their offsets; an unreadable time is never "before". */
function isBefore(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isFinite(ta) && Number.isFinite(tb) && ta < tb;
}
