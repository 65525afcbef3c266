import { finishedRounds, keptCards } from './emit/rounds';
import { readJsonOrNull, type ReviewDir } from './review-dir';

/** The round each card comes from, and the round the review is in now. */
export interface CardRounds {
  /** The last finished round: the one material.json holds (1 before any is kept). */
  round: number;
  /** Card id → the earliest round whose kept cards.json holds it; `round` for a card new in this round. */
  rounds: Map<string, number>;
}

/** For each card id in `cards`, the earliest round whose kept `.review/rounds/<n>/cards.json` holds it, else the current round. */
export async function cardRounds(review: ReviewDir, cards: ReadonlyArray<{ id: string }>): Promise<CardRounds> {
  const finished = await finishedRounds(review);
  const round = finished.at(-1) ?? 1;
  const earliest = new Map<string, number>();
  // Ascending, so the first round to hold an id is the one kept.
  for (const n of finished.filter((k) => k < round)) {
    for (const id of cardIdsIn(await readJsonOrNull(keptCards(review, n)))) if (!earliest.has(id)) earliest.set(id, n);
  }
  return { round, rounds: new Map(cards.map((card) => [card.id, earliest.get(card.id) ?? round])) };
}

/** The card ids in a parsed cards.json, read leniently: it is kept as the agent wrote it, right or wrong. */
export function cardIdsIn(json: unknown): string[] {
  const cards = typeof json === 'object' && json !== null ? (json as { cards?: unknown }).cards : undefined;
  if (!Array.isArray(cards)) return [];
  return cards
    .map((card: unknown) => (typeof card === 'object' && card !== null ? (card as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '');
}
