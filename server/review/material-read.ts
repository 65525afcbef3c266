import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Issue, RoundEntry, RoundIndex } from '../../schemas/api';
import { Material, MaterialEntry } from '../../schemas/material';
import { countLines } from '../../shared/diff-lines';
import type { DiffPlace } from './material-index';
import { depthOf, issuesOf, MAX_ISSUES, MAX_JSON_DEPTH } from './json-limits';

/**
 * Diffs whose JSON string is shorter than this (in bytes) are kept in memory; longer ones
 * stay in the file, read back when asked for, and are never decoded while the round is read.
 */
const KEEP_BYTES = 1024;

/** What one pass over material.json found. */
export type MaterialRead =
  | { kind: 'ok'; data: RoundIndex; places: DiffPlace[]; hash: string }
  | { kind: 'invalid-schema'; issues: Issue[]; hash: string }
  | { kind: 'too-deep'; hash: string }
  /** Not JSON (or half written): the caller reads it whole to say where. */
  | { kind: 'not-json'; hash: string };

/** A long diff left in the file: the byte range of its JSON string, and what the round's index says of it. */
type LongDiff = { start: number; end: number; lines: number; chars: number };

/**
 * Reads material.json in one pass, a chunk at a time, never holding the file or its parsed
 * whole: a scan of the bytes (EntryScan) cuts the `material` list into its entries, each
 * given to JSON.parse alone as it is complete, validated, and kept without its diff (a
 * long diff as the byte range of its JSON string, which the scan measures and checks
 * without gathering it). What lies around the list (the frame)
 * is parsed last, with the list left empty. The bytes are hashed on the way, and the event
 * loop turns between chunks, so the server answers meanwhile. A file the scan cannot cut
 * (not JSON between two entries, an entry that is no object) is read whole instead.
 */
export async function readMaterial(file: string, chunkBytes = 256 * 1024): Promise<MaterialRead | null> {
  const hash = createHash('sha256');
  const round = new RoundKept();
  const scan = new EntryScan((text, diff) => round.take(JSON.parse(text), diff));
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      scan.write(chunk);
      if (scan.uncut) return await readWhole(file);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code !== undefined) throw error;
    return { kind: 'not-json', hash: hash.digest('hex') }; // an entry JSON.parse refused
  }
  return round.finish(parsed(scan.end()), hash.digest('hex'), scan.cut);
}

/** A file the scan could not cut, read, parsed and checked whole (its read errors are the caller's). */
async function readWhole(file: string): Promise<MaterialRead> {
  const bytes = await readFile(file);
  const round = new RoundKept();
  return round.finish(parsed(bytes.toString('utf8')), createHash('sha256').update(bytes).digest('hex'), false);
}

/** The round's entries as the server keeps them, taken one at a time, and what was wrong with them. */
class RoundKept {
  private readonly entries: RoundEntry[] = [];
  private readonly places: DiffPlace[] = [];
  private readonly issues: Issue[] = [];
  private count = 0;
  private tooDeep = false;

  take(value: unknown, long: LongDiff | null): void {
    const at = this.count++;
    if (depthOf(value) > MAX_JSON_DEPTH - 2) this.tooDeep = true;
    if (this.tooDeep) return;
    const parsed = MaterialEntry.safeParse(value);
    if (!parsed.success) {
      if (this.issues.length < MAX_ISSUES)
        this.issues.push(...issuesOf(parsed.error).map((i) => ({ ...i, path: ['material', at, ...i.path] })));
      return;
    }
    const { diff, diff_base64: _bytes, ...rest } = parsed.data;
    if (long) {
      const { start, end, lines, chars } = long;
      this.entries[at] = { ...rest, lines, chars };
      this.places[at] = { start, end };
    } else {
      this.entries[at] = { ...rest, lines: diff === null ? null : countLines(diff), chars: diff?.length ?? 0 };
      this.places[at] = diff;
    }
  }

