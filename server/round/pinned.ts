import type { RoundIndex } from '../../schemas/api';
import type { z } from 'zod';
import { parseRaw } from '../git/diff';
import { WITHOUT_REVIEW } from '../git/git';
import type { Repo } from '../git/repo';

const AGAIN = 'run `involut rounds` to capture the round again.';

/**
 * Whether a material that names its round and tree is that round: `refs/involut/rounds/<n>`
 * pins the tree it names, and its entries are the files git finds changed between its base
 * and that tree, no more and no fewer. A sentence saying what differs, or null when it
 * agrees (or names no round to check against). Withheld files are left out of the
 * comparison: the tree holds no working copy of them.
 */
export async function pinnedMismatch(repo: Repo, data: z.infer<typeof RoundIndex>): Promise<string | null> {
  const { round, tree, base } = data.source;
  if (round === undefined || round === null || !tree) return null;
  const ref = `refs/involut/rounds/${round}`;
  const pinned = (await repo.git.tryRun(['rev-parse', '--verify', '--quiet', ref]))?.trim() || null;
  if (pinned === null)
    return `material.json says it is round ${round}, but ${ref} pins no tree in this repository (the round was removed, or the file comes from elsewhere); ${AGAIN}`;
  if (pinned !== tree)
    return `material.json says round ${round} captured tree ${tree.slice(0, 12)}, but ${ref} pins ${pinned.slice(0, 12)}: the file was edited or comes from another round; ${AGAIN}`;
  if (!base) return null;
  const raw = await repo.git.runBytes([
    'diff',
    '--raw',
    '-z',
    '--no-renames',
    '--no-abbrev',
    base,
    tree,
    ...WITHOUT_REVIEW,
  ]);
  const changed = new Set(parseRaw(raw).map((change) => change.path));
  const listed = new Set<string>();
  for (const entry of data.material) {
    listed.add(entry.ref);
    if (entry.from) listed.add(entry.from);
    if (entry.withheld) continue;
    for (const file of entry.from ? [entry.ref, entry.from] : [entry.ref])
      if (!changed.has(file))
        return `material.json lists ${file}, which round ${round}'s pinned tree does not change: the file was edited; ${AGAIN}`;
  }
  for (const file of changed)
    if (!listed.has(file))
      return `material.json leaves out ${file}, which round ${round}'s pinned tree changes: the file was edited; ${AGAIN}`;
  return null;
}
