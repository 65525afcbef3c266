import { constants } from 'node:fs';
import { copyFile, lstat, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Privacy } from './privacy';
import { isAlive } from '../review/process-alive';
import { pathFromGit, splitBytes } from '../git/path-bytes';
import type { Repo } from '../git/repo';
import { diskFullInGit, removeNewTemporaryPacks, temporaryPacks } from '../git/tmp-packs';
import { readWorkingState, type WorkingState } from '../git/working-state';

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
  /** The privacy rules: no path they withhold is handed to `git add` (see `keepWithheldOut`). */
  privacy: Promise<Privacy>;
  /** Also read what git status knows that the tree cannot show (a round's capture; see `readWorkingState`). */
  readWorking?: boolean;
}

/** What a capture wrote, and what it saw of the index on the way. */
export interface Captured {
  tree: string;
  /** Paths with a merge conflict in the index: the tree holds their working copy, markers and all. */
  conflicted: string[];
  /** What git status said, when asked for. */
  working: WorkingState | null;
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
 * never `.review/`, never a privacy-withheld file's working copy) as one git tree and
 * returns its id: `git add --all` into a temporary index seeded from the real one, then
 * `git write-tree`. The real index, HEAD, the branch and every working file stay untouched;
 * what git refuses fails the capture in git's words. `.review/` stays out through
 * `info/exclude` (see `excludeReview`, which runs first), or is taken out after `git add`:
 * naming it in a pathspec, even to exclude it, makes `git add` refuse when it is ignored.
 * A withheld path is never handed to `git add` (which would write its blob before anything
 * could take it out again), so the tree holds what the index already held for it, or nothing.
 */
export async function captureTree(
  repo: Repo,
  { reviewAdded, keepIndex = false, privacy, readWorking = false }: CaptureOptions,
): Promise<Captured> {
  const index = `${repo.scratchIndex}.${process.pid}`;
  // The real index, read beside git add: the temporary one starts as its copy.
  const seen = readIndex(repo, {});
  seen.catch(() => {}); // awaited in addAll, on every path
  // What keeps withheld paths out of git add, worked out while the temporary index is made.
  const keeping = privacy.then((rules) => keepWithheldOut(repo, rules, index));
  keeping.catch(() => {}); // awaited below, on every path
  try {
    return await addAll(repo, index, { seen, keeping, reviewAdded, keepIndex, privacy, readWorking });
  } finally {
    const file = await keeping.then(
      (kept) => kept.file,
      () => null,
    );
    if (file) await rm(file, { force: true });
  }
}

/** `git add --all` into the temporary index, then `git write-tree` (see `captureTree`). */
async function addAll(
  repo: Repo,
  index: string,
  {
    seen,
    keeping,
    reviewAdded,
    keepIndex,
    privacy,
    readWorking,
  }: Required<CaptureOptions> & { seen: Promise<IndexEntry[]>; keeping: Promise<KeptOut> },
): Promise<Captured> {
  // git's temporary packs before git add: one it leaves failing (a full disk) is removed, no other.
  const [, , packsBefore] = await Promise.all([
    removeLeftovers(repo.scratchIndex),
    seedIndex(repo.indexFile, index),
    temporaryPacks(repo),
  ]);
  const env = { GIT_INDEX_FILE: index };
  let working: Promise<WorkingState> | null = null;
  try {
    const rules = await privacy;
    const { specs, config } = await keeping;
    const add = () => repo.git.run(['add', '--all', '--', '.', ...specs], env, [...BULK_ADD, ...config]);
    const adding = add();
    working = readWorking ? seen.then((entries) => readWorkingState(repo, statusSpecs(rules, entries))) : null;
    working?.catch(() => {}); // awaited below
    const added = reviewAdded();
    added.catch(() => {}); // awaited below, once git add is done
    await adding;
    const entries = await seen;
    // Marked files are rare: git add runs once more for them, rather than waiting on the index read every round.
    if (await showHidden(repo, env, entries)) await add();
    if (await added)
      await repo.git.run(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ':(top).review'], env);
    const conflicted = [...new Set(entries.filter((e) => e.stage !== '0').map((e) => e.path))];
    await settleWithheldConflicts(repo, env, entries, rules.check);
    const tree = (await repo.git.run(['write-tree'], env)).trim();
    await (keepIndex ? keep(repo, index, tree) : rm(index, { force: true }));
    return { tree, conflicted, working: working ? await working : null };
  } catch (error) {
    await working?.catch(() => {});
    // git stopped half way may leave its lock beside the index.
    await Promise.all([
      rm(index, { force: true }),
      rm(`${index}.lock`, { force: true }),
      removeNewTemporaryPacks(repo, packsBefore),
    ]);
    throw diskFullInGit(repo, error);
  }
}

