/**
 * vitest's global setup: finds the browser once before the test files start, so the
 * packaged one is unpacked by one process instead of by every browser test file at once,
 * and says which one the browser tests drive. Finding none is left to the browser tests,
 * which fail with the reason; the others run.
 */
import { findBrowser } from './find-browser';

export default function setup(): void {
  try {
    const found = findBrowser();
    console.log(`Browser tests: ${found.executablePath} (${found.source})`);
  } catch {
    // Reported by each browser test that needs one.
  }
}
