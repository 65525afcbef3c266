import type { MaterialEntry } from '../../schemas/material';
import { ROW_HEIGHT } from './rows';

/**
 * About how tall a file's section will be once drawn (header, body, note box), for a file
 * still far from view: it is laid out at this height, so the scrollbar and a jump to any
 * file land about right before anything between is drawn. The browser keeps the real
 * height once a file has been drawn (`contain-intrinsic-size: auto`). The constants are
 * measured on the viewer's own styles (header 35 px, file note box 81 px, borders).
 */
export function estimateFileHeight(entry: MaterialEntry, lineCount: number, open: boolean, fileNote: boolean): number {
  const frame = fileNote ? 134 : 53;
  let body: number;
  if (entry.withheld || entry.diff === '' || (entry.diff === null && !entry.binary)) body = 41;
  else if (entry.binary) body = entry.size ? Math.min(entry.size.h, 600) + 52 : 41;
  else if (!open) body = 41;
  // Every diff line is one row in line-by-line (hunk headers included), at most that in side-by-side.
  else body = lineCount * ROW_HEIGHT;
  return frame + body;
}
