import { useLayoutEffect, useState, type RefObject } from 'react';

interface Waiting {
  element: Element;
  go: () => void;
}

const waiting: Waiting[] = [];
let frame = 0;

function onScreen(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
}

/** One waiting chunk per frame: one on screen first (the reader scrolled to it), else the first in line. */
function next(): void {
  frame = 0;
  if (!waiting.length) return;
  let at = waiting.findIndex((w) => onScreen(w.element));
  if (at === -1) at = 0;
  const [turn] = waiting.splice(at, 1);
  turn!.go();
  if (waiting.length) frame = requestAnimationFrame(next);
}

function enqueue(item: Waiting): () => void {
  waiting.push(item);
  if (!frame) frame = requestAnimationFrame(next);
  return () => {
    const at = waiting.indexOf(item);
    if (at !== -1) waiting.splice(at, 1);
  };
}

/**
 * Whether a chunk that is near the viewport may draw now. One on screen draws at once
 * (before the frame is painted); the others near it wait their turn, one per frame, so
 * jumping into the middle of a long diff never lays out every chunk of the margin in
 * one task.
 */
export function useDrawTurn(ref: RefObject<Element | null>, near: boolean): boolean {
  const [turn, setTurn] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!near || !element) {
      setTurn(false);
      return;
    }
    if (onScreen(element)) {
      setTurn(true);
      return;
    }
    return enqueue({ element, go: () => setTurn(true) });
  }, [ref, near]);
  return near && turn;
}
