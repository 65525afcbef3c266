import { useLayoutEffect, useState, type RefObject } from 'react';

type Listener = (near: boolean) => void;
const observers = new Map<string, { observer: IntersectionObserver; listeners: Map<Element, Listener> }>();

/** One IntersectionObserver per margin, shared by every element that asks. */
function observe(element: Element, margin: string, listener: Listener): () => void {
  let entry = observers.get(margin);
  if (!entry) {
    const listeners = new Map<Element, Listener>();
    const observer = new IntersectionObserver(
      (records) => {
        for (const record of records) listeners.get(record.target)?.(record.isIntersecting);
      },
      { rootMargin: margin },
    );
    entry = { observer, listeners };
    observers.set(margin, entry);
  }
  entry.listeners.set(element, listener);
  entry.observer.observe(element);
  const { observer, listeners } = entry;
  return () => {
    listeners.delete(element);
    observer.unobserve(element);
  };
}

/** The vertical part of a margin such as `1200px 0px`, in pixels. */
function verticalMargin(margin: string): number {
  return Number.parseFloat(margin) || 0;
}

/**
 * Whether the element is within `margin` of the viewport right now. Read once when an
 * element mounts, so what is already in view draws in the same frame instead of a frame
 * later, when the observer first reports. An element laid out with no size (inside a
 * folded parent, say) counts as far, and so does every element after one found below the
 * viewport in the same task (a page of 2,000 files measures a handful); the observer
 * corrects any of these a frame later.
 */
function nearNow(element: Element, margin: string): boolean {
  if (below && below.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) return false;
  const where = position(element, margin);
  if (where === 'below' && !below) {
    below = element;
    queueMicrotask(() => (below = null));
  }
  return where === 'near';
}
/** The first element found below the viewport in this task: what follows it is below too. */
let below: Element | null = null;

function position(element: Element, margin: string): 'above' | 'near' | 'below' | 'unlaid' {
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return 'unlaid';
  const m = verticalMargin(margin);
  if (rect.top > window.innerHeight + m) return 'below';
  return rect.bottom >= -m ? 'near' : 'above';
}

/**
 * Tells the watched elements in the viewport at once that they are near, without waiting
 * for the observers' next report (a frame later). For a jump: called right after a
 * scroll, the files and chunks it brought into view render in the same task, and are
 * painted in the next frame; what lies within the margins around the viewport is drawn
 * when the observers report, after that frame. Only what the children of `list` in the
 * viewport hold is measured (they are laid out one under the other, so found by
 * bisection): a block or two of files, not the 2,000 files of a large round.
 */
export function refreshNear(list: Element): void {
  // The viewport moved: what was below it earlier in this task may be in view now.
  below = null;
  const inView = childrenNear(list, 0);
  if (!inView.length) return;
  for (const { listeners } of observers.values()) {
    for (const [element, listener] of listeners) {
      if (inView.some((child) => child.contains(element)) && position(element, '0px') === 'near') listener(true);
    }
  }
}

/** The children of `list` within `m` pixels of the viewport, in order. */
function childrenNear(list: Element, m: number): Element[] {
  const children = list.children;
  let low = 0;
  let high = children.length;
  // The first child whose bottom is not above the margin.
  while (low < high) {
    const mid = (low + high) >> 1;
    if (children[mid]!.getBoundingClientRect().bottom < -m) low = mid + 1;
    else high = mid;
  }
  const near: Element[] = [];
  for (let i = low; i < children.length && children[i]!.getBoundingClientRect().top <= window.innerHeight + m; i++)
    near.push(children[i]!);
  return near;
}

/** The margin diff chunks are drawn within. */
export const NEAR = '1200px 0px';

/**
 * True while the element is within `margin` of the viewport. Diff chunks render only
 * then, and are dropped again when far away, so a round of any size keeps a small page.
 * `sticky` keeps it true once it has been near (for what should render once and stay).
 */
export function useNearViewport(
  ref: RefObject<Element | null>,
  margin = NEAR,
  { sticky = false }: { sticky?: boolean } = {},
): boolean {
  const [near, setNear] = useState(false);
  // Before the first paint: what is already in view renders now (a layout-effect update is synchronous).
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && nearNow(element, margin)) setNear(true);
  }, [ref, margin]);
  const done = sticky && near;
  // Watched from the layout phase too, so a jump made in the same commit (refreshNear) sees it.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || done) return;
    return observe(element, margin, setNear);
  }, [ref, margin, done]);
  return near;
}
