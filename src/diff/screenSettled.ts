/** Whether an element shows at least in part in the viewport. */
function onScreen(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
}

/**
 * Whether what `root` shows on screen is complete: every diff chunk there drawn, every
 * image there decoded (an image still reads "loading…" while its bytes are fetched).
 */
function settledNow(root: Element): boolean {
  for (const chunk of root.querySelectorAll('.inv-chunk'))
    if (!chunk.firstElementChild && onScreen(chunk)) return false;
  for (const image of root.querySelectorAll('.inv-img')) {
    if (!onScreen(image)) continue;
    if (image.textContent?.includes('loading…')) return false;
    for (const img of image.querySelectorAll('img')) if (!img.complete) return false;
  }
  return true;
}

/**
 * Calls `then` once what `root` shows on screen is complete (checked each frame), or after
 * `cap` ms whatever it shows. For work that should not hold up the first screen.
 */
export function whenScreenSettled(root: Element | null, then: () => void, cap = 1000): () => void {
  const until = performance.now() + cap;
  let frame = 0;
  const check = () => {
    if (!root || settledNow(root) || performance.now() > until) return then();
    frame = requestAnimationFrame(check);
  };
  frame = requestAnimationFrame(check);
  return () => cancelAnimationFrame(frame);
}
