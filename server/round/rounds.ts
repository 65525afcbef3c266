import { constants } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from '../cli/errors';
import type { Repo } from '../git/repo';
import { isSameProcessAlive, processStart } from '../review/process-alive';
import { linkOrCopy, readJsonOrNull, writeFileAtomic, type ReviewDir } from '../review/review-dir';
import { localIsoTime } from '../review/time';

/**
 * A round's folder, `.review/rounds/<n>/`: `round.json` (what the round compared, written
 * when it is claimed), `material.json` (written last, through a temporary name) and, once
 * the next round is captured, `cards.json` (the cards as they were then). A round
 * is finished once its `material.json` is there; one without it was stopped (Ctrl-C, a
 * kill, a full disk) and is removed, with its ref, by the next round. What a round needs
 * of earlier ones is in their `round.json` and refs: no earlier material is read. Checked by
 * hand rather than with zod, which `involut rounds` does not load otherwise.
 */
export interface RoundRecord {
  round: number;
  /** The captured tree, pinned as `refs/involut/rounds/<n>`. */
  tree: string;
  head: string | null;
  base: string;
  at: string;
}

/** What `involut rounds --begin` records: the state the next round is compared against. */
export interface BeginRecord {
  head: string | null;
  tree: string;
  at: string;
}

export const roundRef = (n: number) => `refs/involut/rounds/${n}`;
/**
 * Pins the tree `--begin` captured, so it outlives `git gc` until the next `--begin`. Per
 * worktree (git keeps `refs/worktree/` apart for each), as `.review/begin.json` is: a
 * `--begin` in one worktree never moves another's pin.
 */
const BEGIN_REF = 'refs/worktree/involut/begin';
/** Where an earlier Involut pinned it, shared by every worktree. */
const SHARED_BEGIN_REF = 'refs/involut/begin';

const roundsDir = (review: ReviewDir) => path.join(review.dir, 'rounds');
export const roundDir = (review: ReviewDir, n: number) => path.join(roundsDir(review), String(n));
export const keptMaterial = (review: ReviewDir, n: number) => path.join(roundDir(review, n), 'material.json');
/** The cards.json written for round `n`, kept when the round after it was captured. */
export const keptCards = (review: ReviewDir, n: number) => path.join(roundDir(review, n), 'cards.json');
const recordFile = (review: ReviewDir, n: number) => path.join(roundDir(review, n), 'round.json');

export async function readBegin(review: ReviewDir): Promise<BeginRecord | null> {
  const data = await readJsonOrNull(review.begin);
  if (!isRecord(data)) return null;
  const { head, tree, at } = data;
  if ((head !== null && typeof head !== 'string') || typeof tree !== 'string' || typeof at !== 'string') return null;
  return { head, tree, at };
}

export async function writeBegin(repo: Repo, review: ReviewDir, record: Omit<BeginRecord, 'at'>): Promise<BeginRecord> {
  const full = { ...record, at: localIsoTime() };
  const before = await readBegin(review);
  const pinned = (await repo.git.tryRun(['rev-parse', '--verify', '--quiet', BEGIN_REF]))?.trim() || null;
  await repo.git.run(['update-ref', BEGIN_REF, record.tree]);
  try {
    await writeFileAtomic(review.begin, `${JSON.stringify(full, null, 2)}\n`);
  } catch (error) {
    // The ref goes back to what begin.json still says, so the two never disagree.
    await repo.git.run(
      pinned ? ['update-ref', BEGIN_REF, pinned, record.tree] : ['update-ref', '-d', BEGIN_REF, record.tree],
    );
    throw error;
  }
  // The shared pin an earlier Involut made for this worktree's previous --begin: only while it still names it.
  if (before) await repo.git.tryRun(['update-ref', '-d', SHARED_BEGIN_REF, before.tree]);
  return full;
}

