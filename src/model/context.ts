/**
 * One hunk of a unified diff. `oldFirst` and `newFirst` are the numbers its first line
 * takes on each side; for a side with no lines git writes the line before (`-4,0`), which
 * is read here as the line after (5), so every hunk follows the same arithmetic.
 */
export interface Hunk {
  oldFirst: number;
  newFirst: number;
  /** What follows the second `@@` of the header (git's function context), with its leading space. */
  title: string;
  lines: string[];
}

/** Lines a hunk covers on each side (`\\ No newline` markers take none). */
function counts(lines: string[]): { old: number; new: number } {
  let old = 0;
  let now = 0;
  for (const line of lines) {
    const first = line[0];
    if (first === '\\') continue;
    if (first !== '+') old++;
    if (first !== '-') now++;
  }
  return { old, new: now };
}

/** Splits a material diff (from its first `@@`) into hunks. */
export function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/.exec(line);
    if (header) {
      const first = (start: string, count: string | undefined) => Number(start) + (count === '0' ? 1 : 0);
      hunks.push({
        oldFirst: first(header[1]!, header[2]),
        newFirst: first(header[3]!, header[4]),
        title: header[5]!,
        lines: [],
      });
    } else hunks.at(-1)?.lines.push(line);
  }
  return hunks;
}

/** The first new-side line after a hunk. */
function newEnd(hunk: Hunk): number {
  return hunk.newFirst + counts(hunk.lines).new;
}

function header(hunk: Hunk): string {
  const c = counts(hunk.lines);
  const side = (first: number, n: number) => (n === 0 ? `${first - 1},0` : n === 1 ? `${first}` : `${first},${n}`);
  return `@@ -${side(hunk.oldFirst, c.old)} +${side(hunk.newFirst, c.new)} @@${hunk.title}`;
}

/**
 * The diff with the revealed lines of the after file (`file`, numbered from 1) shown as
 * context around its hunks: lines in no hunk are the same on both sides, so each keeps its
 * new number and takes the old number the hunks next to it imply. Hunks that touch, once
 * revealed lines fill the gap between them, become one. `revealed` holds new-side ranges
 * ([first, last], inclusive); lines already in a hunk are not repeated.
 */
export function expandDiff(diff: string, file: string[], revealed: Array<[number, number]>): string {
  const hunks = parseHunks(diff);
  if (hunks.length === 0 || revealed.length === 0) return diff;
  const shown = new Set<number>();
  for (const [first, last] of revealed)
    for (let n = Math.max(1, first); n <= Math.min(file.length, last); n++) shown.add(n);
  const pieces: Hunk[] = [];
  // Unchanged lines from `from` up to (not including) `to`, each old number `delta` below its new one.
  const gap = (from: number, to: number, delta: number) => {
    let run: Hunk | null = null;
    for (let n = from; n < to; n++) {
      if (!shown.has(n)) {
        run = null;
        continue;
      }
      if (!run) pieces.push((run = { oldFirst: n - delta, newFirst: n, title: '', lines: [] }));
      run.lines.push(` ${file[n - 1]}`);
    }
  };
  let at = 1;
  for (const hunk of hunks) {
    gap(at, hunk.newFirst, hunk.newFirst - hunk.oldFirst);
    pieces.push(hunk);
    at = newEnd(hunk);
  }
  const last = hunks.at(-1)!;
  const c = counts(last.lines);
  gap(at, file.length + 1, last.newFirst + c.new - (last.oldFirst + c.old));
  return merge(pieces)
    .map((hunk) => [header(hunk), ...hunk.lines].join('\n'))
    .join('\n')
    .concat('\n');
}

/** Joins each piece to the one before it when it starts on the new line where that one ends. */
function merge(pieces: Hunk[]): Hunk[] {
  const out: Hunk[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last && newEnd(last) === piece.newFirst && !last.lines.at(-1)?.startsWith('\\')) {
      out[out.length - 1] = { ...last, lines: [...last.lines, ...piece.lines] };
    } else out.push({ ...piece, lines: [...piece.lines] });
  }
  return out;
}

/** The new-side lines above the hunk with this header (as the diff shows it) that are in no hunk yet, at most `step` of them. */
export function linesAbove(diff: string, hunkHeader: string, step: number): [number, number] | null {
  const newFirst = parseHunks(hunkHeader.trim())[0]?.newFirst;
  const hunks = parseHunks(diff);
  const index = hunks.findIndex((h) => h.newFirst === newFirst);
  if (index === -1) return null;
  const floor = index === 0 ? 1 : newEnd(hunks[index - 1]!);
  const last = hunks[index]!.newFirst - 1;
  return last >= floor ? [Math.max(floor, last - step + 1), last] : null;
}

/** The new-side lines below the last hunk that are in no hunk yet, at most `step` of them; null when the diff reaches the file's end. */
export function linesBelow(diff: string, total: number, step: number): [number, number] | null {
  const last = parseHunks(diff).at(-1);
  if (!last) return null;
  const first = newEnd(last);
  return first <= total ? [first, Math.min(total, first + step - 1)] : null;
}
