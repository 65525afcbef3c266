/**
 * The checksum that closes each object of a pack (server/git/adler32.ts) is zlib's, in
 * WebAssembly and in the JavaScript it falls back to, wherever the sums are reduced and
 * wherever a blob crosses a piece of the WebAssembly memory.
 */
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { adler32, adler32For, adler32Scalar, type Adler32 } from '../../server/git/adler32';
import { adler32Wasm } from '../../server/git/adler32-wasm';
import { assemble } from '../../server/wasm/assemble';
import { binaryBytes } from '../helpers/git-repo';

const source = fileURLToPath(new URL('../../server/git/adler32.wat', import.meta.url));
const committed = Buffer.from(adler32Wasm, 'base64');
/** The piece of the WebAssembly memory a blob goes through at a time. */
const CAPACITY = 65536;
/** Bytes between reductions of the sums: zlib's, and the WebAssembly's (a multiple of 32). */
const NMAX = 5552;
const BLOCK = 5536;

/** zlib's own: the last four bytes of a stream. */
function zlibAdler32(bytes: Buffer): number {
  const stream = deflateSync(bytes, { level: 0 });
  return stream.readUInt32BE(stream.length - 4);
}

/** Fully random bytes, with no zeros every seventh byte as `binaryBytes` has. */
function randomBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

describe.each([
  ['WebAssembly', adler32For(committed)],
  ['JavaScript fallback', adler32Scalar],
] as const)("zlib's Adler-32 (%s)", (_, checksum: Adler32) => {
  const check = (bytes: Buffer, what: string) => expect(checksum(bytes), what).toBe(zlibAdler32(bytes));

  it('for every length up to 300, across the thirty-two-byte steps', () => {
    for (let length = 0; length <= 300; length++) {
      check(randomBytes(length, length + 1), `${length} random bytes`);
      check(Buffer.alloc(length, 0xff), `${length} bytes of 0xff`);
    }
  });

  it('around every point where the sums are reduced or a piece ends, for bytes of 0xff (the largest sums) and random ones', () => {
    const edges = [BLOCK, NMAX, 2 * BLOCK, 2 * NMAX, 11 * NMAX, 65535, CAPACITY, 2 * CAPACITY, 3 * CAPACITY];
    for (const edge of edges) {
      for (const length of [edge - 17, edge - 16, edge - 1, edge, edge + 1, edge + 16, edge + 17]) {
        check(Buffer.alloc(length, 0xff), `${length} bytes of 0xff`);
        check(randomBytes(length, length), `${length} random bytes`);
      }
    }
  });

  it('for a few megabytes, over many pieces', () => {
    check(randomBytes(3_000_017, 7), 'random bytes');
    check(binaryBytes(2_000_003, 9), 'binary-like bytes');
    check(Buffer.alloc(1_500_001, 0xff), 'bytes of 0xff');
  });

  it('for a view into a larger buffer, as a blob read with others', () => {
    const whole = randomBytes(3 * CAPACITY, 11);
    for (const [start, end] of [[1, 100], [3, CAPACITY + 5], [CAPACITY - 7, whole.length - 1]] as const) {
      check(whole.subarray(start, end), `bytes ${start} to ${end}`);
    }
  });
});

describe('the WebAssembly checksum', () => {
  it('is committed as adler32.wat assembles (run `npm run wasm` after changing it)', async () => {
    expect(Buffer.from(await assemble(source)).toString('base64')).toBe(adler32Wasm);
  });

  it('is what Involut uses on this Node', () => {
    expect(WebAssembly.validate(committed)).toBe(true);
    expect(adler32).not.toBe(adler32Scalar);
  });

  it('gives way to the JavaScript checksum where the module is rejected', () => {
    expect(adler32For(Buffer.from('not a module'))).toBe(adler32Scalar);
    expect(adler32For(committed.subarray(0, committed.length - 1))).toBe(adler32Scalar);
  });
});
