import { constants } from 'node:fs';
import { copyFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from '../process-alive';
import type { Repo } from './repo';
import { diskFullInGit, removeNewTemporaryPacks, temporaryPacks } from './tmp-packs';

/**
 * Makes `git add` store the blobs it writes in one pack instead of one loose file each.
 * Files over `core.bigFileThreshold` are streamed into the pack `git add` keeps open for
 * the whole command (its "bulk check-in"); with the threshold at 1 byte that is every
 * changed file: 0.4 s instead of 2.2 s for 2,000 new files, nearly all of the difference
 * being the kernel creating 2,000 files. Blob ids are the same either way, files that
 * need conversion (eol, filters, ident) still take git's usual path, and
 * `pack.compression=0` leaves the compressing to the next `git gc`, which folds the
 * capture's pack in like any other.
 */
export const BULK_ADD = ['core.bigFileThreshold=1', 'pack.compression=0'];

/** A temporary index older than this is a leftover whatever its process number says. */
const STALE_MS = 60 * 60 * 1000;

export interface CaptureOptions {
  /**
   * Whether `git add --all` stages files under `.review/` (see `reviewInCapture`); they are
   * taken out again. Asked once git add is under way, so git add is the capture's first process.
   */
  reviewAdded: () => Promise<boolean>;
  /** Keep the temporary index as the tree's `capturedIndex`, for freshness checks (a round's capture). */
  keepIndex?: boolean;
}

/**
 * The index a round's capture wrote, kept beside the real one: its entries hold the stat data
 * of the files as they were captured, so git can tell whether the working state moved on
 * by reading only (see `movedSince`). One is kept per worktree, the last round's.
 */
export function capturedIndex(repo: Repo, tree: string): string {
  return path.join(path.dirname(repo.scratchIndex), `${CAPTURED}${tree}`);
}
const CAPTURED = 'involut-captured.';

/** Removes the index a capture kept, when its round did not happen after all. */
export async function forgetCapturedIndex(repo: Repo, tree: string): Promise<void> {
  await rm(capturedIndex(repo, tree), { force: true });
}

/**
 * Writes the whole working state (indexed, unstaged and untracked non-ignored files,
 * never `.review/`) as one git tree and returns its id: `git add --all` into a temporary
 * index seeded from the real one, then `git write-tree`. The real index, HEAD, the branch
 * and every working file stay untouched; what git refuses fails the capture in git's words.
 * `.review/` stays out through `info/exclude` (see `excludeReview`, which runs first), or is
 * taken out after `git add`: naming it in a pathspec, even to exclude it, makes `git add`
 * refuse when it is ignored.
 */
export async function captureTree(repo: Repo, { reviewAdded, keepIndex = false }: CaptureOptions): Promise<string> {
  const index = `${repo.scratchIndex}.${process.pid}`;
  // git's temporary packs before git add: one it leaves failing (a full disk) is removed, no other.
  const [, , packsBefore] = await Promise.all([
    removeLeftovers(repo.scratchIndex),
    seedIndex(repo.indexFile, index),
    temporaryPacks(repo),
  ]);
  const env = { GIT_INDEX_FILE: index };
  try {
    const adding = repo.git.run(['add', '--all'], env, BULK_ADD);
    const added = reviewAdded();
    added.catch(() => {}); // awaited below, once git add is done
    await adding;
    if (await added)
      await repo.git.run(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ':(top).review'], env);
    const tree = (await repo.git.run(['write-tree'], env)).trim();
    await (keepIndex ? keep(repo, index, tree) : rm(index, { force: true }));
    return tree;
  } catch (error) {
    // git stopped half way may leave its lock beside the index.
    await Promise.all([
      rm(index, { force: true }),
      rm(`${index}.lock`, { force: true }),
      removeNewTemporaryPacks(repo, packsBefore),
    ]);
    throw diskFullInGit(repo, error);
  }
}

async function keep(repo: Repo, index: string, tree: string): Promise<void> {
  const folder = path.dirname(repo.scratchIndex);
  const earlier = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.startsWith(CAPTURED));
  await Promise.all(earlier.map((name) => rm(path.join(folder, name), { force: true })));
  await rename(index, capturedIndex(repo, tree));
}

/**
 * Copies the real index with its timestamps. git trusts an entry's cached stat data
 * unless the entry is as new as the index file itself ("racy clean"); a copy with a
 * fresh mtime would make a same-size edit right after a commit invisible.
 */
async function seedIndex(real: string, temporary: string): Promise<void> {
  const info = await stat(real).catch(() => null);
  if (!info) return; // no commits and nothing staged: git starts from an empty index
  await copyFile(real, temporary, constants.COPYFILE_FICLONE); // a clone where the file system can, else a copy
  await utimes(temporary, info.atime, info.mtime);
}

/** Temporary indexes of captures that were stopped before they could remove them (Ctrl-C, a kill). */
async function removeLeftovers(base: string): Promise<void> {
  const folder = path.dirname(base);
  const prefix = `${path.basename(base)}.`;
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(name.slice(prefix.length).replace(/\.lock$/, ''));
      if (pid === process.pid) return;
      const info = await stat(path.join(folder, name)).catch(() => null);
      if (!info || (Date.now() - info.mtimeMs < STALE_MS && isAlive(pid))) return;
      await rm(path.join(folder, name), { force: true });
    }),
  );
}
