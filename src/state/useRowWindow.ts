import { useEffect, useState, type RefObject } from 'react';

/** Rows drawn beyond each edge of the view, so a quick scroll shows no empty band. */
const OVERSCAN = 12;

/** Rows drawn before the list is first measured: about a screen. */
const FIRST = 60;

/**
 * Which rows of a list of fixed-height rows are in its scrolling box's view, with a margin:
 * the only ones a list of 10,000 needs in the page. `list` is the list inside `scroller`
 * (other content may sit above it); `end` is exclusive.
 */
export function useRowWindow(
  scroller: RefObject<HTMLElement | null>,
  list: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
): { start: number; end: number } {
  const [range, setRange] = useState({ start: 0, end: FIRST });
  // A passive effect: a scroller that is the list's parent has its ref set only after the list's layout effects ran.
  useEffect(() => {
    const box = scroller.current;
    const rows = list.current;
    if (!box || !rows) return;
    const measure = () => {
      const listTop = rows.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      const from = box.scrollTop - listTop;
      // A list wholly below the view draws no row (nor, wholly above it: `start` passes the count).
      const start = Math.max(0, Math.floor(from / rowHeight) - OVERSCAN);
      const end = Math.max(start, Math.ceil((from + box.clientHeight) / rowHeight) + OVERSCAN);
      setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
    };
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(box);
    return () => {
      box.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, [scroller, list, count, rowHeight]);
  return { start: Math.min(range.start, count), end: Math.min(range.end, count) };
}

/** Scrolls `scroller` the least that brings row `index` of `list` fully into its view. */
export function scrollRowIntoView(scroller: HTMLElement, list: HTMLElement, index: number, rowHeight: number): void {
  const top = list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
  const rowTop = top + index * rowHeight;
  if (rowTop < scroller.scrollTop) scroller.scrollTop = rowTop;
  else if (rowTop + rowHeight > scroller.scrollTop + scroller.clientHeight)
    scroller.scrollTop = rowTop + rowHeight - scroller.clientHeight;
}