  /**
   * The round, given the frame (undefined: not JSON) and whether its list was cut out and
   * taken already; else the list in the frame is taken now.
   */
  finish(frame: unknown, hash: string, taken: boolean): MaterialRead {
    if (frame === undefined) return { kind: 'not-json', hash };
    const list = (frame as { material?: unknown } | null)?.material;
    if (!taken && Array.isArray(list)) for (const value of list) this.take(value, null);
    if (this.tooDeep || depthOf(frame) > MAX_JSON_DEPTH) return { kind: 'too-deep', hash };
    const isObject = frame !== null && typeof frame === 'object' && !Array.isArray(frame);
    const checked = Material.safeParse(isObject ? { ...frame, material: Array.isArray(list) ? [] : list } : frame);
    if (!checked.success || this.issues.length) {
      const all = [...(checked.success ? [] : issuesOf(checked.error)), ...this.issues];
      return { kind: 'invalid-schema', issues: all.slice(0, MAX_ISSUES), hash };
    }
    return { kind: 'ok', data: { ...checked.data, material: this.entries }, places: this.places, hash };
  }
}

/** A JSON text's value; undefined when it is none (or there is no text). */
function parsed(text: string | null): unknown {
  try {
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LEFT_BRACE = 0x7b;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
const RIGHT_BRACE = 0x7d;
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** What may follow a backslash in a JSON string, `u` (and its four hex digits) aside. */
const ESCAPED = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const HEX = /^[0-9a-fA-F]$/;
const LETTER_N = 0x6e;
const LETTER_U = 0x75;
const EMPTY_STRING = Buffer.from('""');

/** What an open container awaits next: an array's item, an object's key, or a key's value. */
type Next = 'item' | 'key' | 'value';

/**
 * Follows a JSON text's strings and brackets byte by byte, only to cut the top object's
 * `material` list into its entries; JSON.parse validates and decodes every piece except
 * long diffs (DiffString measures and checks those). Between two entries the scan expects
 * one comma and spaces; anything else there (a second `material` key, or an entry with two
 * `diff` keys) sets `uncut`, and the file is read whole, for JSON.parse to read or refuse.
 * Keys are compared as written: a key spelt with escapes is never taken for `material` or
 * `diff`, so such a file is still read right, its list whole in the frame or its diff
 * kept in memory.
 */
class EntryScan {
  /** Set once the scan met what it does not cut; the file is then read whole. */
  uncut = false;
  /** Whether the list was found and cut out of the frame. */
  get cut(): boolean {
    return this.list !== 'before';
  }
  private offset = 0;
  private inString = false;
  private escaped = false;
  private readonly open: Next[] = [];
  /** The key being read at depth 1 or 3 (its first bytes), and the last key read at each. */
  private key: string | null = null;
  private readonly lastKey: string[] = [];
  /** 'before': the list not met yet; 'in': cutting it; 'done': cut to its end, or given up. */
  private list: 'before' | 'in' | 'done' = 'before';
  /** Between entries: whether one ended and whether its comma came. */
  private ended = false;
  private comma = false;
  private readonly frame: Buffer[] = [];
  private entry: Buffer[] = [];
  /** The entry's diff string being read, its bytes while they are few, and the diff once it is long. */
  private diff: DiffString | null = null;
  private diffBytes: Buffer[] = [];
  private long: LongDiff | null = null;
  private diffKeys = 0;

  constructor(private readonly onEntry: (text: string, long: LongDiff | null) => void) {}

  write(chunk: Buffer): void {
    let keep = 0; // where in this chunk the piece being gathered (the frame's, an entry's or a diff's) starts
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      const depth = this.open.length;
      if (this.diff) {
        if (this.diff.take(c)) continue;
        this.closeDiff(chunk.subarray(keep, i + 1), this.offset + i + 1);
        keep = i + 1;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) {
          this.escaped = true;
          if (this.key !== null) this.key = '\\';
        } else if (c === QUOTE) this.closeString();
        else if (this.key !== null && this.key.length < 10) this.key += String.fromCharCode(c);
        continue;
      }
      if (this.list === 'in' && depth === 2) {
        if (SPACE.has(c)) continue;
        if (c === COMMA && this.ended && !this.comma) {
          this.comma = true;
          continue;
        }
        if (c === LEFT_BRACE && this.ended === this.comma) {
          this.open.push('key');
          this.entry = [];
          this.lastKey[3] = '';
          keep = i;
          continue;
        }
        if (c === RIGHT_BRACKET && !this.comma) {
          this.open.pop();
          this.list = 'done';
          keep = i;
          continue;
        }
        this.uncut = true;
        return;
      }
      if (c === QUOTE) {
        const next = this.open[depth - 1];
        if (this.list === 'in' && depth === 3 && next === 'value' && this.lastKey[3] === 'diff') {
          this.entry.push(chunk.subarray(keep, i));
          keep = i;
          this.diff = new DiffString(this.offset + i);
          continue;
        }
        this.inString = true;
        this.key = next === 'key' && (depth === 1 || depth === 3) ? '' : null;
      } else if (c === LEFT_BRACE || c === LEFT_BRACKET) {
        if (depth === 1 && c === LEFT_BRACKET && this.lastKey[1] === 'material' && this.list === 'before') {
          this.frame.push(chunk.subarray(keep, i + 1));
          keep = i + 1;
          this.list = 'in';
          this.ended = this.comma = false;
        }
        this.open.push(c === LEFT_BRACE ? 'key' : 'item');
      } else if (c === RIGHT_BRACE || c === RIGHT_BRACKET) {
        this.open.pop();
        if (this.list === 'in' && depth === 3) {
          this.entry.push(chunk.subarray(keep, i + 1));
          this.finishEntry();
          keep = i + 1;
        }
      } else if (c === COMMA && this.open[depth - 1] === 'value') this.open[depth - 1] = 'key';
    }
    const rest = chunk.subarray(keep);
    this.offset += chunk.length;
    if (this.diff) {
      if (this.offset - this.diff.start < KEEP_BYTES) this.diffBytes.push(rest);
      else this.diffBytes = []; // long: left in the file
    } else if (this.list !== 'in') this.frame.push(rest);
    else if (this.open.length >= 3) this.entry.push(rest);
  }

  /** The frame's JSON text (the list in it left empty when it was cut), for JSON.parse to judge. */
  end(): string | null {
    if (this.list === 'in') return null; // it stops inside the list
    return Buffer.concat(this.frame).toString('utf8');
  }

  private closeString(): void {
    this.inString = false;
    if (this.key === null) return;
    const depth = this.open.length;
    this.lastKey[depth] = this.key;
    this.open[depth - 1] = 'value';
    if (depth === 1 && this.key === 'material' && this.list !== 'before') this.uncut = true; // a second list
    // A second diff: JSON.parse says which one counts, and what it is.
    if (depth === 3 && this.key === 'diff' && this.list === 'in' && ++this.diffKeys > 1) this.uncut = true;
    this.key = null;
  }

  /**
   * Ends the diff string at `end` (a file offset), `last` being its bytes in this chunk: a
   * short one goes into the entry's text as it is, a long one stays in the file and the
   * entry gets `""` for JSON.parse.
   */
  private closeDiff(last: Buffer, end: number): void {
    const { start, lines, chars } = this.diff!;
    if (end - start < KEEP_BYTES) this.entry.push(...this.diffBytes, last);
    else {
      this.entry.push(EMPTY_STRING);
      this.long = { start, end, lines, chars };
    }
    this.diff = null;
    this.diffBytes = [];
  }

  private finishEntry(): void {
    this.onEntry(Buffer.concat(this.entry).toString('utf8'), this.long);
    this.entry = [];
    this.long = null;
    this.diffKeys = 0;
    this.lastKey[3] = '';
    this.ended = true;
    this.comma = false;
  }
}

