import { useLayoutEffect, useState, type RefObject } from 'react';
import { whenIdle } from '../idle';

interface Waiting {
  element: Element;
  go: () => void;
}

const waiting: Waiting[] = [];
let scheduled = false;
/** A waiting chunk is drawn at the latest this long after the last one, however busy the page. */
const LATEST_MS = 100;

function onScreen(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
}

/** One waiting chunk per idle moment: one on screen first (the reader scrolled to it), else the first in line. */
function next(): void {
  scheduled = false;
  if (!waiting.length) return;
  let at = waiting.findIndex((w) => onScreen(w.element));
  if (at === -1) at = 0;
  const [turn] = waiting.splice(at, 1);
  turn!.go();
  schedule();
}

function schedule(): void {
  if (scheduled || !waiting.length) return;
  scheduled = true;
  whenIdle(next, LATEST_MS);
}

function enqueue(item: Waiting): () => void {
  waiting.push(item);
  schedule();
  return () => {
    const at = waiting.indexOf(item);
    if (at !== -1) waiting.splice(at, 1);
  };
}

/**
 * Whether a chunk that is near the viewport may draw now. One on screen draws at once
 * (before the frame is painted); the others near it wait their turn, one each time the
 * browser is idle, so a jump paints what it landed on first and never lays out every
 * chunk of the margin in one task.
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
