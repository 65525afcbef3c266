import { isAscii, isUtf8 } from 'node:buffer';
import { DIFF_FLAGS, WITHOUT_REVIEW, type GitEnv } from './git';
import { parseRawRecords, PatchStream, READ_AHEAD_BYTES, SPLIT_READ_AHEAD_BYTES } from './patch-stream';
import type { Repo } from './repo';

/** One record of `git diff --raw`: what happened to one path between base and tree. */
export interface RawChange {
  /** A added, D deleted, M modified, R renamed, T type changed (file ⇄ symlink ⇄ submodule). */
  status: 'A' | 'D' | 'M' | 'R' | 'T';
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  path: string;
  /** The old path of a rename. */
  from?: string;
}

/** A raw change with its patch text, as git printed it. */
export interface FileDiff {
  change: RawChange;
  binary: boolean;
  /** The hunks from the first `@@` to the end, exact bytes, in the pieces git's output came in (none when there is no hunk). */
  hunks: Buffer[];
}

export const ZERO_OID = /^0+$/;
const DIFF_ARGS = ['diff', ...DIFF_FLAGS, '--raw', '-p', '-z', '-M', '--no-abbrev'];

/**
 * Runs one `git diff --raw -p -z -M` between base and tree and yields each file's
 * change with its patch, in git's order, holding at most one file's patch in memory.
 * `onChanges` receives the whole change list before the first patch is yielded, so
 * per-file facts (sizes, attributes, commits) can be looked up in batches meanwhile.
 */
export async function* diffTrees(
  repo: Repo,
  base: string,
  tree: string,
  onChanges: (changes: RawChange[]) => Promise<void>,
): AsyncGenerator<FileDiff> {
  const stream = new PatchStream(repo.git.spawn([...DIFF_ARGS, base, tree, ...WITHOUT_REVIEW]));
  try {
    const { changes } = await stream.header();
    await onChanges(changes);
    yield* stream.files(changes);
    await stream.finish();
  } finally {
    stream.stop();
  }
}

/**
 * What the base is compared with: a tree, or the temporary index a capture staged (the
 * same changes as its tree's: `--cached`, so the diff need not wait for the tree).
 */
export type DiffTarget = { tree: string } | { cached: GitEnv };

/** The patches of a round in two parts, read at the same time; `second` is null when one git does it all. */
export interface SplitDiff {
  changes: RawChange[];
  first: AsyncGenerator<FileDiff>;
  second: AsyncGenerator<FileDiff> | null;
  /** Ends every git still running (after a failure). */
  stop(): void;
}

/**
 * At most this many changes go to the second git: each may need a pathspec of its own
 * (see `pathspecsFor`), and git matches every path against every pathspec.
 */
const MAX_SECOND_PATHS = 4000;
/** …and at most this many bytes of their paths (the command line's limit is far above). */
const MAX_SECOND_BYTES = 512 * 1024;

/**
 * How the patch work is shared: `early` gives the pathspecs of a second git started with
 * the first, before the changes are listed (see `earlySplit`), or is null; `at`, once the
 * changes are listed, says where a second git starts when none was started early or the
 * early one is not used, or null for no second git at all.
 */
export interface SplitChoice {
  early: string[] | null;
  at(changes: RawChange[]): Promise<number | null>;
}

/**
 * The diff of `diffTrees`, with its patch work shared by two git processes when it is
 * big enough, so two cores make patches at once. One `git diff --raw -p` of the whole
 * round starts as always, and a second git limited by literal pathspecs to the changes
 * from some point on (folders holding only such changes, else their paths, both paths of
 * a rename) takes over there: started with the first when the capture already knows what
 * changed (`early`), else (or when that one is not used) once the first has listed the
 * changes. The first git's patches
 * are read up to that change, then it is stopped; the second git's are read at the same
 * time, by the caller.
 *
 * The second git must find exactly the changes the whole diff lists from that point on
 * (same pairs, modes, ids and rename scores): rename detection over fewer paths could pair
 * differently, and pathspecs chosen before the listing could take in a change the capture
 * did not know of. Its raw records are compared with the whole diff's last ones before
 * anything of it is used; when they differ, it is stopped and the first git, still
 * running, gives every patch (`second` then yields nothing). So the files, and their
 * order, are always those of one whole diff.
 */
