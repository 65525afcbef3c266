/**
 * Runs `fn` once the browser is idle, or after `timeout` ms at the latest. Browsers without
 * `requestIdleCallback` (Safari) run it on a timer a frame away instead.
 */
export function whenIdle(fn: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = window.setTimeout(fn, 16);
  return () => window.clearTimeout(id);
}
