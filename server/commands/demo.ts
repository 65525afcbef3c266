import { buildDemoRepo } from '../demo/build-repo';
import { emitRound } from '../emit/material';
import { openRepo } from '../git/repo';
import type { Output } from '../output';
import { describeRound, jsonRound } from './rounds';

/** `involut demo`: a small real repository with a round of changes, captured like any other. */
export async function demo(out: Output): Promise<void> {
  const dir = await buildDemoRepo();
  const summary = await emitRound(await openRepo(dir), {});
  out.result({ repo: dir, ...jsonRound(summary) }, () => [
    `Built a demo repository with a round of changes in ${dir}`,
    '',
    ...describeRound(summary, dir),
    '',
    `Look at ${summary.materialFile}, or try \`npx involut rounds --repo ${dir}\` yourself.`,
  ]);
}
