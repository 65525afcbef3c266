import type { DiffLine } from './diff-lines';
import type { Side } from './note-keys';

/** Lines `from` to `to` of one side of a file's diff (one line when they are equal). */
export interface LineRange {
  side: Side;
  from: number;
  to: number;
}

/**
 * The lines between two line numbers the reader chose (a drag, Shift+click or
 * Shift+arrows), on the side of the first: every line of that side the diff shows between
 * them, kept inside the first one's hunk, since a note quotes lines that read one after
 * another. Null when either line is not in the diff.
 */
export function rangeBetween(
  lines: DiffLine[],
  start: { side: Side; line: number },
  end: { side: Side; line: number },
): LineRange | null {
  const first = find(lines, start);
  const last = find(lines, end);
  if (!first || !last) return null;
  const step = last.index >= first.index ? 1 : -1;
  const numbers: number[] = [];
  for (let i = first.index; lines[i] && lines[i]!.type !== 'hunk'; i += step) {
    const n = numberOf(lines[i]!, start.side);
    if (n !== null) numbers.push(n);
    if (i === last.index) break;
  }
  return { side: start.side, from: Math.min(...numbers), to: Math.max(...numbers) };
}

const numberOf = (line: DiffLine, side: Side) => (side === '+' ? line.newNumber : line.oldNumber);
const find = (lines: DiffLine[], at: { side: Side; line: number }) =>
  lines.find((l) => numberOf(l, at.side) === at.line);
