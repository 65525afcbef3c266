import { z } from 'zod';
import { Material } from '../../schemas/material';
import type { Repo } from '../git/repo';
import { readJsonOrNull, writeFileAtomic, type ReviewDir } from '../review-dir';
import { localIsoTime } from './time';

/** What `involut rounds --begin` records: the state the next round is compared against. */
export const BeginRecord = z.object({
  head: z.string().nullable(),
  tree: z.string(),
  at: z.string(),
});
export type BeginRecord = z.infer<typeof BeginRecord>;

/** The round captured last, as the previous material.json recorded it. */
export interface PreviousRound {
  round: number;
  tree: string;
  head: string | null;
}

export const roundRef = (n: number) => `refs/involut/rounds/${n}`;

export async function readBegin(review: ReviewDir): Promise<BeginRecord | null> {
  const parsed = BeginRecord.safeParse(await readJsonOrNull(review.begin));
  return parsed.success ? parsed.data : null;
}

export async function writeBegin(review: ReviewDir, record: Omit<BeginRecord, 'at'>): Promise<BeginRecord> {
  const full = { ...record, at: localIsoTime() };
  await writeFileAtomic(review.begin, `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

export async function readPreviousRound(review: ReviewDir): Promise<PreviousRound | null> {
  const parsed = Material.safeParse(await readJsonOrNull(review.material));
  if (!parsed.success) return null;
  const { round, tree, head } = parsed.data.source;
  return round && tree ? { round, tree, head: head ?? null } : null;
}

/**
 * The next round number: one past both the last material's round and every pinned
 * round ref, so a pinned tree is never moved (worktrees of one repository share refs).
 */
export async function nextRoundNumber(repo: Repo, previous: PreviousRound | null): Promise<number> {
  const refs = await repo.git.run(['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/']);
  let highest = previous?.round ?? 0;
  for (const ref of refs.split('\n')) {
    const n = Number(ref.slice('refs/involut/rounds/'.length));
    if (Number.isInteger(n) && n > highest) highest = n;
  }
  return highest + 1;
}

export async function pinRound(repo: Repo, n: number, tree: string): Promise<void> {
  await repo.git.run(['update-ref', roundRef(n), tree]);
}
