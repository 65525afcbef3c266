import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { LISTING, SETTINGS, takeEarly } from './early';
import { UNFLUSHED, type GitEnv } from './git';
import { readIndexFile, type IndexEntry, type IndexFile } from './index-file';
import type { PackView } from './object-pack';
import type { Repo } from './repo';
import { Arena, readAndHash, storeMissing, type FileJob, type HashedFile } from './stage-files';

/** What `addDirectly` staged. */
export interface DirectAdd {
  /** The size of each file staged here (entries written by update-index record no size). */
  sizes: Map<string, number>;
  /** …and of each blob staged here, by id. */
  blobSizes: Map<string, number>;
  /** Every path git listed as changed, with its size as far as known (else as the index had it, else 0). */
  changed: Array<{ path: string; size: number }>;
  /** Every path of the index before the capture, in its order (with `changed`, every path of the index after). */
  indexed: string[];
  /** Whether the index held files under `.review/` (they are left out of the capture). */
  reviewTracked: boolean;
  /** The attributes of every path listed in `changed` (a path with none has no entry), as `check-attr --all` gives them. */
  attributes: Map<string, Map<string, string>>;
  /**
   * The index before the capture and what the capture changed in it, so that the index
   * after can be known without reading it again; null when git staged some files itself.
   */
  final: { index: IndexFile; updated: () => IndexEntry[]; removed: string[] } | null;
  /**
   * Resolves once the objects stored here are in the repository, flushed to disk; until then
   * only gits given the capture's pack view read them (see `startPack`).
   */
  durable: Promise<void>;
}

/**
 * Changes the capture stages before the others, so that work on them can start while the
 * rest is read: `takes` says which changed paths they are, and `staged` is called once
 * every one of them is in the temporary index (`env`) and its objects can be read (through
 * the capture's pack view). The capture stages them first only when it can stage them all
 * itself.
 */
export interface FirstPart {
  takes(file: string): boolean;
  staged(env: GitEnv): void;
}

/** Chooses a `FirstPart` from the changed paths (sizes as the index had them, else 0) and the paths of the index; null for none. */
export type ChooseFirstPart = (changed: Array<{ path: string; size: number }>, indexed: string[]) => FirstPart | null;

/**
 * What `git add --all` does to a temporary index, with the hashing done by Involut: git
 * lists what changed (`ls-files --modified --others`), stage-files.ts reads each changed
 * regular file, computes its blob id and stores the blobs git lacks as a pack of its own,
 * and git records the entries (`update-index --index-info`). git add runs the
 * collision-detecting SHA-1 over every file twice (for the blob, and again in its pack's
 * checksum): on the bench's 2,000 files it takes 0.3–0.45 s of a core, where OpenSSL's
 * SHA-1 and the rest of stage-files.ts take about 0.1 s. (Sharing the files with a `git add`
 * on the other core was tried: at eight times the cost per file, git only took cores the
 * round's diff needed.)
 *
 * A file git would convert on its way in (a `filter`, `ident` or `working-tree-encoding`
 * attribute, or a carriage return that end-of-line settings may strip), anything that is
 * not a regular file (symlinks, submodules, nested repositories, a file that became a
 * folder), an unresolved conflict, and a file too big to hold in memory are left to
 * `git add --all` itself, named one by one. Where the index or the settings could make git
 * stage a file differently from its bytes and mode on disk (assume-unchanged or sparse
 * entries, a split index, core.fileMode or core.symlinks off, a file system that folds case
 * or composes Unicode, a shared repository, SHA-256 ids), this answers `null` and the
 * caller lets one `git add --all` do everything. Otherwise it answers what it staged (see
 * `DirectAdd`). `addConfig` is the settings of the `git add` for the files left to git;
 * `onListing` is called once git is listing; `view` is the pack view the capture's packs
 * are shown in; `firstPart` may choose changes to stage first (see `FirstPart`).
 */
