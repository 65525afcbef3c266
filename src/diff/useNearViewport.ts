import { useEffect, useState, type RefObject } from 'react';

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

/**
 * True while the element is within `margin` of the viewport. Diff chunks render only
 * then, and are dropped again when far away, so a round of any size keeps a small page.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '1200px 0px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    return observe(element, margin, setNear);
  }, [ref, margin]);
  return near;
}
