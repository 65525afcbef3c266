import { stat } from 'node:fs/promises';
import { InvolutError } from '../errors';
import { readKeep } from '../../round/config';
import { describePruned, pruneRounds } from '../../round/prune';
import { lockRounds, removeUnfinished } from '../../round/rounds';
import { openRepo } from '../../git/repo';
import type { Output } from '../output';
import { assertReviewDirSafe, assertWritable } from '../../review/review-dir';

export interface PruneFlags {
  repo: string;
  /** How many of the last rounds to keep; default: `keep` in .involut.json, else 10. */
  keep?: string;
}

/** `involut prune [--keep N]`: removes the rounds nothing needs now, and says which. */
export async function prune(flags: PruneFlags, out: Output): Promise<void> {
  const keepFlag = flags.keep === undefined ? undefined : Number(flags.keep);
  if (keepFlag !== undefined && !(Number.isInteger(keepFlag) && keepFlag >= 1)) {
    throw new InvolutError('usage', `--keep takes a whole number of rounds, 1 or more (got '${flags.keep}').`);
  }
  const repo = await openRepo(flags.repo);
  const review = await assertReviewDirSafe(repo.root);
  const keep = keepFlag ?? (await readKeep(repo.root));
  if (!(await stat(review.dir).catch(() => null))) {
    out.result({ pruned: [], blobs: 0, keep, also_kept: [] }, () => ['No rounds to prune: there is no .review/ yet.']);
    return;
  }
  await assertWritable(review);
  const unlock = await lockRounds(review, (pid) =>
    out.warn(`An \`involut rounds\` for this repository is running (process ${pid}); waiting for it to finish.`),
  );
  try {
    const cleared = await removeUnfinished(repo, review);
    const pruned = await pruneRounds(repo, review, keep);
    const line =
      describePruned(pruned, keep) ?? `Nothing to prune: every kept round is among the last ${keep} or still needed.`;
    out.result(
      {
        pruned: pruned.rounds,
        blobs: pruned.blobs,
        keep,
        also_kept: pruned.alsoKept,
        cleared_unfinished: cleared,
      },
      () => [...(cleared ? ['Removed what an unfinished round left behind.'] : []), line],
    );
  } finally {
    await unlock();
  }
}
