import { constants, readFileSync, renameSync } from 'node:fs';
import {
  access,
  copyFile,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  stat,
} from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from '../cli/errors';

/** The `.review/` folder of a repository and the files in it. */
export interface ReviewDir {
  dir: string;
  material: string;
  cards: string;
  notes: string;
  blobs: string;
  /** Emitter-owned: the base recorded by `involut rounds --begin`. */
  begin: string;
  /** The last valid notes.json the server read, to put back when notes.json breaks. */
  notesLastGood: string;
}

export function reviewDir(root: string): ReviewDir {
  const dir = path.join(root, '.review');
  return {
    dir,
    material: path.join(dir, 'material.json'),
    cards: path.join(dir, 'cards.json'),
    notes: path.join(dir, 'notes.json'),
    blobs: path.join(dir, 'blobs'),
    begin: path.join(dir, 'begin.json'),
    notesLastGood: path.join(dir, 'notes.last-good.json'),
  };
}

/**
 * Refuses, with one sentence, a `.review` that Involut must not read, write or serve
 * through: `.review` itself or anything under it being a symbolic link, or `.review`
 * resolving outside the repository at `root`. A missing `.review` is fine (it is made
 * later, as a plain folder). Every command and the server call this before they touch
 * `.review/`; the server checks each file again as it reads it (`assertNoLinks`).
 */
export async function assertReviewDirSafe(root: string): Promise<ReviewDir> {
  const review = reviewDir(root);
  const info = await lstat(review.dir).catch(() => null);
  if (!info) return review;
  if (info.isSymbolicLink()) throw await linkRefusal(review.dir, '.review');
  const [realRoot, realReview] = await Promise.all([realpath(root), realpath(review.dir)]);
  if (realReview !== path.join(realRoot, '.review')) {
    throw new InvolutError(
      'review-unsafe',
      `.review resolves to ${realReview}, outside the repository ${realRoot}; Involut writes only inside the repository's own .review/, so move it back and run the command again.`,
    );
  }
  if (info.isDirectory()) await refuseLinksUnder(review.dir, '.review');
  return review;
}

/** Refuses when `.review`, or any path from it down to `file` (inside it), is a symbolic link. */
export async function assertNoLinks(review: ReviewDir, file: string): Promise<void> {
  const parts = path
    .relative(review.dir, file)
    .split(path.sep)
    .filter((part) => part !== '');
  let at = review.dir;
  for (const part of ['', ...parts]) {
    at = part === '' ? at : path.join(at, part);
    const info = await lstat(at).catch(() => null);
    if (!info) return;
    if (info.isSymbolicLink()) throw await linkRefusal(at, path.join('.review', path.relative(review.dir, at)));
  }
}

async function refuseLinksUnder(folder: string, shown: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isSymbolicLink()) throw await linkRefusal(full, `${shown}/${entry.name}`);
    if (entry.isDirectory()) await refuseLinksUnder(full, `${shown}/${entry.name}`);
  }
}

async function linkRefusal(file: string, shown: string): Promise<InvolutError> {
  const target = await readlink(file).catch(() => '?');
  return new InvolutError(
    'review-unsafe',
    `${shown} is a symbolic link (to ${target}); Involut reads and writes only the repository's own .review/, so replace the link with a plain folder or file and run the command again.`,
  );
}

/** Fails, before anything is written, when `.review` cannot hold the round. */
export async function assertWritable(review: ReviewDir): Promise<void> {
  const info = await stat(review.dir).catch(() => null);
  if (info && !info.isDirectory()) {
    throw new InvolutError(
      'review-not-folder',
      `${review.dir} exists but is not a folder; move it away so Involut can create .review/ there.`,
    );
  }
  const target = info ? review.dir : path.dirname(review.dir);
  try {
    await access(target, constants.W_OK);
  } catch {
    throw new InvolutError(
      'review-not-writable',
      `${target} is not writable; fix its permissions so Involut can write .review/.`,
    );
  }
}

/**
 * Writes a whole file through a temporary name and a rename, so no reader sees half of it,
 * and syncs the file and its folder before returning, so what was acknowledged survives a
 * power loss.
 */
export async function writeFileAtomic(file: string, data: string | Buffer, mode?: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = await writeTemporary(file, data, mode);
  try {
    await commitTemporary(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes `data` to a new temporary file beside `file`, synced to disk; returns its path.
 * With `mode`, the file gets exactly that mode (whatever the umask), so the rename keeps
 * the shape of the file it replaces.
 */
export async function writeTemporary(file: string, data: string | Buffer, mode?: number): Promise<string> {
  const temporary = temporaryName(file);
  const handle = await open(temporary, 'wx', mode ?? 0o644);
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close(); // a close that fails fails the write
  } catch (error) {
    // The first failure is the one to tell: closing again (a no-op when it was the close that failed) cannot add to it.
    await handle.close().catch(() => {});
    await rm(temporary, { force: true });
    throw error;
  }
  return temporary;
}

/**
 * Gives `from` the second name `to` (a hard link); where the file system cannot link there
 * (another device, no hard links, too many links), copies it instead, with `copyMode`
 * (`COPYFILE_EXCL` to refuse a name already taken, as a link does). Any other failure (a
 * full disk, an I/O error, a name taken) is the caller's.
 */
export async function linkOrCopy(from: string, to: string, copyMode = 0): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if (!CANNOT_LINK.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    await copyFile(from, to, copyMode);
  }
}
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Renames a synced temporary file onto `file` and syncs the folder, so the rename itself is on disk. */
async function commitTemporary(temporary: string, file: string): Promise<void> {
  await rename(temporary, file);
  await syncFolder(path.dirname(file));
}

/**
 * Renames a synced temporary file onto `file` only while `file` still holds `expected`
 * (null: missing), then syncs the folder; false, with nothing renamed, when it changed.
 * The last read, the compare and the rename run back to back with no await between them,
 * so another process's rename can slip in only during one small synchronous read, not
 * across thread-pool hops. `onRename` runs right before the rename, in the same turn.
 */
export async function commitTemporaryIfUnchanged(
  temporary: string,
  file: string,
  expected: Buffer | null,
  onRename: () => void = () => {},
): Promise<boolean> {
  const now = readBytesSync(file);
  if (now === null || expected === null ? now !== expected : !now.equals(expected)) return false;
  onRename();
  renameSync(temporary, file);
  await syncFolder(path.dirname(file));
  return true;
}

function readBytesSync(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads and parses a JSON file; `null` when it is missing or does not parse. */
export async function readJsonOrNull(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

let temporaries = 0;

function temporaryName(file: string): string {
  temporaries += 1;
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.${temporaries}.tmp`);
}
