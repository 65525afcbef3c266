import type { Found } from '../state/target';
import { foundRange } from './found';
import { holdInPlace } from './holdInPlace';

/** Space left between the sticky headers and a jump's target. */
const GAP = 8;

/** The bottom of the app's sticky header bar, in viewport pixels. */
export function headerBottom(): number {
  return document.querySelector('.inv-header')?.getBoundingClientRect().bottom ?? 0;
}

/**
 * Where the top of a target inside `section` must be to be in sight: below the app bar
 * and the file's own sticky header (which sticks under the bar once the file is scrolled).
 */
export function sightTop(section: Element | null): number {
  const fileHeader = section?.querySelector<HTMLElement>(':scope > .inv-file-content > .inv-file-header');
  return headerBottom() + (fileHeader?.offsetHeight ?? 0) + GAP;
}

/** Scrolls so `element`'s top sits just below the sticky headers, and keeps it there while what is above it takes its real height. */
export function landInSight(element: Element): void {
  const section = element.closest('section.inv-file');
  const drift = element.getBoundingClientRect().top - sightTop(section);
  if (Math.abs(drift) >= 1) window.scrollBy(0, drift);
  const top = sightTop(section);
  holdInPlace(() => (element.isConnected ? element : null), top);
}

/**
 * Scrolls the diff pane holding `row` sideways, when it must, so what a search found in the
 * row's code is in view: a match far along a long line is otherwise off the pane.
 */
export function showAlongRow(row: Element, found: Found): void {
  const pane = row.closest<HTMLElement>('.d2h-file-diff, .d2h-file-side-diff');
  if (!pane || pane.scrollWidth <= pane.clientWidth) return;
  const range = foundRange(row, found);
  if (!range) return;
  const word = range.getBoundingClientRect();
  const box = pane.getBoundingClientRect();
  // The line numbers stay at the pane's left edge: what is under them is not in view.
  const left = box.left + (row.querySelector('td')?.getBoundingClientRect().width ?? 0);
  if (word.left >= left && word.right <= box.right) return;
  pane.scrollLeft += word.left - left - Math.max(0, (box.right - left - word.width) / 3);
}
