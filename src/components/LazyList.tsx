import { useEffect, useRef, useState, type ReactNode } from 'react';

/** Rows drawn at first, and added each time the end of the list comes near. */
const PAGE = 200;

interface Props<T> {
  items: T[];
  /** Index of the selected item (-1: none): it is always drawn, and the rows before it. */
  selected: number;
  children: (item: T) => ReactNode;
}

/**
 * A list drawn a page at a time: the first rows at once, the next ones when the reader
 * scrolls near the end, so 100,000 cards cost the first paint only what is on screen.
 * Every item stays reachable: by scrolling, and by selecting it (keyboard), which draws
 * the list down to it.
 */
export function LazyList<T>({ items, selected, children }: Props<T>) {
  const [count, setCount] = useState(PAGE);
  const more = useRef<HTMLLIElement>(null);
  const shown = Math.min(items.length, Math.max(count, selected + 1));
  useEffect(() => {
    const sentinel = more.current;
    if (!sentinel) return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((entry) => entry.isIntersecting)) setCount((c) => Math.max(c, shown) + PAGE * 5);
      },
      { rootMargin: '400px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [shown]);
  return (
    <ul>
      {items.slice(0, shown).map(children)}
      {shown < items.length && (
        <li ref={more} className="inv-nav-more inv-muted">
          {(items.length - shown).toLocaleString()} more below…
        </li>
      )}
    </ul>
  );
}