export async function addDirectly(
  repo: Repo,
  env: GitEnv,
  addConfig: string[],
  { onListing, view, firstPart }: { onListing?: () => void; view?: PackView | null; firstPart?: ChooseFirstPart } = {},
): Promise<DirectAdd | null> {
  if (process.platform === 'darwin' || process.platform === 'win32' || repo.emptyTree.length !== 40) return null;
  const listing = takeEarly('listing', repo.root).then((early) => early ?? repo.git.runBytes(LISTING, env));
  const settings = takeEarly('settings', repo.root)
    .then((early) => early ?? repo.git.runBytes(['config', '-z', '--get-regexp', SETTINGS], env))
    .then((config) => config.toString('utf8'), () => '');
  // `--all`: only the attributes a path has are written, nothing at all where none applies.
  const attributes = repo.git.start(['check-attr', '-z', '--stdin', '--all'], { ...env, ...UNFLUSHED });
  onListing?.();
  const [listed, config, index] = await Promise.all([listing, settings, readIndexFile(env.GIT_INDEX_FILE!, 20)]).catch(async (error: unknown) => {
    await attributes.answer().catch(() => {});
    throw error;
  });
  const paths = [...new Set(listed.toString('utf8').split('\0').filter((p) => p !== '' && !isReview(p)))];
  const core = gitSettings(config);
  if (!index || !usable(index.extensions, index.entries, core) || paths.some((p) => p.includes('\uFFFD'))) {
    await attributes.answer().catch(() => {});
    return null;
  }
  const entries = new Map<string, IndexEntry>();
  const byGit = new Set<string>();
  for (const entry of index.entries) {
    // git add --all resolves a conflict; its stages are git's to drop.
    if (entry.stage !== 0 && !isReview(entry.path)) byGit.add(entry.path);
    else entries.set(entry.path, entry);
  }
  // Attributes are looked up while the files are read: the few a filter, an encoding or an
  // end-of-line conversion concerns are set aside for git afterwards.
  const attributesOf = attributes.answer(nulList(paths)).then(parseAttributes);
  attributesOf.catch(() => {}); // awaited below
  const jobs: FileJob[] = [];
  for (const file of paths) {
    const entry = entries.get(file);
    if (byGit.has(file) || file.endsWith('/') || (entry && entry.mode !== '100644' && entry.mode !== '100755')) byGit.add(file.replace(/\/$/, ''));
    else jobs.push({ path: file, indexed: entry?.oid ?? null });
  }
  const place = { root: repo.root, objectsDir: repo.objectsDir, env };
  const autocrlf = core.has('core.autocrlf') && gitBool(core.get('core.autocrlf')!) !== false;
  const converted = (file: HashedFile, of: Map<string, string> | undefined) =>
    CONVERTING.some((a) => isSet(of?.get(a))) || (file.content.includes(CR) && (autocrlf || EOL.some((a) => of?.has(a))));
  const indexedOid = (file: string) => entries.get(file)?.oid ?? null;
  // `.review/` leaves the capture whatever .gitignore says, tracked or not.
  const review = index.entries.filter((e) => isReview(e.path)).map((e) => e.path);
  const chosen = firstPart?.(paths.map((file) => ({ path: file, size: entries.get(file)?.size ?? 0 })), index.entries.map((e) => e.path)) ?? null;
  const part = chosen && ![...byGit].some((file) => chosen.takes(file)) ? chosen : null;
  // The files are read, hashed and stored here, the part's first; the ones git must convert are left to it.
  const arena = new Arena();
  const staged: HashedFile[] = [];
  const gone: string[] = [];
  const packs: Array<{ readable: Promise<void>; placed: Promise<void> }> = [];
  let attrs = new Map<string, Map<string, string>>();
  /** The part's entries, recorded on their own (`staged` and `gone` begin with them), or null. */
  let partRecorded: { done: Promise<void>; files: number; gone: number } | null = null;
  const groups = part ? [jobs.filter((job) => part.takes(job.path)), jobs.filter((job) => !part.takes(job.path))] : [jobs];
  for (const [number, group] of groups.entries()) {
    const hashed = await readAndHash(place, group, arena);
    for (const file of hashed.leftToGit) byGit.add(file);
    let stored: Set<string>;
    [attrs, stored] = await Promise.all([attributesOf, hashed.stored]);
    const kept = hashed.files.filter((file) => !(converted(file, attrs.get(file.path)) && byGit.add(file.path)));
    if (part !== null && number === 0 && ![...byGit].some((file) => part.takes(file))) {
      // All of the part is in hand: git records it (ids, without reading their objects) while
      // its objects are stored, and it is staged once both are done.
      const done = recordEntries(repo, env, entryInfo(kept, [...hashed.gone, ...review]));
      done.catch(() => {}); // awaited below
      partRecorded = { done, files: kept.length, gone: hashed.gone.length };
      const packed = storeMissing(place, kept, indexedOid, stored, view);
      packs.push(packed);
      Promise.all([done, packed.readable]).then(
        () => part.staged({ ...env, ...view?.env }),
        () => {},
      );
    } else {
      packs.push(storeMissing(place, kept, indexedOid, stored, view));
    }
    staged.push(...kept);
    gone.push(...hashed.gone);
  }
  // Git stages what is left to it into the same index, then every other entry staged here is
  // recorded (git records ids without reading their objects), while the last pack is written.
  const recorded = (async () => {
    await partRecorded?.done; // one git writes the index at a time
    if (byGit.size) await addByGit(repo, env, addConfig, [...byGit]);
    const [files, removed] = partRecorded ? [staged.slice(partRecorded.files), gone.slice(partRecorded.gone)] : [staged, [...gone, ...review]];
    const info = entryInfo(files, removed);
    if (info.length) await recordEntries(repo, env, info);
  })();
  recorded.catch(() => {}); // awaited below
  for (const done of await Promise.allSettled([...packs.map((p) => p.readable), recorded])) if (done.status === 'rejected') throw done.reason;
  const durable = Promise.all(packs.map((p) => p.placed)).then(() => {});
  durable.catch(() => {}); // awaited by whoever names the tree
  // What is kept of the files read: not their bytes, which may go now.
  const stagedEntries = staged.map(({ path, mode, oid, content }) => ({ path, mode, oid, size: content.length }));
  const sizes = new Map(stagedEntries.map((s) => [s.path, s.size]));
  return {
    sizes,
    blobSizes: new Map(stagedEntries.map((s) => [s.oid, s.size])),
    changed: paths.map((file) => ({ path: file, size: sizes.get(file) ?? entries.get(file)?.size ?? 0 })),
    indexed: index.entries.map((e) => e.path),
    reviewTracked: review.length > 0,
    attributes: attrs,
    durable,
    final: byGit.size
      ? null
      : {
          index,
          // Made when the tree is built, after the diff has started; in the fields' order of
          // readIndexFile's entries (one shape for all: a spread would copy slowly, into another).
          updated: () =>
            stagedEntries.map((s) => ({
              path: s.path,
              rawPath: Buffer.from(s.path, 'utf8').toString('latin1'),
              mode: s.mode,
              oid: s.oid,
              stage: 0,
              size: s.size,
              skipWorktree: false,
              assumeValid: false,
              intentToAdd: false,
            })),
          removed: [...gone, ...review].map((file) => Buffer.from(file, 'utf8').toString('latin1')),
        },
  };
}

