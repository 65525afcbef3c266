import type { Entry } from '../model/entry';
import { countLines } from '../../shared/diff-lines';
import { ROW_HEIGHT } from './rows';

/** Files this many diff lines long start folded, with their size shown. */
export const HUGE_LINES = 3000;

/** The space between two files (`.inv-file`'s margin; the margins of adjacent files collapse). */
const FILE_GAP = 14;

/** Diffs longer than this (in characters) start folded too, however few lines they have: one 10 MB line is as heavy as many. */
export const HUGE_CHARS = 512 * 1024;

/** Whether a file starts unfolded: all but generated or huge ones, unless a card marks a line in it. */
export function startsOpen(entry: Entry, lineCount: number, marked: boolean): boolean {
  return !(entry.generated === true || lineCount > HUGE_LINES || diffChars(entry) > HUGE_CHARS) || marked;
}

/**
 * About how tall a file's section will be once drawn (header, body, note box), for a file
 * still far from view: it is laid out at this height, so the scrollbar and a jump to any
 * file land about right before anything between is drawn. The browser keeps the real
 * height once a file has been drawn (`contain-intrinsic-size: auto`). The constants are
 * measured on the viewer's own styles (header 35 px, file note box 81 px, borders).
 */
export function estimateFileHeight(entry: Entry, lineCount: number, open: boolean, fileNote: boolean): number {
  const foldable = !entry.withheld && !entry.binary && diffChars(entry) > 0;
  // A folded file folds its note box too.
  const frame = fileNote && (open || !foldable) ? 134 : 53;
  let body: number;
  if (entry.withheld || diffChars(entry) === 0) body = entry.binary ? binaryBody(entry) : 41;
  else if (entry.binary) body = binaryBody(entry);
  else if (!open) body = 41;
  // Every diff line is one row in line-by-line (hunk headers included), at most that in side-by-side.
  else body = lineCount * ROW_HEIGHT;
  return frame + body;
}

/** About how tall a run of files far from view will be, gaps between them included. */
export function estimateFilesHeight(entries: Entry[], marked: (entry: Entry) => boolean, fileNote: boolean): number {
  let height = FILE_GAP * Math.max(0, entries.length - 1);
  for (const entry of entries) {
    const lineCount = diffLineCount(entry);
    height += estimateFileHeight(entry, lineCount, startsOpen(entry, lineCount, marked(entry)), fileNote);
  }
  return height;
}

const binaryBody = (entry: Entry) => (entry.size ? Math.min(entry.size.h, 600) + 52 : 41);

/** Lines of a file's diff: counted when it is at hand, else as the round's index gives them. */
export function diffLineCount(entry: Entry): number {
  return entry.diff !== undefined ? countLines(entry.diff) : (entry.lines ?? 0);
}

/** Characters of a file's diff, at hand or not. */
function diffChars(entry: Entry): number {
  return entry.diff !== undefined ? (entry.diff?.length ?? 0) : (entry.chars ?? 0);
}
