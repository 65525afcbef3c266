import type { SearchResult } from '../../schemas/api';
import type { Target } from '../state/target';

/** One place a search found: a file's path, or one line of its diff. */
export type Match = Pick<Target, 'ref' | 'line' | 'find'>;

/** Every match of a search answer as one list, files in the viewer's order (`order` maps a ref to its place), lines in diff order. */
export function flatMatches(result: SearchResult, order: Map<string, number>): Match[] {
  const files = [...result.results].sort((a, b) => (order.get(a.ref) ?? Infinity) - (order.get(b.ref) ?? Infinity));
  const matches: Match[] = [];
  for (const file of files) {
    if (file.path) matches.push({ ref: file.ref });
    for (const hit of file.hits) {
      const find = { around: hit.text, start: hit.start, end: hit.end };
      matches.push({ ref: file.ref, line: { side: hit.side, number: hit.number }, find });
    }
  }
  return matches;
}

/** "12 matches in 4 files", "10,000+ matches in 93 files", "No matches". */
export function matchSummary(result: SearchResult): string {
  if (result.matches === 0) return 'No matches';
  const count = `${result.matches.toLocaleString('en')}${result.capped ? '+' : ''}`;
  const word = result.matches === 1 && !result.capped ? 'match' : 'matches';
  return `${count} ${word} in ${result.files.toLocaleString('en')} ${result.files === 1 ? 'file' : 'files'}`;
}

/** The index `step` away from `at` in a list of `length`, wrapping around; from nothing, the first or the last. */
export function stepIndex(at: number, step: 1 | -1, length: number): number {
  if (length === 0) return -1;
  if (at < 0) return step > 0 ? 0 : length - 1;
  return (at + step + length) % length;
}
