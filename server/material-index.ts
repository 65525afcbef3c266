import type { BigIntStats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { RoundEntry, RoundState } from '../schemas/api';

/** Where one entry's diff is: in memory (short ones, null), or a byte range of material.json holding its JSON string. */
export type DiffPlace = string | null | { start: number; end: number };

/** How long the diffs read for a search are kept after it: a reader types a search a key at a time. */
const SEARCH_KEEP_MS = 30_000;
/** Past this many diffs asked at once, the file is read whole rather than range by range. */
const MANY = 400;

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
    return this.withFile(at.length > MANY, async (read) => {
      const out: Array<string | null> = [];
      for (const i of at) {
        const place = this.places[i];
        out.push(isRange(place) ? await read(place) : (place ?? null));
      }
      return out;
    });
  }

  /**
   * Every diff, for a search across the round: read in one pass over the file, and kept
   * while the reader goes on typing (SEARCH_KEEP_MS after the last search), so that each
   * keystroke does not read the round again.
   */
  async allDiffs(): Promise<Array<string | null>> {
    this.all ??= this.diffs(this.places.map((_, i) => i));
    const all = this.all;
    clearTimeout(this.forget);
    this.forget = setTimeout(() => (this.all = null), SEARCH_KEEP_MS).unref();
    return all.catch((error: unknown) => {
      this.all = null;
      throw error;
    });
  }

  private all: Promise<Array<string | null>> | null = null;
  private forget: NodeJS.Timeout | undefined;

  private async withFile<T>(
    many: boolean,
    use: (read: (range: { start: number; end: number }) => Promise<string>) => Promise<T>,
  ) {
    if (this.signature === null) throw new RoundChanged();
    const handle = await open(this.file, 'r').catch(() => null);
    if (!handle) throw new RoundChanged();
    try {
      const now = async () => statSignature(await handle.stat({ bigint: true }));
      if ((await now()) !== this.signature) throw new RoundChanged();
      // Many ranges (a search's): one read of the whole file is quicker than one read each.
      const whole = many ? await handle.readFile() : null;
      const result = await use(async ({ start, end }) => {
        const bytes = whole ? whole.subarray(start, end) : Buffer.alloc(end - start);
        const { bytesRead } = whole ? { bytesRead: bytes.length } : await handle.read(bytes, 0, bytes.length, start);
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
