import { noteThreads } from '../../shared/threads';
import { readSettled, toState } from './review-files';
import type { ReviewDir } from './review-dir';

/**
 * How many notes of `.review/notes.json` the agent still has to address, as of a round
 * captured now: neither resolved nor answered by a card of cards.json. Null when there is no
 * notes.json, or it cannot be read (`involut check` says why).
 */
export async function openNoteCount(review: ReviewDir): Promise<number | null> {
  const settle = { maxWaitMs: 0 };
  const [notesRead, cardsRead] = await Promise.all([
    readSettled(review.notes, settle),
    readSettled(review.cards, settle),
  ]);
  const notes = toState('notes', notesRead);
  if (notes.state !== 'ok') return null;
  const cards = toState('cards', cardsRead);
  const threads = noteThreads(notes.data.notes, cards.state === 'ok' ? cards.data.cards : [], new Date().toISOString());
  return [...threads.values()].filter((thread) => thread.state === 'open').length;
}
