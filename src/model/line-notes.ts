import type { DiffLine } from './diff-lines';
import type { Side } from './note-keys';

/** Where a line note sits in the file's current diff. */
export type LineNotePlace =
  { state: 'anchored'; line: DiffLine } | { state: 'moved'; line: DiffLine } | { state: 'outdated' };

/**
 * Places a line note written against an earlier round. It stays on its line when that
 * line still reads as quoted; otherwise it moves only to the one line that reads exactly
 * as quoted (never to a nearby line); with no such line, or several, it is outdated and
 * shown apart, never dropped.
 */
export function placeLineNote(lines: DiffLine[], side: Side, number: number, quote: string | undefined): LineNotePlace {
  const at = lines.find((l) => (side === '+' ? l.newNumber === number : l.oldNumber === number));
  if (quote === undefined) return at ? { state: 'anchored', line: at } : { state: 'outdated' };
  if (at && at.text === quote) return { state: 'anchored', line: at };
  const same = lines.filter((l) => l.text === quote);
  return same.length === 1 ? { state: 'moved', line: same[0]! } : { state: 'outdated' };
}
