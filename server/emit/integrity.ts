import { readFile } from 'node:fs/promises';
import { InvolutError } from '../errors';
import type { RawChange } from '../git/diff';
import type { Repo } from '../git/repo';
import { isAlive } from '../process-alive';

const GITLINK = '160000';
/** How long a round waits for a `git gc` under way to end before it checks its objects. */
const GC_PATIENCE_MS = 60_000;

/**
 * Fails the round unless every object it added to the repository is still there: the
 * tree, the folders it changed or added and each changed file's blob (everything else is
 * the base's). Until the round's ref was pinned they were reachable from nothing, and a
 * `git gc --prune=now` running meanwhile may have removed them; a gc still under way is
 * waited for first, since it removes what it found unreachable when it started.
 */
export async function verifyStored(repo: Repo, tree: string, changes: RawChange[], folders: string[]): Promise<void> {
  await gcFinished(repo.gcPidFile);
  const blobs = changes.filter((c) => c.status !== 'D' && c.newMode !== GITLINK).map((c) => c.newOid);
  const answer = await repo.git.run(
    ['cat-file', '--buffer', '--batch-check=%(objectname)'],
    {},
    [],
    Buffer.from(`${[tree, ...folders, ...blobs].join('\n')}\n`),
  );
  if (answer.split('\n').some((line) => line.endsWith(' missing'))) {
    throw new InvolutError(
      'round-incomplete',
      'Objects of this round were removed from git while it was captured (a `git gc --prune=now` or another cleanup ran meanwhile); nothing was kept: run `involut rounds` again.',
    );
  }
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