/** The numbers of the round folders in `.review/rounds/`, ascending, finished or not. */
async function roundFolders(review: ReviewDir): Promise<number[]> {
  const names = await readdir(roundsDir(review)).catch(() => [] as string[]);
  return names
    .filter((name) => /^[1-9]\d*$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** The finished rounds (their material written whole), ascending. */
export async function finishedRounds(review: ReviewDir): Promise<number[]> {
  const all = await roundFolders(review);
  const done = await Promise.all(all.map((n) => exists(keptMaterial(review, n))));
  return all.filter((_, i) => done[i]);
}

/** What a finished round compared (its `round.json`), or null when it does not say. */
export async function readRound(review: ReviewDir, n: number): Promise<RoundRecord | null> {
  const record = await readJsonOrNull(recordFile(review, n));
  return isRoundRecord(record) ? record : null;
}

/** The last finished round, the one "since the last round" compares with. */
export async function lastFinishedRound(review: ReviewDir): Promise<RoundRecord | null> {
  const done = await finishedRounds(review);
  for (const n of done.reverse()) {
    const record = await readRound(review, n);
    if (record) return record;
  }
  return null;
}

/**
 * Holds `.review/.rounds.lock` while a round is captured, so rounds of one repository run one
 * after the other and material.json is always the newest finished round. The lock appears
 * whole, holding its process number (written aside, then linked into place), so a round
 * never reads it half written. A lock left by a process that is gone is taken over; a live
 * one is waited for (`onWait` is told once), up to `patienceMs`, then the round gives up
 * with one sentence.
 */
export async function lockRounds(
  review: ReviewDir,
  onWait: (pid: number) => void,
  patienceMs = 120_000,
): Promise<() => Promise<void>> {
  const lock = path.join(review.dir, '.rounds.lock');
  const mine = `${lock}.${process.pid}.tmp`;
  const started = Date.now();
  let told = false;
  // The process number and its start time: a number given again to another process is not the holder.
  await writeFile(mine, `${process.pid} ${processStart(process.pid) ?? ''}\n`);
  try {
    for (;;) {
      if (await linkNew(mine, lock)) return () => rm(lock, { force: true });
      const holder = await lockHolder(lock);
      if (holder !== null && !isSameProcessAlive(holder.pid, holder.start)) {
        await takeOver(lock, holder.pid, mine);
        continue;
      }
      if (Date.now() - started > patienceMs) {
        throw new InvolutError(
          'round-running',
          `Another \`involut rounds\` or \`involut prune\` (process ${holder?.pid}) has held ${lock} for ${Math.round(patienceMs / 1000)} s; wait for it, or stop that process (kill ${holder?.pid}) and run this again.`,
        );
      }
      if (!told && holder !== null) {
        onWait(holder.pid);
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await rm(mine, { force: true });
  }
}

/** A rejection handler that answers `value` for one error code and passes any other on. */
const onCode =
  <T>(code: string, value: T) =>
  (error: NodeJS.ErrnoException): T | Promise<never> =>
    error.code === code ? value : Promise.reject(error);

/** Links `from` as `to` unless `to` exists; a link appears whole and refuses a name already taken. */
const linkNew = (from: string, to: string) => link(from, to).then(() => true, onCode('EEXIST', false));

/**
 * The process number a lock holds (0 for one that names none) and the start time recorded
 * with it (null from an earlier Involut, or where there is no /proc); null when the lock
 * went meanwhile.
 */
async function lockHolder(lock: string): Promise<{ pid: number; start: string | null } | null> {
  const text = await readFile(lock, 'utf8').catch(onCode('ENOENT', null));
  if (text === null) return null;
  const [pidText, start] = text.trim().split(' ');
  const pid = Number(pidText);
  return { pid: Number.isInteger(pid) ? pid : 0, start: start && /^\d+$/.test(start) ? start : null };
}

/**
 * Removes a lock whose holder is gone. Moved aside first, so a round that took it over
 * meanwhile keeps its own: if what moved is not the dead holder's, it is linked back.
 */
async function takeOver(lock: string, dead: number, mine: string): Promise<void> {
  const aside = `${mine}.stale`;
  if (!(await rename(lock, aside).then(() => true, onCode('ENOENT', false)))) return; // taken over first
  try {
    if ((await lockHolder(aside))?.pid !== dead) await linkNew(aside, lock);
  } finally {
    await rm(aside, { force: true });
  }
}

/**
 * Removes what rounds stopped before they finished left behind: their folder, its
 * temporary files, and the ref they pinned; says whether there was such a round. Run under
 * the lock, so no round is under way.
 */
export async function removeUnfinished(repo: Repo, review: ReviewDir): Promise<boolean> {
  let removed = false;
  for (const n of await roundFolders(review)) {
    if (await exists(keptMaterial(review, n))) continue;
    const pinned = await readRound(review, n).catch(() => null);
    if (pinned) await repo.git.tryRun(['update-ref', '-d', roundRef(n), pinned.tree]);
    await rm(roundDir(review, n), { recursive: true, force: true });
    removed = true;
  }
  const leftovers = (await readdir(review.dir).catch(() => [] as string[])).filter((name) =>
    /^\.material\.json\..*\.tmp$/.test(name),
  );
  await Promise.all(leftovers.map((name) => rm(path.join(review.dir, name), { force: true })));
  // A before copy half written when its round was killed (`<name>.<pid>.tmp`): never one a round reads.
  const blobs = await readdir(review.blobs).catch(onCode('ENOENT', [] as string[]));
  const halfWritten = blobs.filter((name) => /\.\d+\.tmp$/.test(name));
  await Promise.all(halfWritten.map((name) => rm(path.join(review.blobs, name), { force: true })));
  return removed;
}

/** The numbers of the pinned round refs (`refs/involut/rounds/<n>`), every worktree's. */
export async function roundRefNumbers(repo: Repo): Promise<number[]> {
  const refs = await repo.git.run(['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/']);
  return refs
    .split('\n')
    .map((ref) => Number(ref.slice('refs/involut/rounds/'.length)))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * The next round number: one past every round folder and every pinned round ref, so a
 * pinned tree is never moved (worktrees of one repository share refs) and a kept round
 * is never written over.
 */
export async function nextRoundNumber(review: ReviewDir, pinned: number[]): Promise<number> {
  return Math.max(0, ...(await roundFolders(review)), ...pinned) + 1;
}

/**
 * Claims round `n` for `record.tree`: makes its folder and writes `round.json` (so a round
 * stopped from here on is found and cleared by the next), then pins the tree as
 * `refs/involut/rounds/<n>` only if no ref has that name; another worktree may have taken
 * the number meanwhile: then the folder goes again and the answer is `false`.
 */
export async function claimRound(repo: Repo, review: ReviewDir, record: RoundRecord): Promise<boolean> {
  const ref = roundRef(record.round);
  // Not synced: only a later round reads it, to clear this one if it never finished.
  await mkdir(roundDir(review, record.round), { recursive: true });
  await writeFile(recordFile(review, record.round), `${JSON.stringify(record, null, 2)}\n`);
  try {
    await repo.git.run(['update-ref', ref, record.tree, '']);
    return true;
  } catch (error) {
    await rm(roundDir(review, record.round), { recursive: true, force: true });
    if (await repo.git.tryRun(['rev-parse', '--verify', '--quiet', ref])) return false;
    throw error;
  }
}

/**
 * Keeps `.review/cards.json`, byte for byte, beside the material of the last round finished
 * before `round`: the cards written for that round, so an earlier card can be told from a
 * new one. A copy already kept is never written over; no cards.json, nothing is kept.
 * Returns the file written, or null. Run under the rounds' lock, once `round` is claimed.
 */
export async function keepCards(review: ReviewDir, round: number): Promise<string | null> {
  const previous = (await finishedRounds(review)).filter((n) => n < round).at(-1);
  if (previous === undefined) return null;
  const kept = keptCards(review, previous);
  const temporary = `${kept}.${process.pid}.tmp`;
  try {
    await copyFile(review.cards, temporary);
    // A link appears whole and refuses a name already taken; a file system without links gets an exclusive copy.
    await linkOrCopy(temporary, kept, constants.COPYFILE_EXCL);
    return kept;
  } catch (error) {
    // No cards.json: nothing to keep; a copy already kept: never written over.
    if (['ENOENT', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Undoes a claim whose round failed: its folder and its ref (only while the ref still names its tree). */
export async function releaseRound(repo: Repo, review: ReviewDir, record: RoundRecord): Promise<void> {
  await rm(roundDir(review, record.round), { recursive: true, force: true });
  await repo.git.tryRun(['update-ref', '-d', roundRef(record.round), record.tree]);
}

function isRoundRecord(value: unknown): value is RoundRecord {
  if (!isRecord(value)) return false;
  const { round, tree, head, base, at } = value;
  return (
    typeof round === 'number' &&
    Number.isInteger(round) &&
    round > 0 &&
    typeof tree === 'string' &&
    /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(tree) &&
    (head === null || typeof head === 'string') &&
    typeof base === 'string' &&
    typeof at === 'string'
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
