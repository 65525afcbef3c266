/**
 * Where the files' patches start in git's output (server/git/section-starts.ts): every
 * `\ndiff --git ` and nothing else, in WebAssembly and in the JavaScript it falls back to,
 * wherever a marker lies against the sixteen-byte steps, the end of the bytes, or the
 * pieces of WebAssembly memory they go through.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sectionStarts, sectionStartsFor, sectionStartsScalar, type SectionStarts } from '../../server/git/section-starts';
import { sectionStartsWasm } from '../../server/git/section-starts-wasm';
import { assemble } from '../../server/wasm/assemble';

const source = fileURLToPath(new URL('../../server/git/section-starts.wat', import.meta.url));
const committed = Buffer.from(sectionStartsWasm, 'base64');
const MARKER = '\ndiff --git ';
/** The piece of the WebAssembly memory the bytes go through at a time. */
const CAPACITY = 65536;

/** Every place the marker starts, one byte at a time. */
function naive(bytes: Buffer): number[] {
  const found: number[] = [];
  for (let at = 0; at + MARKER.length <= bytes.length; at++) if (bytes.toString('latin1', at, at + MARKER.length) === MARKER) found.push(at);
  return found;
}

/** Patch-like text of `length` bytes with markers at `places`, and near misses around them. */
function textWith(length: number, places: number[], seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  const lines = ['+added line\n', '-removed line\n', ' context\n', 'd\n', '\nd', '\ndiff --gi', '\ndiff --git', 'diff --git '];
  for (let at = 0; at < length; ) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    at += bytes.write(lines[state % lines.length]!, at, 'latin1');
  }
  for (const place of places) if (place >= 0) bytes.write(MARKER, place, 'latin1');
  return bytes;
}

describe.each([
  ['WebAssembly', sectionStartsFor(committed)],
  ['JavaScript', sectionStartsScalar],
] as Array<[string, SectionStarts]>)('section starts in %s', (_, starts) => {
  it('finds every marker, wherever it lies against the steps and the end, and no near miss', () => {
    for (let length = 0; length <= 64; length++) {
      for (let place = -1; place + MARKER.length <= length; place++) {
        const bytes = textWith(length, [place], length * 97 + place);
        expect(starts(bytes), `${length} bytes, a marker at ${place}`).toEqual(naive(bytes));
      }
    }
  });

  it('finds markers across the pieces of WebAssembly memory, in bytes of any size', () => {
    const places = [0, 15, 16, 17, CAPACITY - 12, CAPACITY - 11, CAPACITY - 6, CAPACITY - 1, CAPACITY + 3, 2 * CAPACITY - 30, 2 * CAPACITY - 13];
    const whole = textWith(3 * CAPACITY + 5, places, 7);
    expect(starts(whole)).toEqual(naive(whole));
    for (const [from, to] of [[1, CAPACITY + 40], [CAPACITY - 20, whole.length], [5, 200]] as const) {
      const bytes = whole.subarray(from, to);
      expect(starts(bytes), `bytes ${from} to ${to}`).toEqual(naive(Buffer.from(bytes)));
    }
  });
});

describe('the WebAssembly search', () => {
  it('is committed as section-starts.wat assembles (run `npm run wasm` after changing it)', async () => {
    expect(Buffer.from(await assemble(source)).toString('base64')).toBe(sectionStartsWasm);
  });

  it('is what Involut uses on this Node', () => {
    expect(WebAssembly.validate(committed)).toBe(true);
    expect(sectionStarts).not.toBe(sectionStartsScalar);
  });

  it('gives way to indexOf where the module is rejected', () => {
    expect(sectionStartsFor(Buffer.from('not a module'))).toBe(sectionStartsScalar);
  });
});
