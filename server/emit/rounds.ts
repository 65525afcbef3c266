import { copyFile, link, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
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
 * The next round number: one past the last material's round, every pinned round ref and
 * every kept round folder, so a pinned tree is never moved (worktrees of one repository
 * share refs) and a kept round is never written over.
 */
export async function nextRoundNumber(repo: Repo, review: ReviewDir, previous: PreviousRound | null): Promise<number> {
  const [refs, kept] = await Promise.all([repo.git.run(['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/']), keptRounds(review)]);
  let highest = Math.max(previous?.round ?? 0, ...kept);
  for (const ref of refs.split('\n')) {
    const n = Number(ref.slice('refs/involut/rounds/'.length));
    if (Number.isInteger(n) && n > highest) highest = n;
  }
  return highest + 1;
}

/** `.review/rounds/`: one folder per round, holding that round's material.json as it was written. */
export const keptRoundsDir = (review: ReviewDir) => path.join(review.dir, 'rounds');
export const keptMaterial = (review: ReviewDir, n: number) => path.join(keptRoundsDir(review), String(n), 'material.json');

/** The numbers of the round folders in `.review/rounds/`, ascending. */
export async function keptRounds(review: ReviewDir): Promise<number[]> {
  const names = await readdir(keptRoundsDir(review)).catch(() => [] as string[]);
  return names
    .filter((name) => /^[1-9]\d*$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Takes `.review/rounds/<n>/` for the round about to be written: the folder is made, or
 * `false` when it exists already (mkdir is atomic, so two emissions never share one).
 */
export async function claimRound(review: ReviewDir, n: number): Promise<boolean> {
  await mkdir(keptRoundsDir(review), { recursive: true });
  try {
    await mkdir(path.dirname(keptMaterial(review, n)));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Gives back a claimed round folder when the emission failed (only while it is still empty). */
export async function releaseRound(review: ReviewDir, n: number): Promise<void> {
  await rmdir(path.dirname(keptMaterial(review, n))).catch(() => {});
}

/**
 * Keeps the material just written as `.review/rounds/<n>/material.json`: copied to a
 * temporary name, then linked into place, which appears whole and fails rather than
 * replace a file already there.
 */
export async function keepRound(review: ReviewDir, n: number): Promise<void> {
  const kept = keptMaterial(review, n);
  const temporary = path.join(path.dirname(kept), `.material.json.${process.pid}.${Date.now()}.tmp`);
  try {
    await copyFile(review.material, temporary);
    await link(temporary, kept).catch(async (error: NodeJS.ErrnoException) => {
      // A file system without hard links: the folder was claimed for this round, so a rename is safe.
      if (error.code === 'EEXIST' || (await stat(kept).catch(() => null))) throw error;
      await rename(temporary, kept);
    });
  } finally {
    await rm(temporary, { force: true });
  }
}

export async function pinRound(repo: Repo, n: number, tree: string): Promise<void> {
  await repo.git.run(['update-ref', roundRef(n), tree]);
}
