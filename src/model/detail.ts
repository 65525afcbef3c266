import type { Intent } from '../../schemas/cards';

/** How open a card starts: folded (title only), summary (fields, no diff), full (fields and diff). */
export type Detail = 'folded' | 'summary' | 'full';

const LEVELS: Detail[] = ['folded', 'summary', 'full'];

/** Where each intent starts before the reader has taught anything: what can hurt opens, tidying folds. */
const DEFAULT_DETAIL: Record<Intent, Detail> = {
  risk: 'full',
  behavior: 'full',
  structure: 'summary',
  assets: 'summary',
  cleanup: 'folded',
};

/** What the reader did with cards of one intent: how often they opened further or closed. */
export interface DetailHistory {
  opened: number;
  closed: number;
}

/** How many net actions in one direction move the default one level. */
const STEP = 3;

/**
 * The starting detail for an intent: its default, shifted one level per STEP net
 * opens (or closes) the reader made on cards of that intent. Never read from cards.json.
 */
export function startingDetail(intent: Intent, history: DetailHistory | undefined): Detail {
  const base = LEVELS.indexOf(DEFAULT_DETAIL[intent]);
  if (!history) return LEVELS[base]!;
  const shift = Math.trunc((history.opened - history.closed) / STEP);
  return LEVELS[Math.max(0, Math.min(LEVELS.length - 1, base + shift))]!;
}

/** Records a change of detail the reader made on a card, as an open or a close. */
export function learn(history: DetailHistory | undefined, from: Detail, to: Detail): DetailHistory {
  const h = history ?? { opened: 0, closed: 0 };
  const delta = LEVELS.indexOf(to) - LEVELS.indexOf(from);
  if (delta > 0) return { ...h, opened: h.opened + 1 };
  if (delta < 0) return { ...h, closed: h.closed + 1 };
  return h;
}
