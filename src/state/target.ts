import { useSyncExternalStore } from 'react';
import type { Side } from '../diff/rows';

/** Where a jump wants the reader: a file, or one line of it (by side and number). */
export interface Target {
  ref: string;
  line?: { side: Side; number: number };
  /** Grows with every jump, so a jump to the same place again is a new one. */
  seq: number;
  /** False when the reader chose the line where it is (a click): it is marked, not scrolled to. */
  scroll: boolean;
  /** What a search found on the line: it is highlighted, and a long line is scrolled sideways to show it. */
  find?: Found;
}

/** A search's match on a line: the text around it, as the server quoted it, and where in that text the match lies. */
export interface Found {
  around: string;
  start: number;
  end: number;
}

let current: Target | null = null;
let seq = 0;
const listeners = new Set<() => void>();

/**
 * Asks the file (and line) to show itself: the file unfolds, the part of its diff holding
 * the line is drawn at once, and the row scrolls below the sticky headers, highlighted.
 */
export function revealTarget(
  ref: string,
  line?: Target['line'],
  { scroll = true, find }: { scroll?: boolean; find?: Found } = {},
): Target {
  current = { ref, line, seq: ++seq, scroll, ...(find ? { find } : {}) };
  for (const listener of listeners) listener();
  return current;
}

export function clearTarget(): void {
  current = null;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current target when it is in this file, else null (a component re-renders only when that changes). */
export function useTargetIn(ref: string): Target | null {
  return useSyncExternalStore(subscribe, () => (current?.ref === ref ? current : null));
}

/** The current target, wherever it is. */
export function useTarget(): Target | null {
  return useSyncExternalStore(subscribe, () => current);
}

export function targetNow(): Target | null {
  return current;
}
