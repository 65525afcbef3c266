import { describe, expect, it } from 'vitest';
import { formatPlace, linkTo, parsePlace, placeOfNote } from '../../shared/place';
import { flatMatches, matchSummary, stepIndex } from '../../src/model/search';

describe('the place in the URL fragment', () => {
  it('round-trips mode, card, file and line beside the token', () => {
    const place = { mode: 'raw' as const, file: 'src/a b/ü.ts', line: { side: '+' as const, number: 12 } };
    const hash = formatPlace('tok', place);
    expect(hash.startsWith('#token=tok&')).toBe(true);
    expect(parsePlace(hash)).toEqual(place);
    expect(parsePlace(formatPlace('tok', { mode: 'cards', card: 'c_1' }))).toEqual({ mode: 'cards', card: 'c_1' });
  });

  it('leaves out what is malformed', () => {
    expect(parsePlace('#token=t&mode=sideways&line=%2B3')).toEqual({});
    expect(parsePlace('#file=a.ts&line=12')).toEqual({ file: 'a.ts' });
    expect(parsePlace('#file=a.ts&line=-0')).toEqual({ file: 'a.ts' });
  });

  it('points a note’s link at its card, file or line, leaving the session token out', () => {
    expect(placeOfNote('c_1')).toEqual({ mode: 'cards', card: 'c_1' });
    expect(placeOfNote('file:a:b.ts')).toEqual({ mode: 'raw', file: 'a:b.ts' });
    expect(placeOfNote('line:a.ts:-7')).toEqual({ mode: 'raw', file: 'a.ts', line: { side: '-', number: 7 } });
    expect(linkTo('http://127.0.0.1:4747/#token=abc', placeOfNote('line:a.ts:+7'))).toBe(
      'http://127.0.0.1:4747/#mode=raw&file=a.ts&line=%2B7',
    );
  });
});

describe('search matches', () => {
  const result = {
    matches: 4,
    files: 2,
    capped: false,
    results: [
      { ref: 'z.ts', path: false, hits: [{ index: 1, side: '+' as const, number: 3, text: 'x', start: 0, end: 1 }] },
      {
        ref: 'a/x.ts',
        path: true,
        hits: [
          { index: 4, side: '-' as const, number: 9, text: 'let old = x;', start: 4, end: 7 },
          { index: 6, side: '+' as const, number: 8, text: 'x', start: 0, end: 1 },
        ],
      },
    ],
  };

  it('are listed in the viewer’s order of files, a path match before the file’s lines, each with what was found and the text around it', () => {
    const order = new Map([
      ['a/x.ts', 0],
      ['z.ts', 1],
    ]);
    expect(flatMatches(result, order)).toEqual([
      { ref: 'a/x.ts' },
      { ref: 'a/x.ts', line: { side: '-', number: 9 }, find: { around: 'let old = x;', start: 4, end: 7 } },
      { ref: 'a/x.ts', line: { side: '+', number: 8 }, find: { around: 'x', start: 0, end: 1 } },
      { ref: 'z.ts', line: { side: '+', number: 3 }, find: { around: 'x', start: 0, end: 1 } },
    ]);
  });

  it('are counted in words, with a + when capped', () => {
    expect(matchSummary(result)).toBe('4 matches in 2 files');
    expect(matchSummary({ ...result, matches: 10_000, capped: true })).toBe('10,000+ matches in 2 files');
    expect(matchSummary({ ...result, matches: 1, files: 1 })).toBe('1 match in 1 file');
    expect(matchSummary({ ...result, matches: 0, files: 0, results: [] })).toBe('No matches');
  });

  it('are stepped through with wrap-around', () => {
    expect(stepIndex(-1, 1, 3)).toBe(0);
    expect(stepIndex(-1, -1, 3)).toBe(2);
    expect(stepIndex(2, 1, 3)).toBe(0);
    expect(stepIndex(0, -1, 3)).toBe(2);
    expect(stepIndex(0, 1, 0)).toBe(-1);
  });
});
