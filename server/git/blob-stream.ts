import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { exited } from './git';
import { BlobReader } from './objects';
import type { Repo } from './repo';

/** A full object id (SHA-1 or SHA-256), the only tree spelling a request path may lead to. */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The bytes of one blob, streamed (`git cat-file blob <tree>:<path>`), or `null` when
 * there is no such blob. The answer waits for the first bytes or git's exit, so a
 * missing object is known before a response starts. A path given as bytes (not UTF-8,
 * which no command-line argument can carry) is looked up through stdin first.
 */
export async function readBlobStream(repo: Repo, tree: string, file: string | Buffer): Promise<Readable | null> {
  if (!OBJECT_ID.test(tree)) return null;
  const name = typeof file === 'string' ? `${tree}:${file}` : await objectOf(repo, tree, file);
  if (name === null) return null;
  const child = repo.git.spawn(['cat-file', 'blob', name]);
  child.stdin.end();
  const done = exited(child, 'git cat-file');
  done.catch(() => {}); // a failure before the first byte is answered below; later, the stream just ends
  const started = await Promise.race([
    once(child.stdout, 'readable').then(() => child.stdout.readableLength > 0),
    done.then(
      () => true,
      () => false,
    ),
  ]);
  if (started) return child.stdout;
  // The stream ended without a byte: an empty blob, or a failure.
  return done.then(
    () => child.stdout,
    () => null,
  );
}

/** The id of the blob at the path `file` (exact bytes) in `tree`, or null when there is none. */
async function objectOf(repo: Repo, tree: string, file: Buffer): Promise<string | null> {
  if (file.includes(0x0a)) return null; // one question per line: a newline in the name cannot be asked
  const question = Buffer.concat([Buffer.from(`${tree}:`), file, Buffer.from('\n')]);
  const answer = (
    await repo.git.run(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {}, [], question)
  ).trim();
  const [id, type] = answer.split(' ');
  return type === 'blob' && id !== undefined && OBJECT_ID.test(id) ? id : null;
}

/** Blobs up to this size are read whole through `SmallBlobs`; larger ones stream from a git of their own. */
export const SMALL_BLOB_BYTES = 4 * 1024 * 1024;
const IDLE_MS = 10_000;

/**
 * The server's reads of small blobs: one `git cat-file --batch` answers all of them. Most
 * of what a small blob costs is a git start, and a screenful of images asks for a dozen at
 * once. Started on the first read, closed after IDLE_MS without one.
 */
export class SmallBlobs {
  private reader: BlobReader | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly repo: Repo) {}

  /** The blob at `file` in `tree`, whole; null when the batch cannot answer it (stream it with `readBlobStream`). */
  async read(tree: string, file: string): Promise<Buffer | null> {
    if (!OBJECT_ID.test(tree) || file.includes('\n')) return null;
    const reader = (this.reader ??= new BlobReader(this.repo));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.close(), IDLE_MS).unref();
    // Not a blob (missing, a submodule) or git gone: a new git answers the next read.
    return reader.read(`${tree}:${file}`, undefined, Infinity).catch(() => {
      if (this.reader === reader) this.close();
      return null;
    });
  }

  close(): void {
    clearTimeout(this.timer);
    this.reader?.close().catch(() => {});
    this.reader = null;
  }
}