/**
 * One diff's JSON string, followed byte by byte from after its opening quote: where it
 * ends, its lines (`\n` escapes) and its length in UTF-16 units, as the decoded string's
 * `length` would be; what JSON would refuse in it (a raw control character, a bad escape)
 * throws a SyntaxError, as JSON.parse would.
 */
class DiffString {
  lines = 0;
  chars = 0;
  private escaped = false;
  /** Hex digits of a `\u` escape still to come. */
  private hex = 0;

  constructor(readonly start: number) {}

  /** Takes the next byte; false once it is the closing quote. */
  take(c: number): boolean {
    if (this.hex > 0) {
      if (!HEX.test(String.fromCharCode(c))) throw new SyntaxError('a bad \\u escape in a diff');
      this.hex--;
    } else if (this.escaped) {
      this.escaped = false;
      if (c === LETTER_U) this.hex = 4;
      else if (!ESCAPED.has(c)) throw new SyntaxError('a bad escape in a diff');
      else if (c === LETTER_N) this.lines++;
    } else if (c === BACKSLASH) {
      this.escaped = true;
      this.chars++;
    } else if (c === QUOTE) return false;
    else if (c < 0x20) throw new SyntaxError('a control character in a diff');
    // A UTF-8 sequence's first byte: one unit, two for a four-byte sequence (a surrogate pair).
    else if ((c & 0xc0) !== 0x80) this.chars += c >= 0xf0 ? 2 : 1;
    return true;
  }
}
