import type { Found } from '../state/target';

/** The name the search match's highlight is registered under (styled by `::highlight(inv-found)`). */
const HIGHLIGHT = 'inv-found';

/**
 * What a search found in a row's code, as a range across the text nodes highlighting splits
 * it into: the server's quote of the line is looked up, so the second of two equal words is
 * told from the first; the word alone when the quote is not there. Null when neither is.
 */
export function foundRange(row: Element, found: Found): Range | null {
  const code = row.querySelector('.d2h-code-line-ctn');
  const word = found.around.slice(found.start, found.end);
  if (!code || word === '') return null;
  const text = code.textContent ?? '';
  const around = text.indexOf(found.around);
  const at = around === -1 ? text.indexOf(word) : around + found.start;
  return at === -1 ? null : rangeAt(code, at, word.length);
}

/** The row whose match is highlighted: highlight.js redraws a row's text, and the highlight is painted again. */
let marked: { row: Element; found: Found } | null = null;

/**
 * Highlights what a search found in `row` (nothing, without `found`). The CSS Custom
 * Highlight API paints it without touching the page's DOM; a browser without it shows the
 * row's own mark only.
 */
export function highlightFound(row: Element | null, found?: Found): void {
  marked = row && found ? { row, found } : null;
  paintFound();
}

/** Paints the match's highlight again, after the text of drawn rows was redrawn. */
export function paintFound(): void {
  if (typeof Highlight === 'undefined' || !('highlights' in CSS)) return;
  const range = marked?.row.isConnected ? foundRange(marked.row, marked.found) : null;
  if (range) CSS.highlights.set(HIGHLIGHT, new Highlight(range));
  else CSS.highlights.delete(HIGHLIGHT);
}

/** The range of `length` characters from `at` in `element`'s text. */
function rangeAt(element: Element, at: number, length: number): Range | null {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let seen = 0;
  let started = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const size = node.textContent!.length;
    if (!started && at < seen + size) {
      range.setStart(node, at - seen);
      started = true;
    }
    if (started && at + length <= seen + size) {
      range.setEnd(node, at + length - seen);
      return range;
    }
    seen += size;
  }
  return null;
}