/** One index entry as `git ls-files -s -v` prints it. */
interface IndexEntry {
  /** `H` plain, `S` skip-worktree, `M` unmerged; lower case when marked assume-unchanged. */
  tag: string;
  mode: string;
  oid: string;
  stage: string;
  path: string;
}

/** Every entry of the (temporary) index with its flags: one git process, no file read. */
async function readIndex(repo: Repo, env: Record<string, string>): Promise<IndexEntry[]> {
  const out = await repo.git.runBytes(['ls-files', '-z', '-s', '-v'], env);
  return splitBytes(out, 0)
    .filter((field) => field.length > 0)
    .map((field) => {
      const tab = field.indexOf(9);
      const [tag = '', mode = '', oid = '', stage = ''] = field.subarray(0, tab).toString('latin1').split(' ');
      return { tag, mode, oid, stage, path: pathFromGit(field.subarray(tab + 1)).text };
    });
}

/**
 * Files marked assume-unchanged, or skip-worktree and present on disk, are files git add
 * would not look at however they were edited: the temporary index loses the marks, so the
 * capture sees their working copy as git status would without them. A skip-worktree file
 * absent from disk (a sparse checkout) keeps its mark: it is not deleted, only not there.
 */
async function showHidden(repo: Repo, env: Record<string, string>, entries: IndexEntry[]): Promise<boolean> {
  const marked = entries.filter((e) => e.stage === '0' && e.tag !== 'H');
  if (marked.length === 0) return false;
  const present = await Promise.all(
    marked.map(async (e) =>
      e.tag === 'h' ? true : (await lstat(path.join(repo.root, e.path)).catch(() => null)) !== null,
    ),
  );
  const shown = marked.filter((_, i) => present[i]);
  if (shown.length === 0) return false;
  // One mark per git update-index: given both, it applies only the last.
  for (const [flag, tags] of [
    ['--no-assume-unchanged', ['h', 's']],
    ['--no-skip-worktree', ['S', 's']],
  ] as const) {
    const paths = shown.filter((e) => (tags as readonly string[]).includes(e.tag)).map((e) => `${e.path}\0`);
    if (paths.length === 0) continue;
    await repo.git.run(['update-index', '-z', flag, '--stdin'], env, [], Buffer.from(paths.join('')));
  }
  return true;
}

/**
 * What git status needs to look at: the withheld paths (the privacy globs, turned from
 * exclusions into matches) and the submodules; everything when the globs are not git's.
 */
function statusSpecs({ excludes }: Privacy, entries: IndexEntry[]): string[] {
  if (!excludes) return [];
  const submodules = entries.filter((e) => e.mode === '160000').map((e) => `:(literal,top)${e.path}`);
  return [...excludes.map((spec) => spec.replace(':(exclude,', ':(')), ...submodules];
}

/** What keeps withheld paths out of `git add`: pathspecs, config, and the ignore file it names, if any. */
interface KeptOut {
  specs: string[];
  config: string[];
  file: string | null;
}

/**
 * Keeps every withheld path out of `git add`. Untracked ones are ignored through a
 * `core.excludesFile` of the user's own (kept as it was) followed by the privacy patterns;
 * tracked ones, which no ignore rule keeps out, are excluded by name: they are few, and git
 * lists them from its index by the same patterns (the privacy check of 100,000 entries in
 * JavaScript cost 0.3 s more CPU than git's 0.06 s). Sixteen glob pathspecs instead cost
 * every one of a repository's files sixteen matches: git add took half as long again on
 * 100,000 tracked files. A negation (`!pattern`) in `info/exclude` or any `.gitignore`, tracked or not, outranks the user's
 * ignore file and could take a withheld file back in: then the patterns go as pathspecs
 * after all. Patterns neither form can say make the withheld paths be listed first.
 */
