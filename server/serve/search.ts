import vm from 'node:vm';
import type { SearchFile, SearchHit, SearchQuery, SearchResult } from '../../schemas/api';
import type { MaterialEntry } from '../../schemas/material';

/** What a search reads of an entry besides its diff. */
export type Searchable = Pick<MaterialEntry, 'ref' | 'from' | 'withheld'>;

/** Line matches sent back in one answer; the count goes on up to COUNT_CAP. */
const MAX_HITS = 2000;
/** Matches counted before the answer says "N+". */
export const COUNT_CAP = 10_000;
/** Characters of a line's text sent on each side of a match. */
const CONTEXT = 60;

/** How long one search may run: a regular expression can backtrack for hours, and the server answers nothing else meanwhile. */
const SEARCH_LIMIT_MS = 2000;

/** A search the reader asked for that cannot run: an expression that does not compile, or one that runs too long. */
export class BadQuery extends Error {
  constructor(
    message: string,
    readonly code: 'bad-query' | 'search-too-slow' = 'bad-query',
  ) {
    super(message);
  }
}

/** The expression a query stands for: a regular expression as typed, or the text escaped; whole words fenced by non-word neighbours. */
function queryPattern(query: SearchQuery): RegExp {
  let source = query.regex === '1' ? query.q : query.q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (query.word === '1') source = `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])`;
  try {
    return new RegExp(source, `gu${query.case === '1' ? '' : 'i'}`);
  } catch (error) {
    throw new BadQuery(
      `'${query.q.slice(0, 80)}' is not a regular expression JavaScript can read: ${(error as Error).message}`,
    );
  }
}

/**
 * Every match of the query in the material's paths and in the text of its diff lines
 * (added, deleted and context lines, without their prefix; hunk headers and `\ No
 * newline` markers are not text of the file), each diff asked of `diffOf` by the entry's
 * position. Withheld files are matched by path only: their content never left git. Files
 * come in material order.
 */
export function searchMaterial(
  entries: Searchable[],
  diffOf: (at: number) => string | null,
  query: SearchQuery,
  limitMs = SEARCH_LIMIT_MS,
): SearchResult {
  const pattern = queryPattern(query);
  // V8 stops whatever runs under a vm timeout, a regular expression's backtracking included.
  try {
    const scan = () => scanMaterial(entries, diffOf, query, pattern);
    return vm.runInNewContext('scan()', { scan }, { timeout: limitMs }) as SearchResult;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    throw new BadQuery(
      `The search for '${query.q.slice(0, 80)}' ran longer than ${limitMs / 1000} s and was stopped; try a simpler expression.`,
      'search-too-slow',
    );
  }
}

function scanMaterial(
  entries: Searchable[],
  diffOf: (at: number) => string | null,
  query: SearchQuery,
  pattern: RegExp,
): SearchResult {
  // A literal query is looked for in the whole diff first: most files hold no match and cost one scan.
  const literal = query.regex !== '1';
  const results: SearchFile[] = [];
  let matches = 0;
  let hits = 0;
  let capped = false;
  for (const [at, entry] of entries.entries()) {
    if (matches >= COUNT_CAP) {
      capped = true;
      break;
    }
    pattern.lastIndex = 0;
    const path = pattern.test(entry.ref) || (entry.from !== undefined && test(pattern, entry.from));
    const found: SearchHit[] = [];
    const diff = entry.withheld ? null : diffOf(at);
    if (diff && (!literal || test(pattern, diff))) {
      const room = { count: COUNT_CAP - matches - (path ? 1 : 0), keep: MAX_HITS - hits };
      const counted = scanDiff(diff, pattern, found, room);
      matches += counted.count;
      hits += found.length;
      if (counted.more) capped = true;
    }
    if (path) matches += 1;
    if (path || found.length) results.push({ ref: entry.ref, path, hits: found });
  }
  return { matches: Math.min(matches, COUNT_CAP), files: results.length, capped, results };
}

function test(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

/** Scans one diff line by line, keeping up to `room.keep` hits and counting up to `room.count` matches. */
function scanDiff(
  diff: string,
  pattern: RegExp,
  found: SearchHit[],
  room: { count: number; keep: number },
): { count: number; more: boolean } {
  let count = 0;
  let oldLine = 0;
  let newLine = 0;
  let index = 0;
  for (let at = 0; at < diff.length; index++) {
    const end = diff.indexOf('\n', at);
    const next = end === -1 ? diff.length : end + 1;
    const first = diff.charCodeAt(at);
    if (first === 64 /* @ */) {
      const numbers = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(diff.slice(at, Math.min(next, at + 80)));
      oldLine = numbers ? Number(numbers[1]) : 0;
      newLine = numbers ? Number(numbers[2]) : 0;
    } else if (first === 43 /* + */ || first === 45 /* - */ || first === 32 /* space */) {
      const side = first === 45 ? '-' : '+';
      const number = side === '-' ? oldLine : newLine;
      if (first !== 43) oldLine++;
      if (first !== 45) newLine++;
      const text = diff.slice(at + 1, end === -1 ? diff.length : end).replace(/\r$/, '');
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        if (count >= room.count) return { count, more: true };
        count++;
        if (found.length < room.keep)
          found.push(hitOf(index, side, number, text, match.index, match.index + match[0].length));
        if (match[0].length === 0) pattern.lastIndex++; // an empty match must not match forever
        if (found.length >= room.keep && count >= room.count) break;
      }
    }
    at = next;
  }
  return { count, more: false };
}

function hitOf(index: number, side: '+' | '-', number: number, line: string, start: number, end: number): SearchHit {
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(line.length, Math.max(end, start + 1) + CONTEXT);
  return { index, side, number, text: line.slice(from, to), start: start - from, end: Math.min(end, to) - from };
}
