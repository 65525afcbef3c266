import type { Side } from './note-keys';

/** One line of a unified diff body with its numbers in the old and new file. */
export interface DiffLine {
  /** Index of the line in the diff text (0-based). */
  index: number;
  /** The line exactly as it reads in the diff, prefix included. */
  text: string;
  type: 'hunk' | 'context' | 'insert' | 'delete' | 'meta';
  oldNumber: number | null;
  newNumber: number | null;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Splits a material `diff` into numbered lines (the trailing newline makes no extra line). */
export function diffLines(diff: string): DiffLine[] {
  const texts = diff.split('\n');
  if (texts[texts.length - 1] === '') texts.pop();
  let oldNo = 0;
  let newNo = 0;
  return texts.map((text, index) => {
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      return { index, text, type: 'hunk', oldNumber: null, newNumber: null };
    }
    const first = text[0];
    if (first === '+') return { index, text, type: 'insert', oldNumber: null, newNumber: newNo++ };
    if (first === '-') return { index, text, type: 'delete', oldNumber: oldNo++, newNumber: null };
    if (first === ' ' || text === '') return { index, text, type: 'context', oldNumber: oldNo++, newNumber: newNo++ };
    return { index, text, type: 'meta', oldNumber: null, newNumber: null };
  });
}

/** Where a line note sits: new side for added and context lines, old side for deleted ones. */
export function lineAnchor(line: DiffLine): { side: Side; line: number } | null {
  if (line.newNumber !== null) return { side: '+', line: line.newNumber };
  if (line.oldNumber !== null) return { side: '-', line: line.oldNumber };
  return null;
}

/** The diff line a side and number point at, if the diff shows it. */
export function findLine(lines: DiffLine[], side: Side, line: number): DiffLine | undefined {
  return lines.find((l) => (side === '+' ? l.newNumber === line : l.oldNumber === line));
}

/** Lines of a diff (its newlines). */
export function countLines(diff: string | null): number {
  if (!diff) return 0;
  let n = 0;
  for (let i = diff.indexOf('\n'); i !== -1; i = diff.indexOf('\n', i + 1)) n++;
  return n;
}
