import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import { blobId, startPack, type PackedObject, type PackView } from './object-pack';
import { Git, type GitEnv } from './git';
import { storedObjects } from './stored-objects';

/** One changed path to read: its path, and the blob id the index holds for it (a tracked file), else null. */
export interface FileJob {
  path: string;
  indexed: string | null;
}

/** A file read and hashed: its index mode, blob id and bytes. */
export interface HashedFile {
  path: string;
  mode: string;
  oid: string;
  content: Buffer;
}

/** What `readAndHash` found. */
export interface HashedFiles {
  files: HashedFile[];
  /** Tracked files no longer there. */
  gone: string[];
  /** Paths git must stage itself: not regular files, or past the bytes held at once. */
  leftToGit: string[];
  /** Of the blob ids asked about (those not in the index already), the ones the repository has. */
  stored: Promise<Set<string>>;
}

/** Where files are staged: the working tree, the object store, the temporary index's environment. */
export interface StagingPlace {
  root: string;
  objectsDir: string;
  env: GitEnv;
}

/**
 * Reads and hashes changed files into `arena` (synchronously, one descriptor each, letting
 * the event loop turn every few milliseconds so that gits started meanwhile are answered),
 * then looks up which of the new blobs the repository has already (see `storedAmong`).
 */
export async function readAndHash(place: StagingPlace, jobs: FileJob[], arena = new Arena()): Promise<HashedFiles> {
  const found: Omit<HashedFiles, 'stored'> = { files: [], gone: [], leftToGit: [] };
  const asked = new Set<string>();
  let turned = performance.now();
  for (const job of jobs) {
    const read = readRegularFile(`${place.root}/${job.path}`, arena);
    if (read === 'gone') {
      if (job.indexed !== null) found.gone.push(job.path);
    } else if (read === 'git') {
      found.leftToGit.push(job.path);
    } else {
      const oid = blobId(read.content);
      found.files.push({ path: job.path, mode: read.executable ? '100755' : '100644', oid, content: read.content });
      if (job.indexed !== oid) asked.add(oid);
    }
    if (performance.now() - turned > TURN_EVERY_MS) {
      await turn();
      turned = performance.now();
    }
  }
  const stored = storedAmong(place, [...asked]);
  stored.catch(() => {}); // awaited by the caller
  return { ...found, stored };
}

/** How long reading files may keep the event loop from turning. */
const TURN_EVERY_MS = 3;

/**
 * Which of the blob ids the repository has: read from its pack indexes and loose objects
 * (see stored-objects.ts), else asked of git (`cat-file --batch-check`).
 */
async function storedAmong(place: StagingPlace, oids: string[]): Promise<Set<string>> {
  if (oids.length === 0) return new Set();
  const known = storedObjects(place.objectsDir, oids);
  if (known) return known;
  const answer = await new Git(place.root).runBytes(['cat-file', '--buffer', '--batch-check=%(objectname) %(objecttype)'], place.env, [], Buffer.from(`${oids.join('\n')}\n`));
  const stored = new Set<string>();
  for (const line of answer.toString('latin1').split('\n')) {
    const [oid, type] = line.split(' ');
    if (oid && type === 'blob') stored.add(oid);
  }
  return stored;
}

/**
 * Stores, as one pack (see object-pack.ts), the blobs of `files` that the repository lacks:
 * not in the index already (`indexed`), nor among `stored`. `readable` resolves once gits
 * given `view` can read them, `placed` once the pack is in the repository (see `startPack`).
 */
export function storeMissing(
  place: StagingPlace,
  files: HashedFile[],
  indexed: (file: string) => string | null,
  stored: Set<string>,
  view?: PackView | null,
): { readable: Promise<void>; placed: Promise<void> } {
  const missing = new Map<string, PackedObject>();
  for (const file of files) {
    if (indexed(file.path) !== file.oid && !stored.has(file.oid)) missing.set(file.oid, file);
  }
  if (missing.size === 0) return { readable: Promise.resolve(), placed: Promise.resolve() };
  let pack: ReturnType<typeof startPack>;
  try {
    pack = startPack(`${place.objectsDir}/pack`, [...missing.values()], view?.dir);
  } catch (error) {
    // Met where the promises are awaited, after whatever runs alongside has ended.
    pack = { readable: Promise.reject(error), placed: Promise.reject(error) };
    pack.readable.catch(() => {});
  }
  const placed = pack.placed.then(() => {});
  placed.catch(() => {}); // awaited by the caller, unless the capture failed already
  return { readable: pack.readable, placed };
}

/**
 * A regular file's bytes and executable bit, read through one descriptor (so what is
 * hashed is what was checked): 'gone' when it no longer exists, 'git' when git must stage
 * it (not a regular file, no room left in the arena, or it shrank while read).
 */
function readRegularFile(file: string, arena: Arena): { content: Buffer; executable: boolean } | 'gone' | 'git' {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'gone' : 'git';
  }
  try {
    const stat = fstatSync(fd);
    const content = stat.isFile() ? arena.take(stat.size) : null;
    if (!content) return 'git';
    // The bytes its size says, as git add reads them (a file still being written is caught as it stood).
    let at = 0;
    while (at < content.length) {
      const n = readSync(fd, content, at, content.length - at, at);
      if (n === 0) return 'git';
      at += n;
    }
    return { content, executable: (stat.mode & 0o100) !== 0 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Room for the files read, handed out from slabs of 16 MiB (one allocation per slab, not
 * per file), up to MAX_HELD_BYTES in all; `null` once that is used up (the file is then
 * left to git). Files read in several calls of `readAndHash` share one.
 */
export class Arena {
  private slab = Buffer.alloc(0);
  private used = 0;
  private held = 0;

  take(size: number): Buffer | null {
    if (this.held + size > MAX_HELD_BYTES) return null;
    this.held += size;
    if (size > this.slab.length - this.used) {
      this.slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, size));
      this.used = 0;
    }
    this.used += size;
    return this.slab.subarray(this.used - size, this.used);
  }
}

const SLAB_BYTES = 16 << 20;
/** At most this many bytes of files are held at once. */
const MAX_HELD_BYTES = 128 << 20;
