import { stat } from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from '../errors';
import { runnable } from '../invocation';
import { openRepo } from '../../git/repo';
import { reviewDir } from '../../review/review-dir';
import { emitRound, recordBegin, type RoundSummary } from '../../round/material';
import type { Output } from '../output';

export interface RoundsFlags {
  repo: string;
  base?: string;
  sinceLast: boolean;
  begin: boolean;
}

/** `involut rounds`: capture the round into .review/; `--begin`: record the next round's base. */
export async function rounds(flags: RoundsFlags, out: Output): Promise<void> {
  if (flags.begin && (flags.base !== undefined || flags.sinceLast)) {
    throw new InvolutError('usage', '--begin records a base, so it takes neither --base nor --since-last.');
  }
  if (flags.base !== undefined && flags.sinceLast) {
    throw new InvolutError('usage', 'Pass either --base REF or --since-last, not both.');
  }
  if (!(await stat(flags.repo).catch(() => null))?.isDirectory()) {
    throw new InvolutError(
      'not-a-repo',
      `${flags.repo} is not a folder; pass --repo with the folder of your repository.`,
    );
  }
  const repo = await openRepo(flags.repo);
  const onWait = (pid: number) =>
    out.warn(`Another \`involut rounds\` for this repository is running (process ${pid}); waiting for it to finish.`);
  if (flags.begin) {
    const record = await recordBegin(repo, { onWait });
    out.result(record, () => [
      `Recorded the base of the next round: HEAD ${short(record.head)}, working state captured as tree ${short(record.tree)}.`,
      runnable('Run `involut rounds` when the work is done.'),
    ]);
    return;
  }
  const round = emitRound(repo, { ref: flags.base, sinceLast: flags.sinceLast }, { onWait });
  // The viewer URL of a server already running for this repository, so the agent can hand it on.
  // Looked up once the capture is under way: its module loads node:crypto, 10 ms of a round's start.
  const running = import('../../serve/running-servers')
    .then(({ findRunningServer }) => findRunningServer(repo.root))
    .catch(() => null);
  // How many notes are open, read once the round is captured; its module loads zod, so it loads meanwhile.
  const notesModule = import('../../review/open-notes');
  const summary = await round;
  for (const warning of summary.warnings) out.warn(warning);
  const [viewer, open] = await Promise.all([
    running.then((server) => server?.url),
    notesModule.then(({ openNoteCount }) => openNoteCount(reviewDir(repo.root))).catch(() => null),
  ]);
  out.result(
    { ...jsonRound(summary), ...(open !== null ? { open_notes: open } : {}), ...(viewer ? { viewer } : {}) },
    () => [
      ...describeRound(summary, repo.root),
      ...(open
        ? [
            runnable(
              `  notes     ${open} open: \`involut notes\` shows them; a card answers one by naming it in \`addresses\``,
            ),
          ]
        : []),
      ...(viewer ? [`  viewer    ${viewer}`] : []),
    ],
  );
}

export function jsonRound(s: RoundSummary) {
  return {
    round: s.round,
    base: s.base,
    base_reason: s.baseReason,
    tree: s.tree,
    material: s.materialFile,
    files: s.files,
    by_status: s.byStatus,
    additions: s.additions,
    deletions: s.deletions,
    binaries: s.binaries,
    generated: s.generated,
    withheld: s.withheld,
    warnings: s.warnings,
    pruned: s.pruned,
  };
}

export function describeRound(s: RoundSummary, root: string): string[] {
  const statuses = (Object.entries(s.byStatus) as Array<[string, number]>)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  const lines = [
    `Involut round ${s.round} of ${root}`,
    `  base      ${short(s.base)}  ${s.baseReason}`,
    `  files     ${s.files}${statuses.length ? `: ${statuses.join(', ')}` : ' (nothing changed)'}`,
    `  lines     +${s.additions} −${s.deletions}`,
  ];
  if (s.binaries) lines.push(`  binaries  ${s.binaries} (before copies in .review/blobs/)`);
  if (s.generated) lines.push(`  generated ${s.generated} (lockfiles and generated files, folded in the viewer)`);
  for (const [i, w] of s.withheld.entries()) {
    lines.push(`  ${i === 0 ? 'withheld ' : '         '} ${w.ref}: ${w.reason}`);
  }
  const relative = path.relative(process.cwd(), s.materialFile);
  lines.push(`  wrote     ${relative.startsWith('..') || path.isAbsolute(relative) ? s.materialFile : relative}`);
  if (s.pruned) lines.push(`  pruned    ${s.pruned}`);
  return lines;
}

function short(id: string | null): string {
  return id ? id.slice(0, 7) : '(no commits)';
}
