/** What the reader does to scroll on their own: any of these ends a hold. */
const READER_INPUT = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const;

let release: (() => void) | null = null;

/**
 * After a jump to a file (a click in the file tree scrolls its section into view): keeps
 * the section where the jump put it while the files around it are drawn at their real
 * height instead of their estimate, frame by frame, until the reader scrolls or `ms` pass.
 * Without it the file drifts by the estimates' error (the tree's button, which keeps the
 * focus, is what the browser's own scroll anchoring holds still).
 */
export function holdFileInPlace(ref: string, ms = 1500): void {
  holdInPlace(() => document.querySelector(`section.inv-file[data-ref="${CSS.escape(ref)}"]`), undefined, ms);
}

/**
 * Keeps what `find` returns at the viewport top it has now (or at `top`) for `ms`, or until
 * the reader scrolls. A newer hold replaces this one.
 */
export function holdInPlace(find: () => Element | null, top?: number, ms = 1500): void {
  release?.();
  const first = find();
  if (!first) return;
  const at = top ?? first.getBoundingClientRect().top;
  const until = performance.now() + ms;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of READER_INPUT) window.removeEventListener(type, stop, true);
    if (release === stop) release = null;
  };
  release = stop;
  for (const type of READER_INPUT) window.addEventListener(type, stop, { capture: true, passive: true });
  const step = () => {
    const element = find();
    if (!element || performance.now() > until) return stop();
    const drift = element.getBoundingClientRect().top - at;
    if (Math.abs(drift) >= 1) window.scrollBy(0, drift);
    frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
}
