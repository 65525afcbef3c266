import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GitEnv } from './git';
import { readIndexFile } from './index-file';
import { planAddSplit, splitOf, type AddSplit } from './split-add';
import type { Repo } from './repo';

/**
 * Makes `git add` store the blobs it writes in one pack instead of one loose file each.
 * Files over `core.bigFileThreshold` are streamed into the pack `git add` keeps open
 * for the whole command (its "bulk check-in"); with the threshold at 1 byte that is
 * every changed file. On a round of 2,000 changed files this takes 0.4 s instead of
 * 2.2 s, nearly all of the difference being the kernel creating 2,000 files and up to
 * 256 folders. Blob and tree ids are the same either way (content addressed), files
 * that need conversion (eol, filters, ident) still take git's usual path, and the
 * settings last for this one command. `pack.compression=0` stores the blobs deflated
 * at level 0 (still zlib, so every git reads them): compressing is most of what the
 * command spends beyond reading and hashing the files (user CPU 0.33 s → 0.24 s on the
 * bench's 2,000 files), and a capture's pack is written once and rarely read. Each capture
 * that stores something new adds one pack (two when its `git add` is split in two, see
 * `addInTwo`), which `git gc --auto` folds in (and compresses) like any other once there
 * are more than gc.autoPackLimit (50).
 */
const BULK_ADD = ['core.bigFileThreshold=1', 'pack.compression=0'];

/**
 * The environment of the capture's `git add`: its temporary index, and glibc told not to
 * hand freed memory back to the kernel below 64 MiB. git add sets up and frees zlib's
 * ~260 KiB of buffers for every file it stores; by default glibc gives that memory back
 * each time (its trim threshold is 128 KiB), so the next file faults it in and clears it
 * again: on the bench's 2,000 files, 0.16-0.23 s of system time that falls to 0.05-0.10 s
 * (wall 0.42-0.58 s → 0.31-0.45 s). Only how git's memory is managed changes, never what
 * it writes; C libraries other than glibc ignore the variable, and settings the user's
 * own GLIBC_TUNABLES make come after ours, so they win.
 */
function addEnv(index: string): GitEnv {
  const ours = 'glibc.malloc.trim_threshold=67108864';
  const theirs = process.env.GLIBC_TUNABLES;
  return { GIT_INDEX_FILE: index, GLIBC_TUNABLES: theirs ? `${ours}:${theirs}` : ours };
}

/**
 * Writes the whole working state (indexed, unstaged and untracked non-ignored files,
 * never `.review/`) as one git tree and returns its id. Only a temporary index seeded
 * from the real one is written: the real index, HEAD, the branch and every working
 * file stay untouched.
 */
export async function captureTree(repo: Repo): Promise<string> {
  const captured = await captureIndex(repo);
  try {
    return await captured.writeTree();
  } finally {
    await captured.dispose();
  }
}

/** The working state staged in a temporary index, before its tree is written. */
export interface CapturedIndex {
  /** The temporary index file. */
  file: string;
  /** The environment that points git at the temporary index (for `git diff --cached`). */
  env: GitEnv;
  /** Writes the index's tree (trees are written as loose objects) and returns its id. */
  writeTree(): Promise<string>;
  /** Removes the temporary index. */
  dispose(): Promise<void>;
}

/**
 * The first part of `captureTree`: the working state in a temporary index. A diff of the
 * base against this index (`--cached`) is the diff against its tree, so it can start while
 * the tree is being written. `onAdding` is called once `git add` runs (again if a capture
 * in two halves falls back to one git; not at all when the capture fails before), so a
 * caller can wait for git to be under way before it keeps the processor busy.
 */
export async function captureIndex(repo: Repo, onAdding?: () => void): Promise<CapturedIndex> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'involut-index-'));
  const dispose = () => rm(scratch, { recursive: true, force: true });
  const index = path.join(scratch, 'index');
  const env = { GIT_INDEX_FILE: index };
  try {
    await seedIndex(repo.indexFile, index);
    const split = await planSplit(repo, path.join(scratch, 'index-2'));
    // Split in two, `.review/` is left out as the halves are put together.
    if (!(split && (await addInTwo(repo, index, split, onAdding)))) {
      if (split) await seedIndex(repo.indexFile, index); // start over from the real index
      // No pathspec here: naming `.review` (even to exclude it) makes git refuse when it is ignored.
      const adding = repo.git.run(['add', '--all'], addEnv(index), BULK_ADD);
      onAdding?.();
      await adding;
      // `.review/` leaves the capture whatever .gitignore says, tracked or not.
      await repo.git.run(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ':(top).review'], env);
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { file: index, env, writeTree: async () => (await repo.git.run(['write-tree'], env)).trim(), dispose };
}

/**
 * When `git add` is cut in two (see `planAddSplit`): a round whose index records fewer
 * bytes (plus `perFile` a file) than `fromBytes` takes one git. An object, so that tests
 * can force either way and count the captures that were split (`splits`).
 */
export const addSettings = { fromBytes: 8 << 20, perFile: 4096, maxSubtrees: 64, splits: 0 };

