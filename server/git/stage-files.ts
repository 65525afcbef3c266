import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { blobId, writeBlobPack, type PackedBlob } from './blob-pack';
import { Git, type GitEnv } from './git';

/** One changed path for `stageFiles`, as git's listing and attributes described it. */
export interface FileJob {
  path: string;
  /** The blob id the index holds for it (a tracked file), else null. */
  indexed: string | null;
  /** Whether git's end-of-line settings may strip carriage returns from it. */
  eolMayConvert: boolean;
}

/** What `stageFiles` did with its files. */
export interface StagedPart {
  /** Files read and hashed, their blobs stored: each with its index mode, blob id and size. */
  staged: Array<{ path: string; mode: string; oid: string; size: number }>;
  /** Tracked files no longer there. */
  gone: string[];
  /** Files git must stage itself (not a regular file, a carriage return git may strip…). */
  byGit: string[];
}

/** Where `stageFiles` works: the working tree, the object store, the temporary index's environment. */
export interface StagingPlace {
  root: string;
  objectsDir: string;
  env: GitEnv;
}

/**
 * Reads and hashes changed files and stores the blobs the repository lacks as one pack
 * (see blob-pack.ts), resolving once the pack is in place. Whether git has a blob is asked
 * (`cat-file --batch-check`) as soon as its id is known, while the next files are read.
 */
export async function stageFiles(place: StagingPlace, jobs: FileJob[]): Promise<StagedPart> {
  const existing = new Git(place.root).start(['cat-file', '--buffer', '--batch-check=%(objectname) %(objecttype)'], place.env);
  const read: PackedBlob[] = [];
  const part: StagedPart = { staged: [], gone: [], byGit: [] };
  const asked = new Set<string>();
  const arena = new Arena();
  try {
    for (const job of jobs) {
      const found = readRegularFile(`${place.root}/${job.path}`, arena);
      if (found === 'gone') {
        if (job.indexed !== null) part.gone.push(job.path);
      } else if (found === 'git' || (job.eolMayConvert && found.content.includes(CR))) {
        part.byGit.push(job.path);
      } else {
        const oid = blobId(found.content);
        part.staged.push({ path: job.path, mode: found.executable ? '100755' : '100644', oid, size: found.content.length });
        if (job.indexed !== oid && !asked.has(oid)) {
          asked.add(oid);
          existing.ask(`${oid}\n`);
          read.push({ oid, content: found.content });
        }
      }
    }
  } catch (error) {
    await existing.answer().catch(() => {});
    throw error;
  }
  // Blobs the repository lacks go into the pack (each once); those it has are only named.
  const known = new Set<string>();
  for (const line of (await existing.answer()).toString('latin1').split('\n')) {
    const [oid, type] = line.split(' ');
    if (oid && type === 'blob') known.add(oid);
  }
  const missing = read.filter((blob) => !known.has(blob.oid));
  if (missing.length) await writeBlobPack(`${place.objectsDir}/pack`, missing);
  return part;
}

const CR = 0x0d;

/**
 * A regular file's bytes and executable bit, read through one descriptor (so what is
 * hashed is what was checked): 'gone' when it no longer exists, 'git' when git must stage
 * it (not a regular file, no room left in the arena, or it changed size while read).
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
    let at = 0;
    while (at < content.length) {
      const n = readSync(fd, content, at, content.length - at, at);
      if (n === 0) return 'git';
      at += n;
    }
    if (readSync(fd, ONE_BYTE, 0, 1, at) !== 0) return 'git';
    return { content, executable: (stat.mode & 0o100) !== 0 };
  } finally {
    closeSync(fd);
  }
}

const ONE_BYTE = Buffer.alloc(1);

/**
 * Room for the files read, handed out from slabs of 16 MiB (one allocation per slab, not
 * per file), up to MAX_HELD_BYTES in all; `null` once that is used up (the file is then
 * left to git).
 */
class Arena {
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
