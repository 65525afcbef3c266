import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { exited } from './git';
import type { Repo } from './repo';

/** A full object id (SHA-1 or SHA-256), the only tree spelling a request path may lead to. */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The bytes of one blob, streamed (`git cat-file blob <tree>:<path>`), or `null` when
 * there is no such blob. The answer waits for the first bytes or git's exit, so a
 * missing object is known before a response starts.
 */
export async function readBlobStream(repo: Repo, tree: string, file: string): Promise<Readable | null> {
  if (!OBJECT_ID.test(tree)) return null;
  const child = repo.git.spawn(['cat-file', 'blob', `${tree}:${file}`]);
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
