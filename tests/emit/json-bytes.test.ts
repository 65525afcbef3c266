import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { escaperFor, jsonEscape, jsonEscapeBytewise, jsonEscapeRoom, type JsonEscape } from '../../server/emit/json-bytes';
import { countLines, newLineCounts } from '../../server/git/diff';
import { jsonBytesWasm } from '../../server/emit/json-bytes-wasm';
import { assemble } from '../../server/wasm/assemble';

const source = fileURLToPath(new URL('../../server/emit/json-bytes.wat', import.meta.url));
const committed = Buffer.from(jsonBytesWasm, 'base64');
/** Larger than one piece of the WebAssembly memory, so texts cross its boundary. */
const CAPACITY = 131072;

/** What a material's JSON holds between a diff's quotes. */
const expected = (text: Buffer) => Buffer.from(JSON.stringify(text.toString('utf8'))).subarray(1, -1);

/** Escapes `text` after a few bytes already in `out`, which must stay as they were. */
function escaped(escape: JsonEscape, text: Buffer): Buffer {
  const out = Buffer.alloc(3 + jsonEscapeRoom(text.length), 0xee);
  const end = escape(text, out, 3);
  expect(out.subarray(0, 3)).toEqual(Buffer.from([0xee, 0xee, 0xee]));
  return out.subarray(3, end);
}

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MULTI_BYTE = ['é', 'ß', '€', '漢', '\u2028', '\u2029', '\ufeff', '🎉', '𝄞'].map((c) => Buffer.from(c));

/** Valid UTF-8 of exactly `length` bytes: any ASCII byte (controls, quotes and backslashes often), and characters of two to four bytes. */
function utf8(next: () => number, length: number): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  while (size < length) {
    const pick = next();
    let part: Buffer;
    if (pick < 0.2) part = MULTI_BYTE[Math.floor(next() * MULTI_BYTE.length)]!;
    else if (pick < 0.4) part = Buffer.from([[0x22, 0x5c, 0x0a, 0x00, 0x1f][Math.floor(next() * 5)]!]);
    else part = Buffer.from([Math.floor(next() * 0x80)]);
    if (size + part.length > length) part = Buffer.from('a');
    parts.push(part);
    size += part.length;
  }
  return Buffer.concat(parts);
}

describe.each([
  ['WebAssembly', escaperFor(committed)],
  ['byte-at-a-time fallback', jsonEscapeBytewise],
] as const)('the JSON string escape of diff bytes (%s)', (_, escape) => {
  it('writes every ASCII byte as JSON.stringify does, from every offset in a block', () => {
    const ascii = Array.from({ length: 0x80 }, (_, c) => c);
    for (let offset = 0; offset < 16; offset++) {
      const text = Buffer.concat([Buffer.alloc(offset, 'x'), Buffer.from(ascii), Buffer.from(ascii.toReversed())]);
      expect(escaped(escape, text)).toEqual(expected(text));
    }
  });

  it('escapes a quote, a backslash or a control character at every position around block boundaries', () => {
    for (const special of ['"', '\\', '\n', '\u0000', '\u001f', '"\\', '\n\n']) {
      for (let length = special.length; length <= 50; length++) {
        for (let at = 0; at + special.length <= length; at++) {
          const text = Buffer.from('a'.repeat(at) + special + 'b'.repeat(length - at - special.length));
          expect(escaped(escape, text)).toEqual(expected(text));
        }
      }
    }
  });

  it('matches JSON.stringify on random UTF-8 of every length up to 100', () => {
    const next = random(0x1d1f);
    for (let length = 0; length <= 100; length++) {
      for (let round = 0; round < 30; round++) {
        const text = utf8(next, length);
        expect(escaped(escape, text)).toEqual(expected(text));
      }
    }
  });

  it('matches JSON.stringify on large texts, across the pieces the WebAssembly memory holds', () => {
    const next = random(0xd1ff);
    for (const length of [CAPACITY - 1, CAPACITY, CAPACITY + 1, 3 * CAPACITY + 17, 1_000_000]) {
      const text = utf8(next, length);
      expect(escaped(escape, text).equals(expected(text))).toBe(true);
    }
  });

  it("counts a diff's added and deleted lines as countLines does, however the text is cut into pieces", () => {
    const next = random(0x11e5);
    const texts = [
      Buffer.from('@@ -1,2 +1,2 @@\n-old\n+new\n context\n\\ No newline at end of file\n+last'),
      Buffer.from('+first line\n\n-\n+\n'),
      Buffer.from(''),
      // Lines of every kind and length, newlines falling on every offset of a block and of a piece.
      Buffer.from(Array.from({ length: 40_000 }, () => ['+', '-', ' ', '@', '\\'][Math.floor(next() * 5)]! + 'x'.repeat(Math.floor(next() * 40))).join('\n')),
    ];
    for (const text of texts) {
      for (const piece of [1, 2, 15, 16, 17, 4096, CAPACITY + 3, text.length + 1]) {
        const lines = newLineCounts();
        const out = Buffer.alloc(jsonEscapeRoom(Math.min(piece, text.length)) + 16);
        for (let at = 0; at < text.length; at += piece) escape(text.subarray(at, at + piece), out, 0, lines);
        const { additions, deletions } = countLines(text);
        expect({ additions: lines.additions, deletions: lines.deletions }, `pieces of ${piece}`).toEqual({ additions, deletions });
      }
    }
  });

  it('writes six bytes a byte for a piece of nothing but control characters', () => {
    const text = Buffer.alloc(CAPACITY + 5, 0x01);
    const out = escaped(escape, text);
    expect(out.length).toBe(jsonEscapeRoom(text.length));
    expect(out.equals(expected(text))).toBe(true);
  });
});

describe('the WebAssembly escape', () => {
  it('is committed as json-bytes.wat assembles (run `npm run wasm` after changing it)', async () => {
    expect(Buffer.from(await assemble(source)).toString('base64')).toBe(jsonBytesWasm);
  });

  it('is what Involut uses on this Node', () => {
    expect(WebAssembly.validate(committed)).toBe(true);
    expect(jsonEscape).not.toBe(jsonEscapeBytewise);
  });

  it('gives way to the byte-at-a-time escape where the module is rejected', () => {
    expect(escaperFor(Buffer.from('not a module'))).toBe(jsonEscapeBytewise);
    expect(escaperFor(committed.subarray(0, committed.length - 1))).toBe(jsonEscapeBytewise);
  });
});
