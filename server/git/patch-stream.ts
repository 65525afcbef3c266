import type { ChildProcessByStdio } from 'node:child_process';
import { createReadStream, type ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { exited } from './git';
import { sectionStarts } from './section-starts';
import type { FileDiff, RawChange } from './diff';
import type { Repo } from './repo';

const RAW_END = Buffer.from('\0\0');
const SECTION_START = Buffer.from('\ndiff --git ');

type DiffChild = ReturnType<Repo['git']['spawn']>;

/**
 * One `git diff --raw -z` (with `-p`, or alone): its raw records first (the change list,
 * known before any patch), then the patch of each change in the same order, cut into
 * files as they arrive, holding at most one file's patch in memory. Read from a running
 * git's stdout (`piped`), or from the file a git wrote (`fromFile`).
 */
export class PatchStream {
  private readonly chunks: ReadAhead;
  private readonly splitter = new SectionSplitter();
  private readonly pending: Buffer[][] = [];
  private ended = false;
  private stopped = false;

  /** Reads a running git's stdout as it comes. */
  static piped(child: DiffChild): PatchStream {
    child.stdin.end();
    return new PatchStream(child.stdout, exited(child, 'git diff'), () => {
      child.stdout.destroy();
      child.kill();
    });
  }

  /**
   * Reads the file `file` a git writes its output to (see `Git.spawnToFile`), once that
   * git exited 0; a git that failed fails the first read.
   */
  static fromFile(child: ChildProcessByStdio<null, null, Readable>, file: string): PatchStream {
    const done = exited(child, 'git diff');
    let reading: ReadStream | null = null;
    let stopped = false;
    const chunks = (async function* () {
      await done;
      if (stopped) return;
      reading = createReadStream(file, { highWaterMark: FILE_CHUNK_BYTES });
      yield* reading as AsyncIterable<Buffer>;
    })();
    return new PatchStream(chunks, done, () => {
      stopped = true;
      reading?.destroy();
      child.kill();
    });
  }

  private constructor(
    output: AsyncIterable<Buffer>,
    /** Resolves once git exited 0. */
    readonly done: Promise<void>,
    private readonly end: () => void,
  ) {
    done.catch(() => {}); // awaited by whoever reads to the end; a stopped diff's exit does not matter
    this.chunks = new ReadAhead(output, READ_AHEAD_BYTES);
  }

  /** The raw records (each as its exact text, for comparing two diffs) and the changes they describe. */
  async header(): Promise<{ records: string[]; changes: RawChange[] }> {
    const parts: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = await this.chunks.next();
      if (chunk === null) {
        // No separator: either nothing changed, or only raw records came (no patch at all).
        this.ended = true;
        return parseRawRecords(Buffer.concat(parts, size));
      }
      // The separator may straddle two chunks: look from one byte before this chunk.
      const from = size > 0 ? -1 : 0;
      const view = from === -1 ? Buffer.concat([parts[parts.length - 1]!.subarray(-1), chunk]) : chunk;
      const at = view.indexOf(RAW_END);
      if (at === -1) {
        parts.push(chunk);
        size += chunk.length;
        continue;
      }
      const cut = at + from; // offset in chunk where the separator starts (-1: in the previous chunk)
      const raw = Buffer.concat([...parts, chunk.subarray(0, Math.max(cut, 0))]);
      const header = parseRawRecords(cut === -1 ? raw.subarray(0, raw.length - 1) : raw);
      this.pending.push(...this.splitter.push(chunk.subarray(cut + 2)));
      return header;
    }
  }

  /**
   * Yields the files of `changes[0..count)`, whose patches come next in the stream.
   * A type change prints two sections (a deletion, then a creation) for one raw record.
   */
  async *files(changes: RawChange[], count = changes.length): AsyncGenerator<FileDiff> {
    let next = 0;
    while (next < count) {
      const change = changes[next]!;
      const need = change.status === 'T' ? 2 : 1;
      if (this.pending.length >= need) {
        yield toFileDiff(change, this.pending.splice(0, need));
        next++;
        continue;
      }
      if (this.ended) break;
      const chunk = await this.chunks.next();
      if (chunk === null) {
        this.ended = true;
        this.pending.push(...this.splitter.end());
      } else {
        this.pending.push(...this.splitter.push(chunk));
      }
    }
    if (next < count) {
      await this.done;
      throw new Error(`git diff printed patches for ${next} of ${count} changed files`);
    }
  }

  /** Reads to the end (every patch was taken) and waits for git to exit 0. */
  async finish(): Promise<void> {
    while (!this.ended) {
      if ((await this.chunks.next()) === null) this.ended = true;
    }
    await this.done;
  }

  /** How far git's output is read ahead of the patches taken (see READ_AHEAD_BYTES). */
  readAhead(bytes: number): void {
    this.chunks.limit = bytes;
  }

  /** Ends git early (what it still prints is not wanted), or after a failure. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.end();
  }
}

/**
 * How far a diff's output is read ahead of the entries being built: git keeps making
 * patches while the first entry waits for its facts (sizes, attributes) and while the
 * other half's entries are written, instead of stopping at a full pipe (64 KiB). More
 * would hold more memory, which makes every later spawn slower (fork copies page tables).
 */
export const READ_AHEAD_BYTES = 4 << 20;
/** …and of the whole diff once a second git makes the second part's patches. */
export const SPLIT_READ_AHEAD_BYTES = 256 << 10;
/** A diff written to a file is read in pieces of this size. */
const FILE_CHUNK_BYTES = 1 << 20;

/** Pulls a stream's chunks as they come, holding at most about `limit` bytes not yet taken. */
class ReadAhead {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private error: unknown = null;
  private wake: (() => void) | null = null;
  private room: (() => void) | null = null;

  constructor(
    stream: AsyncIterable<Buffer>,
    /** Bytes held before pulling more; may change while reading. */
    public limit: number,
  ) {
    void this.pump(stream[Symbol.asyncIterator]());
  }

  /** The next chunk, or null at the end of the stream (a read error is thrown here). */
  async next(): Promise<Buffer | null> {
    while (this.queue.length === 0) {
      if (this.ended) {
        if (this.error !== null) throw this.error;
        return null;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const chunk = this.queue.shift()!;
    this.queued -= chunk.length;
    if (this.room !== null && this.queued < this.limit) {
      this.room();
      this.room = null;
    }
    return chunk;
  }

  private async pump(chunks: AsyncIterator<Buffer>): Promise<void> {
    try {
      for (;;) {
        if (this.queued >= this.limit) await new Promise<void>((resolve) => (this.room = resolve));
        const next = await chunks.next();
        if (next.done) break;
        this.queue.push(next.value);
        this.queued += next.value.length;
        this.wakeUp();
      }
    } catch (error) {
      this.error = error;
    }
    this.ended = true;
    this.wakeUp();
  }

  private wakeUp(): void {
    this.wake?.();
    this.wake = null;
  }
}

/** The changes of `--raw -z` output, and each record's exact text (status score and paths included). */
export function parseRawRecords(raw: Buffer): { records: string[]; changes: RawChange[] } {
  const fields = raw.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  const records: string[] = [];
  for (let i = 0; i < fields.length; ) {
    const meta = fields[i++]!;
    if (!meta.startsWith(':')) continue;
    const [oldMode, newMode, oldOid, newOid, score] = meta.slice(1).split(' ') as [string, string, string, string, string];
    const letter = score[0] as RawChange['status'] | 'C';
    if (letter === 'R' || letter === 'C') {
      const from = fields[i++]!;
      const path = fields[i++]!;
      changes.push({ status: letter === 'R' ? 'R' : 'A', oldMode, newMode, oldOid, newOid, path, from });
      records.push(`${meta}\0${from}\0${path}`);
    } else {
      const path = fields[i++]!;
      changes.push({ status: letter, oldMode, newMode, oldOid, newOid, path });
      records.push(`${meta}\0${path}`);
    }
  }
  return { records, changes };
}

function toFileDiff(change: RawChange, sections: Buffer[][]): FileDiff {
  let binary = false;
  const hunks: Buffer[] = [];
  for (const section of sections) {
    const { header, rest } = splitHeader(section);
    if (header.includes('\nBinary files ')) binary = true;
    hunks.push(...rest);
  }
  return { change, binary, hunks };
}

/**
 * A section's header (up to its first `@@ -` line, or all of it when it has none) and its
 * hunks, in pieces: only the pieces the header spans are joined to find where it ends.
 */
function splitHeader(pieces: Buffer[]): { header: Buffer; rest: Buffer[] } {
  let head = pieces[0] ?? Buffer.alloc(0);
  let used = 1;
  for (;;) {
    const at = hunkStart(head);
    if (at !== -1) return { header: head.subarray(0, at), rest: [head.subarray(at), ...pieces.slice(used)].filter((piece) => piece.length > 0) };
    if (used === pieces.length) return { header: head, rest: [] };
    head = Buffer.concat([head, pieces[used++]!]);
  }
}

/** Offset of the first `@@ -` line of a section, or -1. */
function hunkStart(section: Buffer): number {
  if (section.subarray(0, 4).toString() === '@@ -') return 0;
  const at = section.indexOf('\n@@ -');
  return at === -1 ? -1 : at + 1;
}

/**
 * Cuts a patch stream into per-file sections at each `diff --git` line, each as the
 * pieces of the chunks it lies in, never copied, even when a marker straddles two chunks.
 */
export class SectionSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): Buffer[][] {
    if (chunk.length === 0) return [];
    const cuts: number[] = [];
    // A marker that starts in the bytes already held and ends in this chunk: looked for in a
    // small window across the boundary, so the chunk itself is never copied for the search.
    const keep = Math.min(this.size, SECTION_START.length - 1);
    if (keep > 0) {
      const window = Buffer.concat([this.lastBytes(keep), chunk.subarray(0, SECTION_START.length - 1)]);
      const m = window.indexOf(SECTION_START);
      if (m !== -1 && m < keep) cuts.push(this.size - keep + m + 1);
    }
    for (const m of sectionStarts(chunk)) cuts.push(this.size + m + 1);
    this.parts.push(chunk);
    this.size += chunk.length;
    const sections: Buffer[][] = [];
    let taken = 0;
    for (const cut of cuts) {
      sections.push(this.take(cut - taken));
      taken = cut;
    }
    return sections;
  }

  end(): Buffer[][] {
    if (this.size === 0) return [];
    return [this.take(this.size)];
  }

  /** The first n bytes held, as views of the chunks they lie in. */
  private take(n: number): Buffer[] {
    this.size -= n;
    const taken: Buffer[] = [];
    let left = n;
    let used = 0; // parts taken whole, dropped at once (one shift each would be quadratic in tiny chunks)
    while (left > 0) {
      const part = this.parts[used]!;
      if (part.length > left) {
        taken.push(part.subarray(0, left));
        this.parts[used] = part.subarray(left);
        left = 0;
      } else {
        taken.push(part);
        left -= part.length;
        used++;
      }
    }
    this.parts.splice(0, used);
    return taken;
  }

  private lastBytes(n: number): Buffer {
    const last = this.parts[this.parts.length - 1]!;
    if (last.length >= n) return last.subarray(last.length - n);
    // Only the few parts that hold the last n bytes are joined.
    let first = this.parts.length - 1;
    for (let held = last.length; held < n && first > 0; ) held += this.parts[--first]!.length;
    const tail = Buffer.concat(this.parts.slice(first));
    return tail.subarray(tail.length - n);
  }
}
