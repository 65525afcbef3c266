/**
 * The one module that imports diff2html. It parses a material entry's diff, cuts it
 * into chunks small enough to render in a frame, and draws one chunk at a time:
 * plain first, highlighted later, so no single task holds the page.
 */
import { parse } from 'diff2html';
import { ColorSchemeType, type DiffBlock, type DiffFile } from 'diff2html/lib-esm/types';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-slim';
import 'diff2html/bundles/css/diff2html.min.css';

export type DiffFormat = 'line-by-line' | 'side-by-side';

/** A run of diff lines rendered together. */
export interface Chunk {
  file: DiffFile;
  /** Diff lines in the chunk (hunk headers not counted). */
  lineCount: number;
  /** True when the chunk starts in the middle of a hunk (its header row is dropped). */
  continuation: boolean;
}

/** Lines per chunk: one chunk renders in a few milliseconds. */
export const CHUNK_LINES = 60;

/**
 * Parses a material diff. diff2html drops `\ No newline at end of file` lines and
 * carriage returns, so rows are found by their line numbers, never by position.
 * The file name only serves to pick the highlighting language.
 */
export function parseDiff(ref: string, diff: string): DiffFile | null {
  const extension = /\.[A-Za-z0-9]+$/.exec(ref)?.[0] ?? '.txt';
  const name = `file${extension}`;
  const [file] = parse(`--- a/${name}\n+++ b/${name}\n${diff}`);
  return file ?? null;
}

/** Cuts a parsed diff into chunks of about `size` lines, splitting big hunks. */
export function chunkDiff(file: DiffFile, size = CHUNK_LINES): Chunk[] {
  const chunks: Chunk[] = [];
  let blocks: DiffBlock[] = [];
  let lineCount = 0;
  let continuation = false;
  const flush = (next: boolean) => {
    if (blocks.length) chunks.push({ file: { ...file, blocks }, lineCount, continuation });
    blocks = [];
    lineCount = 0;
    continuation = next;
  };
  for (const block of file.blocks) {
    if (lineCount >= size) flush(false);
    let start = 0;
    do {
      const lines = block.lines.slice(start, start + Math.max(1, size - lineCount));
      blocks.push({ ...block, lines });
      lineCount += lines.length;
      start += lines.length;
      if (start < block.lines.length) flush(true);
    } while (start < block.lines.length);
  }
  flush(false);
  return chunks;
}

/** Whether a chunk shows the line with this number on this side. */
export function chunkHasLine(chunk: Chunk, side: '+' | '-', line: number): boolean {
  return chunk.file.blocks.some((b) => b.lines.some((l) => (side === '+' ? l.newNumber === line : l.oldNumber === line)));
}

/** How many table rows a chunk takes, so a placeholder can have the exact height. */
export function chunkRows(chunk: Chunk, format: DiffFormat): number {
  let rows = 0;
  for (const [i, block] of chunk.file.blocks.entries()) {
    if (!(chunk.continuation && i === 0)) rows++;
    if (format === 'line-by-line') {
      rows += block.lines.length;
      continue;
    }
    let deletes = 0;
    let inserts = 0;
    for (const line of block.lines) {
      if (line.type === 'delete') {
        if (inserts) {
          rows += Math.max(deletes, inserts);
          deletes = 0;
          inserts = 0;
        }
        deletes++;
      } else if (line.type === 'insert') inserts++;
      else {
        rows += Math.max(deletes, inserts) + 1;
        deletes = 0;
        inserts = 0;
      }
    }
    rows += Math.max(deletes, inserts);
  }
  return rows;
}

/** Draws a chunk into `target` (diff2html escapes every character of the diff). */
export function drawChunk(target: HTMLElement, chunk: Chunk, format: DiffFormat): Diff2HtmlUI {
  const ui = new Diff2HtmlUI(target, [chunk.file], {
    outputFormat: format,
    drawFileList: false,
    highlight: false,
    synchronisedScroll: true,
    fileListToggle: false,
    fileContentToggle: false,
    stickyFileHeaders: false,
    matching: 'none',
    diffStyle: 'word',
    colorScheme: ColorSchemeType.AUTO,
  });
  ui.draw();
  if (chunk.continuation) {
    // A chunk cut from the middle of a hunk starts without that hunk's header row.
    target.querySelectorAll('tbody.d2h-diff-tbody').forEach((body) => body.firstElementChild?.remove());
  }
  return ui;
}

/** Syntax-highlights a drawn chunk (highlight.js, common languages). */
export function highlightChunk(ui: Diff2HtmlUI): void {
  ui.highlightCode();
}
