import type { DiffLine } from './diff-lines';
import type { Side } from './note-keys';

/**
 * Where a line note sits in the file's current diff: `line` is the line it is pinned
 * under (a range's last line), `lines` all it covers, numbered `from` to `to`.
 */
export type LineNotePlace =
  { state: 'anchored' | 'moved'; line: DiffLine; lines: DiffLine[]; from: number; to: number } | { state: 'outdated' };

/**
 * Places a line or range note written against an earlier round. It stays on its lines
 * when they still read as quoted; otherwise it moves only to the one run of lines that
 * reads exactly as quoted (never to nearby lines); with no such run, or several, it is
 * outdated and shown apart, never dropped. A range's quote holds its lines, one a line.
 */
export function placeLineNote(
  lines: DiffLine[],
  side: Side,
  number: number,
  quote: string | undefined,
  to = number,
): LineNotePlace {
  const numbered = lines.filter((l) => numberOf(l, side) !== null);
  const count = to - number + 1;
  const at = numbered.findIndex((l) => numberOf(l, side) === number);
  const run = (start: number) => {
    const span = numbered.slice(start, start + count);
    const consecutive =
      span.length === count && span.every((l, i) => numberOf(l, side) === numberOf(span[0]!, side)! + i);
    return consecutive ? span : null;
  };
  const placed = (state: 'anchored' | 'moved', span: DiffLine[]): LineNotePlace => ({
    state,
    line: span[span.length - 1]!,
    lines: span,
    from: numberOf(span[0]!, side)!,
    to: numberOf(span[span.length - 1]!, side)!,
  });
  const here = at === -1 ? null : run(at);
  if (quote === undefined) return here ? placed('anchored', here) : { state: 'outdated' };
  const reads = (span: DiffLine[] | null) => span !== null && span.map((l) => l.text).join('\n') === quote;
  if (reads(here)) return placed('anchored', here!);
  const first = quote.split('\n', 1)[0];
  const same = numbered.flatMap((l, i) => (l.text === first ? [run(i)] : [])).filter(reads);
  return same.length === 1 ? placed('moved', same[0]!) : { state: 'outdated' };
}

const numberOf = (line: DiffLine, side: Side) => (side === '+' ? line.newNumber : line.oldNumber);
