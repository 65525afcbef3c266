import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GitEnv } from './git';
import { addDirectly, type ChooseFirstPart, type DirectAdd } from './direct-add';
import type { PackView } from './object-pack';
import { readIndexFile, type IndexFile } from './index-file';
import { updatedEntries, writeIndexTree } from './index-tree';
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
 * that stores something new adds a pack (`addDirectly` writes one too, the same way),
 * which `git gc --auto` folds in (and compresses) like any other once there are more than
 * gc.autoPackLimit (50).
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

/** How many captures `addDirectly` staged (the others took one `git add --all`), for tests. */
export const captureStats = { direct: 0 };

/** The working state staged in a temporary index, before its tree is written. */
export interface CapturedIndex {
  /** The temporary index file. */
  file: string;
  /** The environment that points git at the temporary index (for `git diff --cached`). */
  env: GitEnv;
  /** What changed in the working tree and what the index held (see `DirectAdd`); null when one `git add --all` staged everything. */
  listing: Pick<DirectAdd, 'changed' | 'indexed' | 'attributes'> | null;
  /** Whether the real index holds files under `.review/`; null when not known. */
  reviewTracked: boolean | null;
  /** The size of each blob the capture read itself, by id (the others are asked of git). */
  blobSizes: Map<string, number>;
  /** The size of each staged file, as far as known (to weigh work; a missing path weighs nothing). */
  sizes(): Promise<Map<string, number>>;
  /** Writes the index's tree (see index-tree.ts) and returns its id. */
  writeTree(): Promise<string>;
  /** Removes the temporary index. */
  dispose(): Promise<void>;
}

/**
 * The first part of `captureTree`: the working state in a temporary index, staged by
 * `addDirectly` where it can, else by one `git add --all`. A diff of the base against this
 * index (`--cached`) is the diff against its tree, so it can start while the tree is being
 * written. `onAdding` is called once git is at work (again if the capture starts over with
 * one `git add`; not at all when it fails before), so a caller can wait for git to be under
 * way before it keeps the processor busy. The capture's packs are shown in `view` (see
 * `startPack`); `firstPart` may choose changes to stage before the others (see `FirstPart`).
 */
export async function captureIndex(repo: Repo, onAdding?: () => void, view?: PackView | null, firstPart?: ChooseFirstPart): Promise<CapturedIndex> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'involut-index-'));
  const dispose = () => rm(scratch, { recursive: true, force: true });
  const index = path.join(scratch, 'index');
  const env: GitEnv = { GIT_INDEX_FILE: index, ...view?.env };
  let direct: DirectAdd | null = null;
  try {
    await seedIndex(repo.indexFile, index);
    direct = await addDirectly(repo, addEnv(index), BULK_ADD, { onListing: onAdding, view, firstPart }).catch(async () => {
      await seedIndex(repo.indexFile, index); // start over from the real index (a file went while it was listed…)
      return null;
    });
    if (direct) captureStats.direct++;
    if (!direct) {
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
  // Read once, for both the sizes and the tree.
  let read: Promise<IndexFile | null> | null = null;
  const captured = () => (read ??= readIndexFile(index, repo.emptyTree.length / 2));
  const sizes = async () => {
    const recorded = new Map((await captured())?.entries.map((e) => [e.path, e.size]));
    for (const [file, size] of direct?.sizes ?? []) recorded.set(file, size);
    return recorded;
  };
  const packs = path.join(repo.objectsDir, 'pack');
  const hashBytes = repo.emptyTree.length / 2;
  const writeTree = async () => {
    const final = direct?.final;
    // The index after the capture, known without reading it when only the capture changed it.
    const building = final
      ? (() => {
          const { entries, changed } = updatedEntries(final.index.entries, final.updated(), final.removed);
          return writeIndexTree({ ...final.index, entries }, packs, hashBytes, changed);
        })()
      : captured().then((read) => writeIndexTree(read, packs, hashBytes));
    // The tree is named (and pinned) only once the objects under it are in the repository.
    const [written] = await Promise.all([building, direct?.durable]);
    return written ?? (await repo.git.run(['write-tree'], env)).trim();
  };
  const listing = direct && { changed: direct.changed, indexed: direct.indexed, attributes: direct.attributes };
  return { file: index, env, listing, reviewTracked: direct?.reviewTracked ?? null, blobSizes: direct?.blobSizes ?? new Map(), sizes, writeTree, dispose };
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
