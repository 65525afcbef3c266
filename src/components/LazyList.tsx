import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { scrollRowIntoView, useRowWindow } from '../state/useRowWindow';

/** Lists up to this long are drawn whole; longer ones draw only the rows in the sidebar's view. */
const WHOLE = 300;

/** A row's height before one is measured (a one-line `.inv-nav-item`). */
const ROW_GUESS = 27;

interface Props<T> {
  items: T[];
  /** Index of the selected item (-1: none): a long list scrolls it into the sidebar's view. */
  selected: number;
  children: (item: T) => ReactNode;
}

/**
 * A list of the sidebar. A long one (100,000 cards) is drawn as one-line rows, only those
 * in the sidebar's view with a margin, in a list as tall as all of them: scrolling reaches
 * every row, the page holds a screenful, and a card selected by key is scrolled into view.
 */
export function LazyList<T>({ items, selected, children }: Props<T>) {
  if (items.length <= WHOLE) return <ul>{items.map(children)}</ul>;
  return (
    <WindowedList items={items} selected={selected}>
      {children}
    </WindowedList>
  );
}

function WindowedList<T>({ items, selected, children }: Props<T>) {
  const list = useRef<HTMLUListElement>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const [rowHeight, setRowHeight] = useState(ROW_GUESS);
  useLayoutEffect(() => {
    scroller.current = list.current?.closest<HTMLElement>('.inv-sidebar') ?? null;
    const row = list.current?.querySelector('li')?.getBoundingClientRect().height;
    if (row && Math.abs(row - rowHeight) > 0.5) setRowHeight(row);
  }, [rowHeight, items]);
  const { start, end } = useRowWindow(scroller, list, items.length, rowHeight);
  useEffect(() => {
    if (selected >= 0 && scroller.current && list.current)
      scrollRowIntoView(scroller.current, list.current, selected, rowHeight);
  }, [selected, rowHeight]);
  return (
    <ul
      ref={list}
      className="inv-nav-window"
      style={{ height: items.length * rowHeight, paddingTop: start * rowHeight }}
    >
      {items.slice(start, end).map(children)}
    </ul>
  );
}
