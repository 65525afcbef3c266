import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { exited } from './git';
import type { Repo } from './repo';

/** Sizes in bytes of many objects at once (`git cat-file --batch-check`); ids git lacks are left out. */
export async function objectSizes(repo: Repo, oids: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (oids.length === 0) return sizes;
  // --buffer: answers come in a few large writes instead of one flush per object.
  const args = ['cat-file', '--buffer', '--batch-check=%(objectname) %(objectsize)'];
  const text = (await repo.git.runBytes(args, {}, [], Buffer.from(`${[...new Set(oids)].join('\n')}\n`))).toString(
    'latin1',
  );
  for (const line of text.split('\n')) {
    const [oid, size] = line.split(' ');
    if (oid && size !== 'missing' && size !== undefined) sizes.set(oid, Number(size));
  }
  return sizes;
}

/** Enough of a file to find the dimensions in any PNG, GIF, WebP or common JPEG. */
const HEAD_BYTES = 512 * 1024;

/**
 * One `git cat-file --batch` kept open for blobs asked for one at a time, so a round
 * with many binaries costs one process and memory stays bounded by HEAD_BYTES whatever
 * the size of a binary. git starts with the first read: most rounds have no binary.
 */
export class BlobReader {
  private git: { child: ReturnType<Repo['git']['spawn']>; done: Promise<void>; out: AsyncIterator<Buffer> } | null =
    null;
  private buffer: Buffer = Buffer.alloc(0);
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly repo: Repo) {}

  /**
   * Reads one blob (an id, or `<tree>:<path>`), saving it whole to `saveTo` (through a
   * temporary name) when given, and answers its first `keep` bytes. Each name is sent to
   * git at once, so git answers the next while this one is read (a round trip per blob,
   * with git to wake up each time, was most of what a round with many images spent on
   * them); the answers are read in turn.
   */
  read(oid: string, saveTo?: string, keep = HEAD_BYTES): Promise<Buffer> {
    if (!this.git) {
      const child = this.repo.git.spawn(['cat-file', '--batch']);
      const done = exited(child, 'git cat-file');
      done.catch(() => {}); // awaited in close()
      this.git = { child, done, out: (child.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]() };
    }
    this.git.child.stdin.write(`${oid}\n`);
    const turn = this.queue.then(() => this.readNext(saveTo, keep));
    // The next read waits for this one, failed or not; the failure itself reaches the caller through `turn`.
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async more(): Promise<void> {
    const { value, done } = (await this.git!.out.next()) as IteratorResult<Buffer, undefined>;
    if (done) throw new Error('git cat-file ended early');
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, value]) : value;
  }

  private async readNext(saveTo: string | undefined, keep: number): Promise<Buffer> {
    while (!this.buffer.includes(0x0a)) await this.more();
    const nl = this.buffer.indexOf(0x0a);
    const header = this.buffer.subarray(0, nl).toString('latin1');
    this.buffer = this.buffer.subarray(nl + 1);
    const size = Number(header.split(' ')[2]);
    if (!header.includes(' blob ') || !Number.isInteger(size)) throw new Error(`git cat-file: ${header}`);
    const head: Buffer[] = [];
    let headSize = 0;
    const temporary = saveTo ? `${saveTo}.${process.pid}.tmp` : null;
    // Written synchronously: pieces go to the page cache, and a stream per blob costs more than that.
    let out = temporary ? openSync(temporary, 'w') : null;
    let failed: Error | null = null;
    /** Closes and removes the half-written copy: a failed write (a full disk) must leave nothing in blobs/. */
    const drop = () => {
      if (out === null) return;
      try {
        closeSync(out);
      } catch {
        // Already closed (the failure was the rename): nothing more to release.
      }
      out = null;
      rmSync(temporary!, { force: true });
    };
    try {
      for (let remaining = size; remaining > 0;) {
        if (this.buffer.length === 0) await this.more();
        const piece = this.buffer.subarray(0, remaining);
        this.buffer = this.buffer.subarray(piece.length);
        remaining -= piece.length;
        if (headSize < keep) head.push(piece.subarray(0, keep - headSize));
        headSize += piece.length;
        try {
          if (out !== null) for (let at = 0; at < piece.length;) at += writeSync(out, piece, at);
        } catch (error) {
          // The rest of the blob is still read: git's answers stay in step, so the reads queued
          // behind this one (and close()) settle instead of waiting on a stream left mid-blob.
          failed = Object.assign(error as Error, { path: saveTo });
          drop();
        }
      }
      if (this.buffer.length === 0) await this.more();
      this.buffer = this.buffer.subarray(1); // the newline after each blob
      if (failed !== null) throw failed;
      if (out !== null) closeSync(out);
      out = null;
      if (temporary) renameSync(temporary, saveTo!);
    } catch (error) {
      drop();
      if (temporary) rmSync(temporary, { force: true });
      throw error;
    }
    return Buffer.concat(head);
  }

  async close(): Promise<void> {
    if (!this.git) return;
    this.git.child.stdin.end();
    await this.git.done;
  }
}
