import { instantiate } from '../wasm/instance';
import { sectionStartsWasm } from './section-starts-wasm';

/** The offsets of every `\ndiff --git ` lying wholly in a piece of `git diff -p` output, in order. */
export type SectionStarts = (bytes: Uint8Array) => number[];

const MARKER = Buffer.from('\ndiff --git ');

/**
 * Where the files' patches start in git's output (see `SectionSplitter`): every byte of a
 * round's diff is looked at, 18 MB on the bench round, where Buffer's indexOf took ~8 ms.
 * Sixteen bytes at a time in WebAssembly (section-starts.wat); `indexOf` where
 * WebAssembly SIMD is missing.
 */
export const sectionStarts: SectionStarts = sectionStartsFor(Buffer.from(sectionStartsWasm, 'base64'));

/** The search of section-starts.wat when this Node accepts the module, else `sectionStartsScalar`. */
export function sectionStartsFor(module: Uint8Array<ArrayBuffer>): SectionStarts {
  const wasm = instantiate<{
    capacity: WebAssembly.Global;
    input: WebAssembly.Global;
    found: WebAssembly.Global;
    find: (length: number) => number;
  }>(module);
  if (!wasm) return sectionStartsScalar;
  const { exports, memory } = wasm;
  const capacity: number = exports.capacity.value;
  const input: number = exports.input.value;
  const found = new Uint32Array(memory.buffer, memory.byteOffset + exports.found.value, capacity / 4);
  const find = exports.find;
  // Pieces overlap by a marker's length less one, so a marker across two is whole in the second.
  const step = capacity - (MARKER.length - 1);
  return (bytes) => {
    const starts: number[] = [];
    for (let from = 0; from < bytes.length; from += step) {
      const piece = bytes.subarray(from, from + capacity);
      memory.set(piece, input);
      const count = find(piece.length);
      for (let i = 0; i < count; i++) starts.push(from + found[i]!);
      if (from + capacity >= bytes.length) break;
    }
    return starts;
  };
}

/** `sectionStarts` with Buffer's indexOf. */
export function sectionStartsScalar(bytes: Uint8Array): number[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  for (let at = view.indexOf(MARKER); at !== -1; at = view.indexOf(MARKER, at + 1)) starts.push(at);
  return starts;
}
