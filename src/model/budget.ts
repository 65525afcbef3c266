import type { Card } from '../../schemas/cards';

/** Which cards fit the reader's daily budget, read in the order given. */
export function budget(cards: Card[], minutes: number): { total: number; fits: Set<string> } {
  let used = 0;
  let total = 0;
  const fits = new Set<string>();
  for (const card of cards) {
    const m = card.minutes ?? 0;
    total += m;
    if (used + m <= minutes) {
      used += m;
      fits.add(card.id);
    }
  }
  return { total, fits };
}
