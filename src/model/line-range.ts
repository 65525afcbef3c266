import type { DiffLine } from '../../shared/diff-lines';
import type { Side } from '../../shared/note-keys';

/** Lines `from` to `to` of one side of a file's diff (one line when they are equal). */
export interface LineRange {
  side: Side;
  from: number;
  to: number;
}

/**
 * The lines between two line numbers the reader chose (a drag, Shift+click or
 * Shift+arrows): every line the diff shows between them, kept inside the first one's
 * hunk, since a note quotes lines that read one after another. A note is on one side:
 * the side that numbers more of those lines (context lines have both numbers), the
 * first line's side when both number as many. Null when either line is not in the diff.
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
  const span: DiffLine[] = [];
  for (let i = first.index; lines[i] && lines[i]!.type !== 'hunk'; i += step) {
    span.push(lines[i]!);
    if (i === last.index) break;
  }
  const numbers = (side: Side) => span.map((l) => numberOf(l, side)).filter((n) => n !== null);
  const other: Side = start.side === '+' ? '-' : '+';
  const side = numbers(other).length > numbers(start.side).length ? other : start.side;
  return { side, from: Math.min(...numbers(side)), to: Math.max(...numbers(side)) };
}

const numberOf = (line: DiffLine, side: Side) => (side === '+' ? line.newNumber : line.oldNumber);
const find = (lines: DiffLine[], at: { side: Side; line: number }) =>
  lines.find((l) => numberOf(l, at.side) === at.line);