interface PlannedSplit extends AddSplit {
  /** The second temporary index, seeded like the first. */
  other: string;
}

/**
 * Plans a capture in two halves from the real index: the subtrees of `planAddSplit`,
 * minus any that git ignores (naming an ignored path makes `git add` fail). One git
 * does it all where the index is split or sparse, or where the file system may fold
 * case or compose Unicode: there git may stage a path under another spelling, which
 * could belong to the other half.
 */
async function planSplit(repo: Repo, other: string): Promise<PlannedSplit | null> {
  if (process.platform === 'darwin' || process.platform === 'win32') return null;
  const real = await readIndexFile(repo.indexFile, repo.emptyTree.length / 2);
  if (!real || real.extensions.some((signature) => signature === 'link' || signature === 'sdir')) return null;
  const planned = planAddSplit(real.entries, addSettings);
  if (!planned) return null;
  const checks = await Promise.all([
    // --no-index: a folder that holds tracked files is still named in the answer when ignored.
    repo.git.runBytes(['check-ignore', '--no-index', '-z', '--stdin'], {}, [], Buffer.from(planned.subtrees.map((p) => `${p}\0`).join(''))),
    repo.git.run(['config', '--type=bool', '-z', '--get-regexp', '^core\\.(ignorecase|precomposeunicode)$']),
    seedIndex(repo.indexFile, other),
  ]).catch(() => null);
  if (!checks || checks[1].includes('\ntrue\0')) return null;
  const ignored = new Set(checks[0].toString('utf8').split('\0'));
  const subtrees = planned.subtrees.filter((p) => !ignored.has(p));
  return subtrees.length ? { ...splitOf(subtrees), other } : null;
}

/**
 * Stages the working state with two `git add --all` at once, one per half, each into its
 * own copy of the real index, then moves the second half's entries into the first index
 * (`update-index --index-info`: its entries there are dropped, the other index's put in,
 * but for `.review/`).
 * Every path is staged by exactly one git from the same starting index, so the index, and
 * its tree, are those one `git add --all` gives. `false` when a git failed (an ignored path,
 * a sparse entry…): the caller starts over with one git.
 */
async function addInTwo(repo: Repo, index: string, split: PlannedSplit, onAdding?: () => void): Promise<boolean> {
  const env = { GIT_INDEX_FILE: index };
  const otherEnv = { GIT_INDEX_FILE: split.other };
  const adding = [
    repo.git.run(['add', '--all', '--', ...split.first], addEnv(index), BULK_ADD),
    repo.git.run(['add', '--all', '--', ...split.second], addEnv(split.other), BULK_ADD),
  ];
  onAdding?.();
  const added = await Promise.allSettled(adding);
  if (added.some((result) => result.status === 'rejected')) return false;
  try {
    const [gone, taken] = await Promise.all([
      repo.git.runBytes(['ls-files', '-z', '--', ...split.second], env),
      repo.git.runBytes(['ls-files', '-s', '-z', '--', ...split.second], otherEnv),
    ]);
    const removal = Buffer.from(`0 ${'0'.repeat(repo.emptyTree.length)}\t`);
    const info: Buffer[] = [];
    for (const file of new Set(records(gone).map((p) => p.toString('latin1')))) info.push(removal, Buffer.from(file, 'latin1'), NUL);
    // `.review` is never one of the subtrees, so all of it is in the second half: its entries
    // stay out, as `git rm -r --cached .review` would leave them (whatever .gitignore says).
    for (const entry of records(taken)) if (!isReview(entry.subarray(entry.indexOf(TAB) + 1))) info.push(entry, NUL);
    await repo.git.runBytes(['update-index', '-z', '--index-info'], env, [], Buffer.concat(info));
  } catch {
    return false;
  }
  addSettings.splits++;
  return true;
}

const NUL = Buffer.from([0]);
const TAB = 0x09;
const REVIEW = Buffer.from('.review');

function isReview(file: Buffer): boolean {
  return file.equals(REVIEW) || (file.length > REVIEW.length && file[REVIEW.length] === 0x2f && file.subarray(0, REVIEW.length).equals(REVIEW));
}

/** The NUL-ended records of `-z` output, as bytes. */
function records(output: Buffer): Buffer[] {
  const found: Buffer[] = [];
  for (let at = 0; at < output.length; ) {
    const end = output.indexOf(0, at);
    if (end === -1) break;
    if (end > at) found.push(output.subarray(at, end));
    at = end + 1;
  }
  return found;
}

/**
 * Copies the real index with its timestamps. git trusts an entry's cached stat data
 * unless the entry is as new as the index file itself ("racy clean"); a copy with a
 * fresh mtime would make a same-size edit right after a commit invisible.
 */
async function seedIndex(real: string, temporary: string): Promise<void> {
  const info = await stat(real).catch(() => null);
  if (!info) return; // no commits and nothing staged: git starts from an empty index
  await copyFile(real, temporary);
  await utimes(temporary, info.atime, info.mtime);
}