async function keepWithheldOut(repo: Repo, rules: Privacy, index: string): Promise<KeptOut> {
  const { excludes, ignoreLines, check: checking } = rules;
  if (!excludes) return { specs: await listedWithheld(repo, checking), config: [], file: null };
  if (!ignoreLines) return { specs: excludes, config: [], file: null };
  const patterns = ignoreLines.filter((line) => !line.startsWith('!'));
  const [matched, untrackedIgnores, userFile, infoExclude] = await Promise.all([
    // Files in withheld folders too (an ignore pattern matches folders): the check below keeps only withheld files.
    repo.git.runBytes([
      'ls-files',
      '-z',
      '--cached',
      '--ignored',
      ...[...patterns, '.gitignore'].flatMap((p) => ['-x', p]),
    ]),
    // A .gitignore git does not track yet (a new folder) applies to git add as much as a tracked one.
    repo.git.runBytes(['ls-files', '-z', '--others', '--exclude-standard', '--', ':(glob,top)**/.gitignore']),
    userExcludesFile(repo),
    readIfThere(repo.excludeFile),
  ]);
  const paths = (bytes: Buffer) =>
    splitBytes(bytes, 0)
      .filter((field) => field.length > 0)
      .map((field) => pathFromGit(field).text);
  const tracked = paths(matched);
  const ignoreFiles = [
    ...tracked.filter((file) => file === '.gitignore' || file.endsWith('/.gitignore')),
    ...paths(untrackedIgnores),
  ];
  const texts = await Promise.all(ignoreFiles.map((file) => readIfThere(path.join(repo.root, file))));
  if ([infoExclude, ...texts].some((text) => /^\s*!/m.test(text))) return { specs: excludes, config: [], file: null };
  const check = await checking;
  const own = userFile ? await readIfThere(userFile) : '';
  // The user's own positive rules once more at the end: a folder they ignore stays ignored.
  const positive = own.split(/\r?\n/).filter((line) => !/^\s*!/.test(line));
  const file = `${index}.exclude`;
  await writeFile(file, [own, ...ignoreLines, ...positive, ''].join('\n'), { mode: 0o600 });
  return {
    specs: tracked.filter((file) => check(file) !== null).map((file) => `:(exclude,literal,top)${file}`),
    config: [`core.excludesFile=${file}`],
    file,
  };
}

/** The user's own ignore file, as git finds it: `core.excludesFile`, or the XDG default. */
async function userExcludesFile(repo: Repo): Promise<string | null> {
  const set = (await repo.git.tryRun(['config', '--path', '--get', 'core.excludesFile']))?.trim();
  if (set) return path.resolve(repo.root, set);
  const xdg = process.env.XDG_CONFIG_HOME;
  return path.join(xdg ? xdg : path.join(os.homedir(), '.config'), 'git', 'ignore');
}

/** An ignore file's text; none when it cannot be read, which is what git makes of it too (a warning at most). */
async function readIfThere(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}

/** For patterns git cannot read: each withheld path git would add, listed first, as an exclusion. */
async function listedWithheld(repo: Repo, checking: Promise<(file: string) => string | null>): Promise<string[]> {
  const check = await checking;
  const listed = await repo.git.runBytes(['ls-files', '-z', '--others', '--modified', '--exclude-standard']);
  return splitBytes(listed, 0)
    .filter((field) => field.length > 0)
    .map((field) => pathFromGit(field).text)
    .filter((file) => check(file) !== null)
    .map((file) => `:(exclude,literal,top)${file}`);
}

/**
 * A withheld path with a merge conflict was not added, so its stages would make write-tree
 * fail: it takes its own side's blob (stage 2, already in git), never the working copy.
 */
async function settleWithheldConflicts(
  repo: Repo,
  env: Record<string, string>,
  entries: IndexEntry[],
  checking: Promise<(file: string) => string | null>,
): Promise<void> {
  if (!entries.some((e) => e.stage !== '0')) return;
  const check = await checking;
  const stuck = entries.filter((e) => e.stage !== '0' && check(e.path) !== null);
  if (stuck.length === 0) return;
  const ours = new Map(stuck.filter((e) => e.stage === '2').map((e) => [e.path, e]));
  const lines = [...new Set(stuck.map((e) => e.path))].flatMap((file) => {
    const own = ours.get(file);
    // Mode 0 drops every stage of the path; a stage-0 entry then puts our side back.
    const drop = `0 ${'0'.repeat(stuck[0]!.oid.length)}\t${file}\0`;
    return own ? [drop, `${own.mode} ${own.oid}\t${file}\0`] : [drop];
  });
  await repo.git.run(['update-index', '-z', '--index-info'], env, [], Buffer.from(lines.join('')));
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
      const pid = Number(name.slice(prefix.length).replace(/\.(?:lock|exclude)$/, ''));
      if (pid === process.pid) return;
      const info = await stat(path.join(folder, name)).catch(() => null);
      if (!info || (Date.now() - info.mtimeMs < STALE_MS && isAlive(pid))) return;
      await rm(path.join(folder, name), { force: true });
    }),
  );
}
