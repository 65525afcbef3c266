import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { blobId, writeBlobPack, type PackedBlob } from './blob-pack';
import type { GitEnv } from './git';
import { readIndexFile, type IndexEntry } from './index-file';
import type { Repo } from './repo';

/**
 * What `git add --all` does to a temporary index, with the hashing done here: git lists
 * what changed (`ls-files --modified --others`), Involut reads each changed regular file,
 * computes its blob id and stores the blobs git lacks in one pack of its own (see
 * blob-pack.ts), and git records the entries (`update-index --index-info`). Node's SHA-1
 * is several times faster than the collision-detecting one git is built with, and git add
 * hashes every file twice (the object and the pack's checksum): on the bench's 2,000
 * files git add takes 0.3–0.45 s of one core, this a fraction of that.
 *
 * A file git would convert on its way in (a `filter`, `ident` or `working-tree-encoding`
 * attribute, or a carriage return that end-of-line settings may strip), anything that is
 * not a regular file (symlinks, submodules, nested repositories, a file that became a
 * folder), an unresolved conflict, and a file too big to hold in memory are left to
 * `git add --all` itself, named one by one. Where the index or the settings could make git
 * stage a file differently from its bytes and mode on disk (assume-unchanged or sparse
 * entries, a split index, core.fileMode or core.symlinks off, a file system that folds case
 * or composes Unicode, a shared repository, SHA-256 ids), this answers `null` and the
 * caller lets one `git add --all` do everything. Otherwise it answers the size of each file
 * it staged (entries written by update-index record no size). `addConfig` is the settings
 * of the `git add` for the files left to git; `onListing` is called once git is listing.
 */
