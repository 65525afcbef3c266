import { readSync, type BigIntStats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { RoundEntry, RoundState } from '../../schemas/api';

/** Where one entry's diff is: in memory (short ones, null), or a byte range of material.json holding its JSON string. */
export type DiffPlace = string | null | { start: number; end: number };

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

  /**
   * The diffs of the entries at these positions, in that order, as the pieces of their JSON
   * texts joined by commas: a long one as the bytes of its JSON string in the file, read a
   * piece at a time as the answer goes out (no parse, no new string, and never the whole
   * diff in memory). Throws RoundChanged when the file is another version now; the pieces
   * end with it when the file changes while they are read.
   */
  async diffsJson(at: readonly number[]): Promise<AsyncIterable<Buffer>> {
    const handle = at.some((i) => isRange(this.places[i])) ? await this.openSame() : null;
    return this.pieces(at, handle);
  }

  private async *pieces(at: readonly number[], handle: FileHandle | null): AsyncGenerator<Buffer> {
    try {
      for (const [n, i] of at.entries()) {
        if (n > 0) yield COMMA;
        const place = this.places[i];
        if (isRange(place)) yield* readRange(handle!, place);
        else yield Buffer.from(JSON.stringify(place ?? null));
      }
      // Written in place while it was read: what was read may be half of each version.
      if (handle && !(await this.isSame(handle))) throw new RoundChanged();
    } finally {
      await handle?.close();
    }
  }

  /**
   * Runs `use` with every diff at hand, for a search across the round: each diff is read
   * from the file and decoded only when `use` asks for it (a read from the page cache,
   * synchronous as the search is), so a search holds one diff at a time and nothing after.
   */
  async withEveryDiff<T>(use: (diffOf: (at: number) => string | null) => T): Promise<T> {
    return this.withFile(async (handle) =>
      use((at) => {
        const place = this.places[at];
        if (!isRange(place)) return place ?? null;
        const bytes = Buffer.allocUnsafe(place.end - place.start);
        return JSON.parse(
          checked(bytes, readSync(handle.fd, bytes, 0, bytes.length, place.start)).toString('utf8'),
        ) as string;
      }),
    );
  }

  /** Runs `use` on material.json opened, if it is still the version indexed before and after. */
  private async withFile<T>(use: (handle: FileHandle) => Promise<T>): Promise<T> {
    const handle = await this.openSame();
    try {
      const result = await use(handle);
      if (!(await this.isSame(handle))) throw new RoundChanged();
      return result;
    } finally {
      await handle.close();
    }
  }

  /** material.json opened, if it is still the version indexed. */
  private async openSame(): Promise<FileHandle> {
    if (this.signature === null) throw new RoundChanged();
    const handle = await open(this.file, 'r').catch(() => null);
    if (!handle) throw new RoundChanged();
    if (await this.isSame(handle)) return handle;
    await handle.close();
    throw new RoundChanged();
  }

  /** Whether the opened file is still the version indexed. */
  private async isSame(handle: FileHandle): Promise<boolean> {
    return statSignature(await handle.stat({ bigint: true })) === this.signature;
  }
}

const QUOTE = 0x22;

const COMMA = Buffer.from(',');
/** How much of a long diff is read from the file at a time. */
const PIECE_BYTES = 256 * 1024;

/** A diff's JSON string read from the file in pieces (see `checked`). */
async function* readRange(handle: FileHandle, { start, end }: { start: number; end: number }): AsyncGenerator<Buffer> {
  for (let at = start; at < end;) {
    const bytes = Buffer.allocUnsafe(Math.min(PIECE_BYTES, end - at));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, at);
    const piece = checked(bytes, bytesRead, at === start, at + bytes.length === end);
    at += bytes.length;
    yield piece;
  }
}

/**
 * The bytes read of a diff's JSON string, or of one piece of it: the opening quote where it
 * starts and the closing one where it ends say the file still holds it there.
 */
function checked(bytes: Buffer, bytesRead: number, starts = true, ends = true): Buffer {
  if (bytesRead !== bytes.length || (starts && bytes[0] !== QUOTE) || (ends && bytes[bytes.length - 1] !== QUOTE))
    throw new RoundChanged();
  return bytes;
}

/** Identity and version of a file: inode, size and nanosecond times. */
export function statSignature(info: BigIntStats): string {
  return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

function isRange(place: DiffPlace | undefined): place is { start: number; end: number } {
  return typeof place === 'object' && place !== null;
}