export async function splitDiff(repo: Repo, base: string, to: DiffTarget, choice: SplitChoice): Promise<SplitDiff> {
  const [sides, env] = 'tree' in to ? [[base, to.tree], {}] : [['--cached', base], to.cached];
  const diff = (pathspecs: string[]) => new PatchStream(repo.git.spawn([...DIFF_ARGS, ...sides, '--', ...pathspecs], env));
  const whole = diff(WITHOUT_REVIEW.slice(1));
  let part = choice.early && diff(choice.early);
  const stop = () => {
    whole.stop();
    part?.stop();
  };
  try {
    const { records, changes } = await whole.header();
    const wanted = await choice.at(changes);
    /** Where a second git's changes start in the whole list, when they are exactly its last ones; else null. */
    const tail = (second: PatchStream) =>
      second.header().then(
        (header) => {
          const start = records.length - header.records.length;
          return start > 0 && start < records.length && header.records.every((r, i) => r === records[start + i]) ? start : null;
        },
        () => null,
      );
    let start = part && wanted !== null ? await tail(part) : null;
    if (start !== null) splitStats.early++;
    let verified = Promise.resolve(true);
    if (start === null || part === null) {
      // No early second git, or it saw the round differently (a rename across its pathspecs,
      // a change the capture did not know of): one is started now, from the listed changes.
      part?.stop();
      part = null;
      start = secondStart(changes, wanted);
      if (start === null) return { changes, first: readAll(whole, changes), second: null, stop };
      const at = start;
      part = diff(pathspecsFor(changes.slice(0, at), changes.slice(at)));
      verified = tail(part).then((from) => from === at);
    }
    const [second, at] = [part, start];
    void verified.then((same) => same || second.stop());
    // The whole diff is read only up to the second's first change now: what it makes past
    // that, the second git makes too, so little is read ahead (a full read-ahead was ~3 MB
    // of patches made twice).
    whole.readAhead(SPLIT_READ_AHEAD_BYTES);
    const first = async function* (): AsyncGenerator<FileDiff> {
      yield* whole.files(changes, at);
      if (await verified) {
        whole.stop();
        return;
      }
      whole.readAhead(READ_AHEAD_BYTES);
      yield* whole.files(changes.slice(at));
      await whole.finish();
    };
    const rest = async function* (): AsyncGenerator<FileDiff> {
      if (!(await verified)) return;
      yield* second.files(changes.slice(at));
      await second.finish();
    };
    return { changes, first: first(), second: rest(), stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** How many diffs used a second git started early (see `splitDiff`), for tests. */
export const splitStats = { early: 0 };

/**
 * Pathspecs of a second git started before the changes are listed (see `splitDiff`): the
 * capture's `changed` paths are halved by `weights` (see `halfway`) at a path P, and the
 * pathspecs take in every path from P on that the index held or the capture listed
 * (staged changes it did not list included), and none before it: each by its
 * highest folder that holds no earlier path, else by itself. Null when the round is too
 * small to share or the pathspecs would be too many.
 */
export function earlySplit(changed: string[], weights: number[], indexed: string[], fromWeight: number): string[] | null {
  const order = changed.map((_, i) => i).sort((x, y) => compare(changed[x]!, changed[y]!));
  const half = halfway(order.map((i) => weights[i]!), fromWeight);
  if (half === null) return null;
  const from = changed[order[half]!]!;
  // Paths are contiguous by folder in this order, so a folder holds an earlier path exactly
  // when it holds the last one: the greatest path before P.
  let last = '';
  for (const file of [indexed, changed].flat()) if (compare(file, from) < 0 && compare(file, last) > 0) last = file;
  const specs = new Set<string>();
  // Each list is in order, so the paths a folder spec takes in follow it.
  for (const later of [indexed.filter((file) => compare(file, from) >= 0), order.slice(half).map((i) => changed[i]!)]) {
    let covered: string | null = null; // the folder the last spec took in, as `folder/`
    for (const file of later) {
      if (covered !== null && file.startsWith(covered)) continue;
      let spec = file;
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
        if (!last.startsWith(file.slice(0, slash + 1))) {
          spec = file.slice(0, slash);
          break;
        }
      }
      covered = spec === file ? null : `${spec}/`;
      specs.add(`:(top,literal)${spec}`);
      if (specs.size > MAX_SECOND_PATHS) return null;
    }
  }
  let bytes = 0;
  for (const spec of specs) bytes += Buffer.byteLength(spec) + 1;
  return bytes <= MAX_SECOND_BYTES ? [...specs] : null;
}

/** Git's order of paths (bytes); JavaScript's order of strings differs from it only beyond U+FFFF, where a mistake costs a fallback, never a wrong file. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Where the work is halved: the first index at which the weights before it reach half of
 * their total; null when the total is under `fromWeight` (a second git would not pay for
 * its start) or no such index leaves both halves something.
 */
export function halfway(weights: number[], fromWeight: number): number | null {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (weights.length < 2 || total < fromWeight) return null;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]!;
    if (sum >= total / 2) return i + 1 < weights.length ? i + 1 : null;
  }
  return null;
}