export async function addDirectly(repo: Repo, env: GitEnv, addConfig: string[], onListing?: () => void): Promise<Map<string, number> | null> {
  if (process.platform === 'darwin' || process.platform === 'win32' || repo.emptyTree.length !== 40) return null;
  const listing = repo.git.runBytes(['ls-files', '-z', '--modified', '--others', '--exclude-standard'], env);
  const settings = repo.git.run(['config', '-z', '--get-regexp', SETTINGS], env).catch(() => '');
  const attributes = repo.git.start(['check-attr', '-z', '--stdin', ...CONVERTING, ...EOL], env);
  const existing = repo.git.start(['cat-file', '--buffer', '--batch-check=%(objectname) %(objecttype)'], env);
  const endQuestions = () => Promise.all([attributes.answer(), existing.answer()].map((answered) => answered.catch(() => {})));
  onListing?.();
  const [listed, config, index] = await Promise.all([listing, settings, readIndexFile(env.GIT_INDEX_FILE!, 20)]).catch(async (error: unknown) => {
    await endQuestions();
    throw error;
  });
  const paths = [...new Set(listed.toString('utf8').split('\0').filter((p) => p !== '' && !isReview(p)))];
  const core = gitSettings(config);
  if (!index || !usable(index.extensions, index.entries, core) || paths.some((p) => p.includes('\uFFFD'))) {
    await endQuestions();
    return null;
  }
  const entries = new Map<string, IndexEntry>();
  const byGit = new Set<string>();
  for (const entry of index.entries) {
    // git add --all resolves a conflict; its stages are git's to drop.
    if (entry.stage !== 0 && !isReview(entry.path)) byGit.add(entry.path);
    else entries.set(entry.path, entry);
  }
  const attributesOf = parseAttributes(await attributes.answer(nulList(paths)));
  const autocrlf = core.has('core.autocrlf') && gitBool(core.get('core.autocrlf')!) !== false;

  // Every changed regular file is read and hashed; what git must stage itself is named as it
  // is found. Whether the repository has a blob is asked as soon as its id is known.
  const staged: Staged[] = [];
  const removed: string[] = [];
  const asked = new Set<string>();
  const arena = new Arena();
  let adding: Promise<Buffer> | null = null;
  try {
    for (const file of paths) {
      const entry = entries.get(file);
      const attrs = attributesOf.get(file);
      if (byGit.has(file) || file.endsWith('/') || CONVERTING.some((a) => isSet(attrs?.get(a))) || (entry && entry.mode !== '100644' && entry.mode !== '100755')) {
        byGit.add(file.replace(/\/$/, ''));
        continue;
      }
      const found = readRegularFile(file, repo.root, arena);
      if (found === 'gone') {
        if (entry) removed.push(file);
      } else if (found === 'git' || (found.content.includes(CR) && (autocrlf || EOL.some((a) => attrs?.get(a) !== 'unspecified')))) {
        byGit.add(file); // end-of-line conversion may strip its carriage returns
      } else {
        const oid = blobId(found.content);
        staged.push({ path: file, mode: found.executable ? '100755' : '100644', oid, content: found.content });
        if (entry?.oid !== oid && !asked.has(oid)) {
          asked.add(oid);
          existing.ask(`${oid}\n`);
        }
      }
    }
    adding = byGit.size ? repo.git.runBytes(['--literal-pathspecs', 'add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], env, addConfig, nulList([...byGit])) : null;
    adding?.catch(() => {}); // awaited below
    // Blobs the repository lacks go into the pack (each once); those it has are only named.
    const known = new Set<string>();
    for (const line of (await existing.answer()).toString('latin1').split('\n')) {
      const [oid, type] = line.split(' ');
      if (oid && type === 'blob') known.add(oid);
    }
    const packed = new Map<string, PackedBlob>();
    for (const s of staged) if (asked.has(s.oid) && !known.has(s.oid)) packed.set(s.oid, s);
    // The pack is flushed to disk while git records the entries (write-tree, later, needs it in place).
    const placed = packed.size ? writeBlobPack(`${repo.objectsDir}/pack`, [...packed.values()]) : null;
    placed?.catch(() => {}); // awaited below
    await adding;
    const zero = '0'.repeat(40);
    const info = [
      ...staged.map((s) => `${s.mode} ${s.oid} 0\t${s.path}\0`),
      ...removed.map((file) => `0 ${zero}\t${file}\0`),
      // `.review/` leaves the capture whatever .gitignore says, tracked or not.
      ...index.entries.filter((e) => isReview(e.path)).map((e) => `0 ${zero}\t${e.path}\0`),
    ];
    const recorded = info.length ? repo.git.runBytes(['update-index', '-z', '--index-info'], env, [], Buffer.from(info.join(''))) : null;
    await Promise.all([recorded, placed].map((step) => step?.catch(() => {})));
    await Promise.all([recorded, placed]);
    return new Map(staged.map((s) => [s.path, s.content.length]));
  } catch (error) {
    await Promise.all([adding?.catch(() => {}), existing.answer().catch(() => {})]);
    throw error;
  }
}

interface Staged extends PackedBlob {
  path: string;
  mode: string;
}

/** Attributes under which git changes a file's bytes as it stores them. */
const CONVERTING = ['filter', 'ident', 'working-tree-encoding'];
/** Attributes under which git may turn CRLF into LF as it stores a file (so does core.autocrlf). */
const EOL = ['text', 'eol', 'crlf'];
/** The settings that decide whether `addDirectly` stages as git would. */
const SETTINGS = '^core\\.(filemode|symlinks|ignorecase|precomposeunicode|sharedrepository|autocrlf)$';

/** At most this many bytes of files are held at once; the files past it are left to git. */
const MAX_HELD_BYTES = 256 << 20;

/** Each path's attributes from `check-attr -z` output: `unspecified`, `unset`, `set` or a value. */
function parseAttributes(output: Buffer): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  const fields = output.toString('utf8').split('\0');
  for (let i = 0; i + 2 < fields.length; i += 3) {
    let attrs = found.get(fields[i]!);
    if (!attrs) found.set(fields[i]!, (attrs = new Map()));
    attrs.set(fields[i + 1]!, fields[i + 2]!);
  }
  return found;
}

const isSet = (value: string | undefined) => value !== undefined && value !== 'unspecified' && value !== 'unset';

/** `git config -z --get-regexp` output as a map; a key given with no `=` maps to null. */
function gitSettings(config: string): Map<string, string | null> {
  const settings = new Map<string, string | null>();
  for (const record of config.split('\0')) {
    if (!record) continue;
    const nl = record.indexOf('\n');
    settings.set(nl === -1 ? record : record.slice(0, nl), nl === -1 ? null : record.slice(nl + 1));
  }
  return settings;
}

/** Whether git stages every listed regular file exactly as its bytes and executable bit on disk. */
function usable(extensions: string[], entries: IndexEntry[], settings: Map<string, string | null>): boolean {
  if (extensions.some((signature) => signature === 'link' || signature === 'sdir')) return false;
  if (entries.some((e) => e.assumeValid || e.skipWorktree)) return false;
  const flag = (key: string, unset: boolean) => (settings.has(key) ? gitBool(settings.get(key)!) : unset);
  return (
    flag('core.filemode', true) === true &&
    flag('core.symlinks', true) === true &&
    flag('core.ignorecase', false) === false &&
    flag('core.precomposeunicode', false) === false &&
    flag('core.sharedrepository', false) === false
  );
}

/** A git boolean as git reads it (a key with no `=` is true); undefined for anything else. */
function gitBool(value: string | null): boolean | undefined {
  if (value === null) return true;
  const v = value.toLowerCase();
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (['false', 'no', 'off', ''].includes(v)) return false;
  return /^-?\d+$/.test(v) ? Number(v) !== 0 : undefined;
}

/**
 * A regular file's bytes and executable bit, read through one descriptor (so what is
 * hashed is what was checked): 'gone' when it no longer exists, 'git' when git must stage
 * it (not a regular file, no room left in the arena, or it changed size while read).
 */
function readRegularFile(file: string, root: string, arena: Arena): { content: Buffer; executable: boolean } | 'gone' | 'git' {
  let fd: number;
  try {
    fd = openSync(`${root}/${file}`, constants.O_RDONLY | constants.O_NOFOLLOW);
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
 * per file), up to MAX_HELD_BYTES in all; `null` once that is used up.
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

const CR = 0x0d;

function isReview(file: string): boolean {
  return file === '.review' || file.startsWith('.review/');
}

function nulList(paths: string[]): Buffer {
  return Buffer.from(paths.map((p) => `${p}\0`).join(''));
}
