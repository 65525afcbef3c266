import { finishedRounds, keptCards, readRound } from './rounds';
import { readJsonOrNull, type ReviewDir } from '../review/review-dir';

/** The round each card comes from, and the round the review is in now. */
export interface CardRounds {
  /** The last finished round: the one material.json holds (1 before any is kept). */
  round: number;
  /** Card id → the earliest round whose kept cards.json holds it; `round` for a card new in this round. */
  rounds: Map<string, number>;
  /**
   * The cards of earlier rounds that `cards` no longer holds (renamed or deleted), in the
   * order they were first kept, each with the last kept round that holds it.
   */
  missing: Array<{ id: string; round: number }>;
}

/**
 * For each card id in `cards`, the earliest round whose kept `.review/rounds/<n>/cards.json`
 * holds it, else the current round. A round's cards count as earlier only once a later
 * round captured a different tree: until the code moves on, the cards are the agent's to fix.
 */
export async function cardRounds(review: ReviewDir, cards: ReadonlyArray<{ id: string }>): Promise<CardRounds> {
  const finished = await finishedRounds(review);
  const round = finished.at(-1) ?? 1;
  const trees = new Map<number, string | null>();
  for (const n of finished) trees.set(n, (await readRound(review, n))?.tree ?? null);
  // A round without its record cannot be compared: it counts as moved on, as before records were read.
  const movedAfter = (n: number) =>
    finished.some((m) => m > n && (trees.get(m) === null || trees.get(n) === null || trees.get(m) !== trees.get(n)));
  const earliest = new Map<string, number>();
  const latest = new Map<string, number>();
  // Ascending, so the first round to hold an id is the one kept.
  for (const n of finished.filter((k) => k < round && movedAfter(k))) {
    for (const id of cardIdsIn(await readJsonOrNull(keptCards(review, n)))) {
      if (!earliest.has(id)) earliest.set(id, n);
      latest.set(id, n);
    }
  }
  const present = new Set(cards.map((card) => card.id));
  return {
    round,
    rounds: new Map(cards.map((card) => [card.id, earliest.get(card.id) ?? round])),
    missing: [...latest].filter(([id]) => !present.has(id)).map(([id, n]) => ({ id, round: n })),
  };
}

/** The card ids in a parsed cards.json, read leniently: it is kept as the agent wrote it, right or wrong. */
export function cardIdsIn(json: unknown): string[] {
  const cards = typeof json === 'object' && json !== null ? (json as { cards?: unknown }).cards : undefined;
  if (!Array.isArray(cards)) return [];
  return cards
    .map((card: unknown) => (typeof card === 'object' && card !== null ? (card as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '');
}
