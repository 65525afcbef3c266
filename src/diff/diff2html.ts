/**
 * The one module that imports diff2html. It parses a material entry's diff, cuts it
 * into chunks small enough to render in a frame, and draws one chunk at a time:
 * plain first, its changed words marked and its syntax highlighted later, so no single
 * task holds the page.
 */
import { diffWordsWithSpace } from 'diff';
import { parse } from 'diff2html';
import { ColorSchemeType, type DiffFile } from 'diff2html/lib-esm/types';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-base';
import 'diff2html/bundles/css/diff2html.min.css';
import { markInvisible } from './invisible-marks';

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
const CHUNK_LINES = 60;

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

/** What chunking reads of a parsed diff: its blocks (hunks) and their lines' types. */
interface Blocks<B extends { lines: Array<{ type: string }> }> {
  blocks: B[];
}

/** Cuts a parsed diff into chunks of about `size` lines, splitting big hunks. */
export function chunkDiff(file: DiffFile, size?: number): Chunk[];
export function chunkDiff<F extends Blocks<B>, B extends { lines: Array<{ type: string }> }>(
  file: F,
  size?: number,
): Array<{ file: F; lineCount: number; continuation: boolean }>;
export function chunkDiff<F extends Blocks<B>, B extends { lines: Array<{ type: string }> }>(
  file: F,
  size = CHUNK_LINES,
) {
  const chunks: Array<{ file: F; lineCount: number; continuation: boolean }> = [];
  let blocks: B[] = [];
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

/**
 * A stretch of a file's diff that is parsed and drawn on its own, so a file of any size
 * costs only what is near the viewport: whole hunks of about GROUP_LINES lines together,
 * or a piece of one huge hunk.
 */
export interface DiffGroup {
  /** The group's diff text; it starts with a hunk header (a made-up one when it continues a hunk). */
  text: string;
  /** True when the group starts in the middle of a hunk: its first row (the made-up header) is not drawn. */
  continuation: boolean;
  /** Diff lines in the group (hunk headers not counted). */
  lineCount: number;
  /** The first and last line numbers the group shows on each side ([0, -1] for none). */
  range: Record<'+' | '-', [number, number]>;
}

/** Whether a group shows the line with this number on this side (the lines between its hunks are in no group). */
export function groupHasLine(group: DiffGroup, side: '+' | '-', line: number): boolean {
  const [first, last] = group.range[side];
  return line >= first && line <= last;
}

/** Lines per group: files longer than this are parsed a group at a time, when it comes near. */
const GROUP_LINES = 20 * CHUNK_LINES;

/**
 * Cuts a material diff into groups of whole hunks of at least `size` lines (the last may be
 * shorter), cutting inside a hunk only when it alone runs past twice that. Only the line
 * prefixes are read: nothing is parsed and nothing is copied but the text of the cut.
 */
export function groupDiff(diff: string, size = GROUP_LINES): DiffGroup[] {
  const groups: DiffGroup[] = [];
  let start = 0; // where the current group's text starts
  let header = ''; // the made-up header of a group that continues a hunk
  let lineCount = 0;
  let oldLine = 0;
  let newLine = 0;
  let range: DiffGroup['range'] = { '+': [0, -1], '-': [0, -1] };
  const cut = (at: number, nextHeader: string) => {
    if (at > start)
      groups.push({
        text: header ? `${header}\n${diff.slice(start, at)}` : diff.slice(start, at),
        continuation: header !== '',
        lineCount,
        range,
      });
    start = at;
    header = nextHeader;
    lineCount = 0;
    range = { '+': [0, -1], '-': [0, -1] };
  };
  const see = (side: '+' | '-', n: number) => {
    const r = range[side];
    if (r[1] < r[0]) range[side] = [n, n];
    else r[1] = n;
  };
  for (let at = 0; at < diff.length;) {
    const end = diff.indexOf('\n', at);
    const next = end === -1 ? diff.length : end + 1;
    const first = diff.charCodeAt(at);
    if (first === 64 /* @ */ && diff.startsWith('@@', at)) {
      if (lineCount >= size) cut(at, '');
      const numbers = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(diff.slice(at, Math.min(next, at + 80)));
      oldLine = numbers ? Number(numbers[1]) : 0;
      newLine = numbers ? Number(numbers[2]) : 0;
    } else if (first === 43 /* + */ || first === 45 /* - */ || first === 32 /* space */) {
      if (lineCount >= 2 * size) cut(at, `@@ -${oldLine} +${newLine} @@`);
      lineCount++;
      if (first !== 43) see('-', oldLine++);
      if (first !== 45) see('+', newLine++);
    }
    at = next;
  }
  cut(diff.length, '');
  return groups;
}

/** Parses a group and cuts it into chunks (a group that continues a hunk starts without a header row). */
export function groupChunks(ref: string, group: DiffGroup): Chunk[] {
  const parsed = parseDiff(ref, group.text);
  const chunks = parsed ? chunkDiff(parsed) : [];
  if (group.continuation && chunks[0]) chunks[0] = { ...chunks[0], continuation: true };
  return chunks;
}

type LightLine = { type: 'insert' | 'delete' | 'context' };
const INSERT: LightLine = { type: 'insert' };
const DELETE: LightLine = { type: 'delete' };
const CONTEXT: LightLine = { type: 'context' };

/**
 * How many rows a group's chunks take, without parsing it: its lines are typed as
 * diff2html types them (it drops `\ No newline` lines, empty lines and lines starting with
 * `*`, and splits lines at carriage returns), then chunked and counted by the same code as
 * the drawn chunks, so a group's placeholder is exactly as tall as the group drawn.
 */
export function groupRows(group: DiffGroup, format: DiffFormat): number {
  let text = group.text;
  if (text.includes('\\ No newline at end of file')) text = text.replace(/\\ No newline at end of file/g, '');
  const lines = text.includes('\r') ? text.replace(/\r\n?/g, '\n').split('\n') : text.split('\n');
  const blocks: Array<{ lines: LightLine[] }> = [];
  let block: { lines: LightLine[] } | null = null;
  for (const line of lines) {
    if (!line || line[0] === '*') continue;
    if (line.startsWith('@@')) {
      block = { lines: [] };
      blocks.push(block);
    } else if (block) {
      const first = line[0];
      if (first === '+') block.lines.push(INSERT);
      else if (first === '-') block.lines.push(DELETE);
      else if (first === ' ') block.lines.push(CONTEXT);
    }
  }
  const chunks = chunkDiff({ blocks });
  if (group.continuation && chunks[0]) chunks[0] = { ...chunks[0], continuation: true };
  return chunks.reduce((sum, chunk) => sum + chunkRows(chunk, format), 0);
}

/** Whether a chunk shows the line with this number on this side. */
export function chunkHasLine(chunk: Chunk, side: '+' | '-', line: number): boolean {
  return chunk.file.blocks.some((b) =>
    b.lines.some((l) => (side === '+' ? l.newNumber === line : l.oldNumber === line)),
  );
}

/** How many table rows a chunk takes, so a placeholder can have the exact height. */
export function chunkRows(
  chunk: { file: Blocks<{ lines: Array<{ type: string }> }>; continuation: boolean },
  format: DiffFormat,
): number {
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

/**
 * How every chunk is drawn: one file's table, no controls of diff2html's own, highlighting
 * done apart. diff2html still pairs the deleted and added lines of a change (`d2h-change`),
 * but does not diff their words (`maxLineLengthHighlight: 0`): that is a third of a chunk's
 * first draw, so `markWords` does it later, with the highlighting.
 */
const DRAW = {
  drawFileList: false,
  highlight: false,
  synchronisedScroll: true,
  fileListToggle: false,
  fileContentToggle: false,
  stickyFileHeaders: false,
  matching: 'none',
  diffStyle: 'word',
  maxLineLengthHighlight: 0,
  colorScheme: ColorSchemeType.AUTO,
} as const;

/** Draws a chunk into `target` in the page's colour scheme (diff2html escapes every character of the diff). */
export function drawChunk(target: HTMLElement, chunk: Chunk, format: DiffFormat, scheme: 'light' | 'dark'): void {
  const colorScheme = scheme === 'dark' ? ColorSchemeType.DARK : ColorSchemeType.LIGHT;
  new Diff2HtmlUI(target, [chunk.file], { ...DRAW, outputFormat: format, colorScheme }).draw();
  if (chunk.continuation) {
    // A chunk cut from the middle of a hunk starts without that hunk's header row.
    target.querySelectorAll('tbody.d2h-diff-tbody').forEach((body) => body.firstElementChild?.remove());
  }
  markInvisible(target);
}

/**
 * Marks the changed words of a drawn chunk, then syntax-highlights it (highlight.js,
 * common languages). highlight.js is loaded the first time, as a bundle of its own: the
 * page draws its first diffs without paying for it. A chunk dropped meanwhile is left alone.
 */
export async function highlightChunk(target: HTMLElement, format: DiffFormat): Promise<void> {
  markWords(target);
  const { Diff2HtmlUI: WithHighlighter } = await import('diff2html/lib-esm/ui/js/diff2html-ui-slim');
  if (!target.isConnected) return;
  // Without a diff to render, diff2html's UI works on the table already in `target`.
  new WithHighlighter(target, undefined, { ...DRAW, outputFormat: format }).highlightCode();
  if (target.dataset.invisible) markInvisible(target);
}

/**
 * A drawn chunk's panes whose lines run wider than the pane take the focus, so the keyboard
 * scrolls them sideways as the mouse does. Narrow ones stay out of the Tab order.
 */
export function scrollableByKeyboard(target: HTMLElement): void {
  for (const pane of target.querySelectorAll<HTMLElement>('.d2h-file-diff, .d2h-file-side-diff')) {
    if (pane.scrollWidth <= pane.clientWidth) continue;
    pane.tabIndex = 0;
    pane.setAttribute('role', 'group');
    pane.setAttribute('aria-label', 'Diff lines, scroll sideways');
  }
}

/** Paired lines sharing less than this part of their text are rewrites: marking their words would only add noise. */
const SIMILAR = 0.4;
/** Longer lines are left unmarked, as diff2html's own default does (diffing them could hold the page). */
const LONGEST_MARKED = 10_000;

/**
 * Marks, as `del` and `ins`, the words that differ between each deleted line and the added
 * line diff2html paired it with (the i-th deleted line of a change with its i-th added
 * line; in either format, the i-th of each in document order). Built as text nodes: the
 * diff's text is never parsed as HTML.
 */
function markWords(target: HTMLElement): void {
  const deleted = target.querySelectorAll('td.d2h-del.d2h-change .d2h-code-line-ctn');
  const added = target.querySelectorAll('td.d2h-ins.d2h-change .d2h-code-line-ctn');
  for (let i = 0; i < Math.min(deleted.length, added.length); i++) {
    const before = deleted[i]!.textContent ?? '';
    const after = added[i]!.textContent ?? '';
    if (!before || !after || before.length > LONGEST_MARKED || after.length > LONGEST_MARKED) continue;
    const parts = diffWordsWithSpace(before, after);
    const shared = parts.reduce((n, part) => (part.added || part.removed ? n : n + part.value.length), 0);
    if (2 * shared < SIMILAR * (before.length + after.length)) continue;
    const mark = (tag: 'del' | 'ins', text: string) =>
      Object.assign(document.createElement(tag), { textContent: text });
    deleted[i]!.replaceChildren(
      ...parts.filter((p) => !p.added).map((p) => (p.removed ? mark('del', p.value) : p.value)),
    );
    added[i]!.replaceChildren(
      ...parts.filter((p) => !p.removed).map((p) => (p.added ? mark('ins', p.value) : p.value)),
    );
  }
}
