import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from '../cli/errors';
import type { Repo } from './repo';

/** The folder git writes packs to (shared by every worktree: beside `gc.pid` in the common git folder). */
const packDir = (repo: Repo) => path.join(path.dirname(repo.gcPidFile), 'objects', 'pack');

/** The names of git's temporary packs (`tmp_pack_*`, `tmp_idx_*`) in the pack folder now. */
export async function temporaryPacks(repo: Repo): Promise<Set<string>> {
  const names = await readdir(packDir(repo)).catch((error: NodeJS.ErrnoException) =>
    // No pack folder yet: git makes it when it first packs, so there is nothing of git's to clear.
    error.code === 'ENOENT' ? [] : Promise.reject(error),
  );
  return new Set(names.filter((name) => /^tmp_(?:pack|idx|rev)_/.test(name)));
}

/**
 * Removes the temporary packs a failed `git add` left (a full disk stops it mid-pack, and
 * nothing of git's removes them): only those not there before it started, so another git
 * command's pack under way is never touched.
 */
export async function removeNewTemporaryPacks(repo: Repo, before: Set<string>): Promise<void> {
  const now = await temporaryPacks(repo);
  await Promise.all(
    [...now].filter((name) => !before.has(name)).map((name) => rm(path.join(packDir(repo), name), { force: true })),
  );
}

/** git's own words for a full disk, as the one sentence Involut says for it; the error as it was otherwise. */
export function diskFullInGit(repo: Repo, error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  if (!/Out of diskspace|No space left on device|Disk quota exceeded/i.test(message)) return error;
  return new InvolutError(
    'disk-full',
    `The disk holding ${path.dirname(packDir(repo))} is full (git could not write the round's objects); free some space and run the command again.`,
  );
}
