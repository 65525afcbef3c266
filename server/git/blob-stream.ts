import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { exited } from './git';
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
