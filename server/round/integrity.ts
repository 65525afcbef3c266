import { readFile } from 'node:fs/promises';
import { InvolutError } from '../cli/errors';
import { liveOids, type RawChange } from '../git/diff';
import { objectSizes } from '../git/objects';
import type { Repo } from '../git/repo';
import { isAlive } from '../review/process-alive';

const GITLINK = '160000';
/** How long a round waits for a `git gc` under way to end before it checks its objects. */
const GC_PATIENCE_MS = 60_000;

/**
 * The sizes of the objects a round's entries show, asked of git together with every object
 * the round added to the repository: the tree, the folders it changed or added and each
 * changed file's blob (everything else is the base's). Fails the round unless all of those
 * are still there: until the round's ref was pinned they were reachable from nothing, and a
 * `git gc --prune=now` running meanwhile may have removed them. Asked once the ref is
 * pinned, and after a gc under way has ended: it removes what it found unreachable when it started.
 */
export async function storedSizes(
  repo: Repo,
  tree: string,
  changes: RawChange[],
  folders: string[],
): Promise<Map<string, number>> {
  await gcFinished(repo.gcPidFile);
  const added = changes.filter((c) => c.status !== 'D' && c.newMode !== GITLINK).map((c) => c.newOid);
  const sizes = await objectSizes(repo, [tree, ...folders, ...added, ...liveOids(changes)]);
  if ([tree, ...folders, ...added].some((oid) => !sizes.has(oid))) {
    throw new InvolutError(
      'round-incomplete',
      'Objects of this round were removed from git while it was captured (a `git gc --prune=now` or another cleanup ran meanwhile); nothing was kept: run `involut rounds` again.',
    );
  }
  return sizes;
}

async function gcFinished(pidFile: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < GC_PATIENCE_MS) {
    const said = await readFile(pidFile, 'utf8').catch(() => null);
    const pid = Number(said?.trim().split(/\s+/)[0]);
    if (said === null || !isAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