/**
 * Literal pathspecs that take in the `later` changes (both paths of a rename) and none of
 * the `earlier` ones: each later path by its highest folder that holds no earlier path,
 * else by itself. A handful of folders costs git less to match than thousands of paths.
 */
function pathspecsFor(earlier: RawChange[], later: RawChange[]): string[] {
  const paths = (c: RawChange) => (c.from === undefined ? [c.path] : [c.path, c.from]);
  const taken = new Set<string>(); // the earlier paths, and every folder above them
  for (const change of earlier) {
    for (const file of paths(change)) {
      taken.add(file);
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) taken.add(file.slice(0, slash));
    }
  }
  const specs = new Set<string>();
  for (const change of later) {
    for (const file of paths(change)) {
      let spec = file;
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
        const folder = file.slice(0, slash);
        if (!taken.has(folder)) {
          spec = folder;
          break;
        }
      }
      specs.add(spec);
    }
  }
  return [...specs].map((spec) => `:(top,literal)${spec}`);
}

async function* readAll(stream: PatchStream, changes: RawChange[]): AsyncGenerator<FileDiff> {
  yield* stream.files(changes);
  await stream.finish();
}

/** Where the second git starts: a change past the first, within the limits of a command line; null for none. */
function secondStart(changes: RawChange[], wanted: number | null): number | null {
  if (wanted === null || !Number.isInteger(wanted) || wanted <= 0 || wanted >= changes.length) return null;
  let at = Math.max(wanted, changes.length - MAX_SECOND_PATHS);
  let bytes = 0;
  for (let i = changes.length - 1; i >= at; i--) {
    const c = changes[i]!;
    bytes += Buffer.byteLength(c.path) + (c.from === undefined ? 0 : Buffer.byteLength(c.from)) + 32;
    if (bytes > MAX_SECOND_BYTES) {
      at = i + 1;
      break;
    }
  }
  return at < changes.length ? at : null;
}

/** Parses `--raw -z` records: `:<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0[<path>\0]`. */
export function parseRaw(raw: Buffer): RawChange[] {
  return parseRawRecords(raw).changes;
}

/** Counts added and deleted lines in hunk text, whole or in pieces. */
export function countLines(hunks: Uint8Array | Uint8Array[]): { additions: number; deletions: number } {
  const lines = newLineCounts();
  for (const piece of Array.isArray(hunks) ? hunks : [hunks]) countLinesOf(piece, lines);
  return { additions: lines.additions, deletions: lines.deletions };
}

/**
 * The lines of a diff's text that start with `+` and `-`, counted as it comes, maybe in
 * several pieces: `lineStart` says the next piece starts a line.
 */
export interface LineCounts {
  additions: number;
  deletions: number;
  lineStart: boolean;
}

export const newLineCounts = (): LineCounts => ({ additions: 0, deletions: 0, lineStart: true });

/** Adds one piece of a diff's text to `lines`, and returns them. */
export function countLinesOf(text: Uint8Array, lines: LineCounts): LineCounts {
  if (text.length === 0) return lines;
  let start = 0;
  if (!lines.lineStart) {
    const nl = text.indexOf(0x0a);
    start = nl === -1 ? text.length : nl + 1;
  }
  while (start < text.length) {
    if (text[start] === 0x2b) lines.additions++;
    else if (text[start] === 0x2d) lines.deletions++;
    const nl = text.indexOf(0x0a, start);
    if (nl === -1) break;
    start = nl + 1;
  }
  lines.lineStart = text[text.length - 1] === 0x0a;
  return lines;
}

/** Hunk bytes as JSON can carry them: text, plus the exact bytes when they are not UTF-8. */
export function diffText(pieces: Buffer[]): { diff: string; diff_base64?: string } {
  const hunks = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  // ASCII reads the same as Latin-1 or UTF-8; Latin-1 is a plain copy, several times faster.
  if (isAscii(hunks)) return { diff: hunks.toString('latin1') };
  if (isUtf8(hunks)) return { diff: hunks.toString('utf8') };
  return { diff: hunks.toString('utf8'), diff_base64: hunks.toString('base64') };
}
