import { readFile } from 'node:fs/promises';
import { InvolutError } from '../errors';
import { ZERO_OID, type RawChange } from '../git/diff';
import type { Repo } from '../git/repo';
import { isAlive } from '../process-alive';

const GITLINK = '160000';
/** How long a round waits for a `git gc` under way to end before it checks its objects. */
const GC_PATIENCE_MS = 60_000;

/**
 * Fails the round unless every object it added to the repository is still there: the
 * tree, the folders along each changed path and each changed file's blob (everything
 * else is the base's). Until the round's ref was pinned they were reachable from nothing,
 * and a `git gc --prune=now` running meanwhile may have removed them; a gc still under way
 * is waited for first, since it removes what it found unreachable when it started.
 */
export async function verifyStored(repo: Repo, tree: string, changes: RawChange[]): Promise<void> {
  await gcFinished(repo.gcPidFile);
  const questions = new Set([tree]);
  for (const change of changes) {
    if (change.status === 'D') continue;
    if (!ZERO_OID.test(change.newOid) && change.newMode !== GITLINK) questions.add(change.newOid);
    // Asked by its bytes (a folder's name need not be UTF-8), as latin1 keeps them one to one.
    const file = change.pathBytes?.toString('latin1') ?? Buffer.from(change.path).toString('latin1');
    if (file.includes('\n')) continue;
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1))
      questions.add(`${tree}:${file.slice(0, at)}`);
  }
  const answer = await repo.git.run(
    ['cat-file', '--batch-check=%(objectname)'],
    {},
    [],
    Buffer.from(`${[...questions].join('\n')}\n`, 'latin1'),
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