/** `update-index --index-info` input that stages `files` and removes the `removed` paths. */
function entryInfo(files: HashedFile[], removed: string[]): Buffer {
  const zero = '0'.repeat(40);
  return Buffer.from([...files.map((s) => `${s.mode} ${s.oid} 0\t${s.path}\0`), ...removed.map((file) => `0 ${zero}\t${file}\0`)].join(''));
}

/**
 * `update-index --index-info` of `info` into the temporary index, given as a file next to
 * it, which git reads whole while node goes on (see `Git.runBytes`).
 */
async function recordEntries(repo: Repo, env: GitEnv, info: Buffer): Promise<void> {
  const file = `${env.GIT_INDEX_FILE!}.info`;
  writeFileSync(file, info);
  const fd = openSync(file, 'r');
  try {
    await repo.git.runBytes(['update-index', '-z', '--index-info'], env, [], { fd });
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

/** `git add --all` of the given paths (literally, read from stdin), into the temporary index. */
function addByGit(repo: Repo, env: GitEnv, addConfig: string[], paths: string[]): Promise<Buffer> {
  return repo.git.runBytes(['--literal-pathspecs', 'add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], env, addConfig, nulList(paths));
}

/** Attributes under which git changes a file's bytes as it stores them. */
const CONVERTING = ['filter', 'ident', 'working-tree-encoding'];
/** Attributes under which git may turn CRLF into LF as it stores a file (so does core.autocrlf). */
const EOL = ['text', 'eol', 'crlf'];

/** Each path's attributes from `check-attr -z --all` output: `unset`, `set` or a value (an attribute not given is unspecified). */
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

const CR = 0x0d;
const isSet = (value: string | undefined) => value !== undefined && value !== 'unset';

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

function isReview(file: string): boolean {
  return file === '.review' || file.startsWith('.review/');
}

function nulList(paths: string[]): Buffer {
  return Buffer.from(paths.map((p) => `${p}\0`).join(''));
}
