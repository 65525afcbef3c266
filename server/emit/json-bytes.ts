import { countLinesOf, type LineCounts } from '../git/diff';
import { instantiate } from '../wasm/instance';
import { jsonBytesWasm } from './json-bytes-wasm';

/** Bytes that JSON.stringify writes escaped: control characters, the quote and the backslash. */
const ESCAPED = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) ESCAPED[c] = 1;
ESCAPED[0x22] = 1;
ESCAPED[0x5c] = 1;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** The most bytes `jsonEscape` writes for `n` bytes of text (`\u00XX` for each). */
export const jsonEscapeRoom = (n: number) => n * 6;

/** Escapes a piece of text (see `jsonEscape`); `lines`, when given, counts its +/- lines on the way. */
export type JsonEscape = (text: Uint8Array, out: Buffer, at: number, lines?: LineCounts) => number;

/**
 * Writes UTF-8 text escaped as inside a JSON string into `out` at `at` (room:
 * `jsonEscapeRoom`) and returns where it ends: between its quotes, byte for byte what
 * `JSON.stringify(text.toString('utf8'))` encodes to, for text that is valid UTF-8
 * (multi-byte sequences are copied as they are; JSON.stringify escapes only lone
 * surrogates there, which valid UTF-8 cannot hold). A material's diffs go this way
 * straight from git's output to the file, with no string made and dropped per diff.
 * Sixteen bytes at a time in WebAssembly (json-bytes.wat), several times faster than
 * a byte at a time; a byte at a time where WebAssembly SIMD is missing.
 */
export const jsonEscape: JsonEscape = escaperFor(Buffer.from(jsonBytesWasm, 'base64'));

/** The escape of json-bytes.wat when this Node accepts the module, else `jsonEscapeBytewise`. */
export function escaperFor(module: Uint8Array<ArrayBuffer>): JsonEscape {
  const wasm = instantiate<{
    capacity: WebAssembly.Global;
    input: WebAssembly.Global;
    output: WebAssembly.Global;
    escape: (length: number) => number;
    additions: WebAssembly.Global;
    deletions: WebAssembly.Global;
    lineStart: WebAssembly.Global;
  }>(module);
  if (!wasm) return jsonEscapeBytewise;
  const { exports, memory } = wasm;
  const capacity: number = exports.capacity.value;
  const input: number = exports.input.value;
  const output: number = exports.output.value;
  const escape = exports.escape;
  const { additions, deletions, lineStart } = exports;
  return (text, out, at, lines) => {
    additions.value = lines?.additions ?? 0;
    deletions.value = lines?.deletions ?? 0;
    lineStart.value = lines?.lineStart ? 1 : 0;
    let o = at;
    for (let from = 0; from < text.length; from += capacity) {
      const piece = text.subarray(from, from + capacity);
      memory.set(piece, input);
      const length = escape(piece.length);
      out.set(memory.subarray(output, output + length), o);
      o += length;
    }
    if (lines) {
      lines.additions = additions.value;
      lines.deletions = deletions.value;
      lines.lineStart = lineStart.value !== 0;
    }
    return o;
  };
}

/** `jsonEscape` a byte at a time, in JavaScript. */
export function jsonEscapeBytewise(text: Uint8Array, out: Buffer, at: number, lines?: LineCounts): number {
  if (lines) countLinesOf(text, lines);
  let o = at;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text[i]!;
    if (ESCAPED[c] === 0) {
      out[o++] = c;
      continue;
    }
    out[o++] = 0x5c;
    switch (c) {
      case 0x0a:
        out[o++] = 0x6e; // \n
        break;
      case 0x22:
      case 0x5c:
        out[o++] = c;
        break;
      case 0x09:
        out[o++] = 0x74; // \t
        break;
      case 0x0d:
        out[o++] = 0x72; // \r
        break;
      case 0x08:
        out[o++] = 0x62; // \b
        break;
      case 0x0c:
        out[o++] = 0x66; // \f
        break;
      default:
        out[o++] = 0x75; // \u00XX, lowercase as JSON.stringify writes it
        out[o++] = 0x30;
        out[o++] = 0x30;
        out[o++] = HEX[c >> 4]!;
        out[o++] = HEX[c & 15]!;
    }
  }
  return o;
}
