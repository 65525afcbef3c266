import type { BigIntStats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { RoundEntry, RoundState } from '../schemas/api';
import type { MaterialEntry } from '../schemas/material';
import { countLines } from '../src/model/diff-lines';

/** Diffs shorter than this (in characters) are kept in memory; longer ones are read from the file when asked for. */
const KEEP_CHARS = 1024;

/** Where one entry's diff is: in memory (short ones, null), or a byte range of material.json holding its JSON string. */
type DiffPlace = string | null | { start: number; end: number };

/** material.json changed since the index was made: what was asked for belongs to a round no longer there. */
export class RoundChanged extends Error {
  constructor() {
    super('material.json changed while it was being read; read the round again.');
  }
}

/**
 * The round as the server keeps it between two changes of material.json: every entry
 * without its diff, and where each diff lies. Long diffs stay in the file and are read
 * back by byte range from the same file version (its signature is checked around every
 * read), so the server holds the round's list and not its text, and an answer is never
 * a mix of two versions of the file.
 */
export class MaterialIndex {
  readonly byRef: Map<string, RoundEntry>;

  constructor(
    readonly state: Extract<RoundState, { state: 'ok' }>,
    private readonly places: DiffPlace[],
    private readonly file: string,
    /** The file's signature when it was read; null when it changed during the read (nothing can be read back). */
    private readonly signature: string | null,
  ) {
    this.byRef = new Map(state.data.material.map((entry) => [entry.ref, entry]));
  }

  get size(): number {
    return this.places.length;
  }

  /** The diffs of the entries at these positions, in that order; throws RoundChanged when the file is another version now. */
  async diffs(at: readonly number[]): Promise<Array<string | null>> {
    if (at.every((i) => !isRange(this.places[i]))) return at.map((i) => this.places[i] as string | null);
    return this.withFile(async (read) => {
      const out: Array<string | null> = [];
      for (const i of at) {
        const place = this.places[i];
        out.push(isRange(place) ? await read(place) : (place ?? null));
      }
      return out;
    });
  }

  /** Every diff, read in one pass over the file, for a search across the round. */
  async allDiffs(): Promise<Array<string | null>> {
    return this.diffs(this.places.map((_, i) => i));
  }

  private async withFile<T>(use: (read: (range: { start: number; end: number }) => Promise<string>) => Promise<T>) {
    if (this.signature === null) throw new RoundChanged();
    const handle = await open(this.file, 'r').catch(() => null);
    if (!handle) throw new RoundChanged();
    try {
      const now = async () => statSignature(await handle.stat({ bigint: true }));
      if ((await now()) !== this.signature) throw new RoundChanged();
      const result = await use(async ({ start, end }) => {
        const bytes = Buffer.alloc(end - start);
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
        const text = bytesRead === bytes.length ? parseString(bytes) : null;
        if (text === null) throw new RoundChanged();
        return text;
      });
      // Written in place while it was read: what was read may be half of each version.
      if ((await now()) !== this.signature) throw new RoundChanged();
      return result;
    } finally {
      await handle.close();
    }
  }
}

/** Identity and version of a file: inode, size and nanosecond times. */
export function statSignature(info: BigIntStats): string {
  return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Splits validated material into its index and the places of its diffs. Each diff is found
 * in the file's bytes in order, from where the previous one ended (see findDiff); a diff
 * not found there (a file written with other escapes than JSON.stringify's) is kept in
 * memory, and after a few such the rest are too, without searching.
 */
export function splitMaterial(entries: MaterialEntry[], bytes: Buffer): { entries: RoundEntry[]; places: DiffPlace[] } {
  const out: RoundEntry[] = [];
  const places: DiffPlace[] = [];
  let cursor = 0;
  let misses = 0;
  for (const entry of entries) {
    const { diff, diff_base64: _bytes, ...rest } = entry;
    out.push({ ...rest, lines: diff === null ? null : countLines(diff), chars: diff?.length ?? 0 });
    const found = diff === null || misses >= MAX_MISSES ? null : findDiff(bytes, diff, cursor);
    if (found) cursor = found.end;
    else if (diff !== null) misses++;
    places.push(found && diff!.length >= KEEP_CHARS ? found : diff);
  }
  return { entries: out, places };
}

/** Diffs not found where they should be before the others are no longer searched for. */
const MAX_MISSES = 8;
/** How far past the previous diff the next one may start: the rest of an entry is small. */
const SEARCH_BYTES = 1024 * 1024;
/** Characters of a diff's start it is searched by. */
const HEAD_CHARS = 256;

/**
 * Where a diff's JSON string lies in the file: its first characters as JSON.stringify
 * spells them, right after a `"diff":` key, within SEARCH_BYTES of `from`; it ends at the
 * first quote not escaped. The file was just parsed whole, so that quote ends the string.
 */
function findDiff(bytes: Buffer, diff: string, from: number): { start: number; end: number } | null {
  let chars = Math.min(diff.length, HEAD_CHARS);
  // A cut between the halves of a surrogate pair would be spelled as an escape, not as the file spells it.
  if (chars < diff.length && /[\uD800-\uDBFF]/.test(diff[chars - 1]!)) chars--;
  const head = JSON.stringify(diff.slice(0, chars));
  const needle = Buffer.from(chars < diff.length ? head.slice(0, -1) : head);
  const window = bytes.subarray(0, Math.min(bytes.length, from + SEARCH_BYTES));
  for (let at = window.indexOf(needle, from); at !== -1; at = window.indexOf(needle, at + 1)) {
    if (!afterDiffKey(bytes, at)) continue;
    const end = stringEnd(bytes, at);
    return end === -1 ? null : { start: at, end };
  }
  return null;
}

const DIFF_KEY = Buffer.from('"diff"');

/** The string at `at` is the value of a `"diff"` key (spaces around the colon aside), not the inside of another string. */
function afterDiffKey(bytes: Buffer, at: number): boolean {
  let i = skipSpaceBack(bytes, at - 1);
  if (i < 0 || bytes[i] !== 0x3a) return false;
  i = skipSpaceBack(bytes, i - 1);
  return i >= DIFF_KEY.length - 1 && bytes.subarray(i - DIFF_KEY.length + 1, i + 1).equals(DIFF_KEY);
}

function skipSpaceBack(bytes: Buffer, i: number): number {
  while (i >= 0 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i--;
  return i;
}

/** The end (past its closing quote) of the JSON string starting at `at`: the first quote after an even run of backslashes. */
function stringEnd(bytes: Buffer, at: number): number {
  for (let q = bytes.indexOf(0x22, at + 1); q !== -1; q = bytes.indexOf(0x22, q + 1)) {
    let slashes = 0;
    while (bytes[q - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return q + 1;
  }
  return -1;
}

function parseString(bytes: Buffer): string | null {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

function isRange(place: DiffPlace | undefined): place is { start: number; end: number } {
  return typeof place === 'object' && place !== null;
}
