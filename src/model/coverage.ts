import type { Card, Intent } from '../../schemas/cards';
import type { Entry } from './entry';

/** The order the intent groups appear in: what can hurt first, tidying last. */
const INTENT_ORDER: Intent[] = ['risk', 'behavior', 'structure', 'cleanup', 'assets'];

export interface Coverage {
  /** Changed files referenced by at least one card. */
  explained: number;
  /** All changed files. */
  total: number;
  /** Files no card claims, in material order. */
  unclaimed: Entry[];
  /** Per card id, the refs it names that are not in the material. */
  dangling: Map<string, string[]>;
}

/** What the cards explain of the material, and what they name that is not there. */
export function coverage(material: Entry[], cards: Card[]): Coverage {
  const refs = new Set(material.map((e) => e.ref));
  const claimed = new Set<string>();
  const dangling = new Map<string, string[]>();
  for (const card of cards) {
    const missing: string[] = [];
    for (const ref of card.refs) {
      if (refs.has(ref)) claimed.add(ref);
      else missing.push(ref);
    }
    if (missing.length) dangling.set(card.id, missing);
  }
  return {
    explained: claimed.size,
    total: material.length,
    unclaimed: material.filter((e) => !claimed.has(e.ref)),
    dangling,
  };
}

export function coverageLine({ explained, total }: Pick<Coverage, 'explained' | 'total'>): string {
  if (total === 0) return 'No changed files in this round.';
  return `${explained} of ${total} changed ${total === 1 ? 'file is' : 'files are'} explained by cards`;
}

/** Cards grouped by intent in INTENT_ORDER, each group in file order; empty groups left out. */
export function groupByIntent<T extends Pick<Card, 'intent'>>(cards: T[]): Array<{ intent: Intent; cards: T[] }> {
  return INTENT_ORDER.map((intent) => ({ intent, cards: cards.filter((c) => c.intent === intent) })).filter(
    (g) => g.cards.length,
  );
}

/** For each card id, the ids of the later cards that continue it. */
export function continuations(cards: Card[]): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const card of cards) {
    if (!card.continues) continue;
    byId.set(card.continues, [...(byId.get(card.continues) ?? []), card.id]);
  }
  return byId;
}
