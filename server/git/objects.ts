import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { exited } from './git';
import type { Repo } from './repo';

/** Sizes in bytes of many blobs at once (`git cat-file --batch-check`); unknown ids are left out. */
export async function blobSizes(repo: Repo, oids: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (oids.length === 0) return sizes;
  // --buffer: answers come in a few large writes instead of one flush per object.
  const args = ['cat-file', '--buffer', '--batch-check=%(objectname) %(objecttype) %(objectsize)'];
  const text = (await repo.git.runBytes(args, {}, [], Buffer.from(`${[...new Set(oids)].join('\n')}\n`))).toString(
    'latin1',
  );
  for (const line of text.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (oid && type === 'blob') sizes.set(oid, Number(size));
  }
  return sizes;
}

/** What to do with one blob read by a `BlobReader`. */
export interface BlobRequest {
  oid: string;
  /** Write the whole blob to this file (through a temporary name, then rename). */
  saveTo?: string;
  /** Called with the first bytes of the blob (up to `HEAD_BYTES`), e.g. to read image headers. */
  onHead?: (head: Buffer) => void;
}

/** Enough of a file to find the dimensions in any PNG, GIF, WebP or common JPEG. */
export const HEAD_BYTES = 512 * 1024;

/**
 * One `git cat-file --batch` kept open for blobs asked for one at a time, so a
 * round with many binaries costs one process and memory stays bounded by HEAD_BYTES
 * whatever the size of a binary.
 */
export class BlobReader {
  private started: { child: ReturnType<Repo['git']['spawn']>; done: Promise<void>; reader: ByteReader } | null = null;
  private queue: Promise<void> = Promise.resolve();

  /** git starts with the first read: most rounds have no binary to read. */
  constructor(private readonly repo: Repo) {}

  private get process() {
    if (!this.started) {
      const child = this.repo.git.spawn(['cat-file', '--batch']);
      const done = exited(child, 'git cat-file');
      done.catch(() => {}); // awaited in close()
      this.started = { child, done, reader: new ByteReader(child.stdout as AsyncIterable<Buffer>) };
    }
    return this.started;
  }

  /**
   * Reads one blob; requests made while another is being read wait their turn, in order.
   * Each is sent to git at once, so git answers the next while this one is read (a round
   * trip per blob, with git to wake up each time, was most of what a round with many
   * images spent on them).
   */
  read(request: BlobRequest): Promise<void> {
    this.process.child.stdin.write(`${request.oid}\n`);
    const turn = this.queue.then(() => this.readNow(request));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async readNow(request: BlobRequest): Promise<void> {
    const { reader } = this.process;
    const header = (await reader.line()).toString('latin1');
    const [, type, sizeText] = header.split(' ');
    if (type === 'missing' || sizeText === undefined) throw new Error(`git cat-file: ${header}`);
    let remaining = Number(sizeText);
    const head: Buffer[] = [];
    let headSize = 0;
    const temporary = request.saveTo ? `${request.saveTo}.${process.pid}.tmp` : null;
    // Written synchronously: pieces go to the page cache, and a stream per blob costs more than that.
    let out: number | null = temporary ? openSync(temporary, 'w') : null;
    try {
      while (remaining > 0) {
        const piece = await reader.take(remaining);
        remaining -= piece.length;
        if (headSize < HEAD_BYTES) {
          head.push(piece.subarray(0, HEAD_BYTES - headSize));
          headSize += Math.min(piece.length, HEAD_BYTES - headSize);
        }
        if (out !== null) for (let at = 0; at < piece.length;) at += writeSync(out, piece, at);
      }
      await reader.take(1); // the newline after each blob
      if (out !== null) {
        closeSync(out);
        out = null;
        renameSync(temporary!, request.saveTo!);
      }
    } catch (error) {
      if (out !== null) closeQuietly(out);
      if (temporary) rmSync(temporary, { force: true });
      throw error;
    }
    request.onHead?.(Buffer.concat(head));
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started.child.stdin.end();
    await this.started.done;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // the error being thrown says more
  }
}

/** Pull-style reading of a byte stream: whole lines, or up to n bytes. */
class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(stream: AsyncIterable<Buffer>) {
    this.iterator = stream[Symbol.asyncIterator]();
  }

  private async fill(): Promise<void> {
    const { value, done } = (await this.iterator.next()) as IteratorResult<Buffer, undefined>;
    if (done) throw new Error('git cat-file ended early');
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, value]) : value;
  }

  async line(): Promise<Buffer> {
    let nl: number;
    while ((nl = this.buffer.indexOf(0x0a)) === -1) await this.fill();
    const line = this.buffer.subarray(0, nl);
    this.buffer = this.buffer.subarray(nl + 1);
    return line;
  }

  async take(n: number): Promise<Buffer> {
    if (this.buffer.length === 0) await this.fill();
    const piece = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(piece.length);
    return piece;
  }
}
