import { instantiate } from '../wasm/instance';
import { adler32Wasm } from './adler32-wasm';

export type Adler32 = (bytes: Uint8Array) => number;

/**
 * zlib's checksum of the uncompressed bytes, which closes each object of a pack (see
 * object-pack.ts): the one cost of storing objects uncompressed, on every byte a round
 * captures. Thirty-two bytes at a time in WebAssembly (adler32.wat), several times faster
 * than in JavaScript; in JavaScript where WebAssembly SIMD is missing.
 */
export const adler32: Adler32 = adler32For(Buffer.from(adler32Wasm, 'base64'));

/** The checksum of adler32.wat when this Node accepts the module, else `adler32Scalar`. */
export function adler32For(module: Uint8Array<ArrayBuffer>): Adler32 {
  const wasm = instantiate<{
    capacity: WebAssembly.Global;
    input: WebAssembly.Global;
    update: (adler: number, length: number) => number;
  }>(module);
  if (!wasm) return adler32Scalar;
  const { exports, memory } = wasm;
  const capacity: number = exports.capacity.value;
  const input: number = exports.input.value;
  const update = exports.update;
  return (bytes) => {
    // Most blobs fit whole: no view of them to make, which costs as much as a small blob's checksum.
    if (bytes.length <= capacity) {
      memory.set(bytes, input);
      return update(1, bytes.length) >>> 0;
    }
    // Larger ones go through the memory in pieces, the checksum carried along.
    let adler = 1;
    for (let from = 0; from < bytes.length; from += capacity) {
      const piece = bytes.subarray(from, from + capacity);
      memory.set(piece, input);
      adler = update(adler, piece.length);
    }
    return adler >>> 0;
  };
}

/**
 * `adler32` in JavaScript. The sums stay below 2^32 for zlib's 5,552 bytes between
 * reductions, so they run in 32-bit integers (wrapping past 2^31, read back unsigned),
 * eight bytes a turn: twice as fast as plain numbers here.
 */
export function adler32Scalar(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = bytes.length;
  for (let i = 0; i < n; ) {
    const end = Math.min(i + 5552, n);
    for (const end8 = end - 7; i < end8; i += 8) {
      a = (a + bytes[i]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 1]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 2]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 3]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 4]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 5]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 6]!) | 0;
      b = (b + a) | 0;
      a = (a + bytes[i + 7]!) | 0;
      b = (b + a) | 0;
    }
    for (; i < end; i++) {
      a = (a + bytes[i]!) | 0;
      b = (b + a) | 0;
    }
    a = (a >>> 0) % 65521;
    b = (b >>> 0) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
