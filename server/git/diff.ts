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
  /** The hunks from the first `@@` to the end, exact bytes (empty when there is none). */
  hunks: Buffer;
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
 * (see `secondPathspecs`), and git matches every path against every pathspec.
 */
const MAX_SECOND_PATHS = 4000;
/** …and at most this many bytes of their paths (the command line's limit is far above). */
const MAX_SECOND_BYTES = 512 * 1024;

/**
 * The diff of `diffTrees`, with its patch work shared by two git processes when it is
 * big enough, so two cores make patches at once. One `git diff --raw -p` of the whole
 * round starts as always; once its change list is known, `splitAt` may name the change
 * where a second git, limited by literal pathspecs to the changes from there on (folders
 * holding only such changes, else their paths, both paths of a rename), takes over. The first git's patches are read up to that change,
 * then it is stopped; the second git's are read at the same time, by the caller.
 *
 * The second git must find exactly the same changes as the whole diff did for its
 * paths (same pairs, modes, ids and rename scores): rename detection over fewer paths
 * could pair differently. Its raw records are compared with the whole diff's before
 * anything of it is used; when they differ, it is stopped and the first git, still
 * running, gives every patch (`second` then yields nothing). So the files, and their
 * order, are always those of one whole diff.
 */
export async function splitDiff(
  repo: Repo,
  base: string,
  to: DiffTarget,
  splitAt: (changes: RawChange[]) => Promise<number | null>,
): Promise<SplitDiff> {
  const [sides, env] = 'tree' in to ? [[base, to.tree], {}] : [['--cached', base], to.cached];
  const diff = (pathspecs: string[]) => new PatchStream(repo.git.spawn([...DIFF_ARGS, ...sides, '--', ...pathspecs], env));
  const whole = diff(WITHOUT_REVIEW.slice(1));
  let part: PatchStream | null = null;
  const stop = () => {
    whole.stop();
    part?.stop();
  };
  try {
    const { records, changes } = await whole.header();
    const at = secondStart(changes, await splitAt(changes));
    if (at === null) {
      return { changes, first: readAll(whole, changes), second: null, stop };
    }
    // The whole diff is read only up to `at` now: what it makes past that, the second git
    // makes too, so little is read ahead (a full read-ahead was ~3 MB of patches made twice).
    whole.readAhead(SPLIT_READ_AHEAD_BYTES);
    const second = diff(secondPathspecs(changes, at));
    part = second;
    const verified = second.header().then(
      (header) => header.records.length === records.length - at && header.records.every((r, i) => r === records[at + i]),
      () => false,
    );
    void verified.then((same) => same || second.stop());
    const first = async function* (): AsyncGenerator<FileDiff> {
      yield* whole.files(changes, at);
      if (await verified) {
        whole.stop();
        return;
      }
      second.stop();
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

/**
 * Literal pathspecs that take in the changes from `at` on: each of their paths (both of a
 * rename) by its highest folder that holds no path of an earlier change, else by itself.
 * Every change under such a folder is one of them (the change list is complete), and a
 * handful of folders costs git less to match than thousands of paths.
 */
function secondPathspecs(changes: RawChange[], at: number): string[] {
  const paths = (c: RawChange) => (c.from === undefined ? [c.path] : [c.path, c.from]);
  const earlier = new Set<string>(); // the earlier changes' paths, and every folder above them
  for (const change of changes.slice(0, at)) {
    for (const file of paths(change)) {
      earlier.add(file);
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) earlier.add(file.slice(0, slash));
    }
  }
  const specs = new Set<string>();
  for (const change of changes.slice(at)) {
    for (const file of paths(change)) {
      let spec = file;
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
        const folder = file.slice(0, slash);
        if (!earlier.has(folder)) {
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

/** Counts added and deleted lines in hunk text. */
export function countLines(hunks: Buffer): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  let start = 0;
  while (start < hunks.length) {
    const first = hunks[start];
    if (first === 0x2b) additions++;
    else if (first === 0x2d) deletions++;
    const nl = hunks.indexOf(0x0a, start);
    if (nl === -1) break;
    start = nl + 1;
  }
  return { additions, deletions };
}

/** Hunk bytes as JSON can carry them: text, plus the exact bytes when they are not UTF-8. */
export function diffText(hunks: Buffer): { diff: string; diff_base64?: string } {
  // ASCII reads the same as Latin-1 or UTF-8; Latin-1 is a plain copy, several times faster.
  if (isAscii(hunks)) return { diff: hunks.toString('latin1') };
  if (isUtf8(hunks)) return { diff: hunks.toString('utf8') };
  return { diff: hunks.toString('utf8'), diff_base64: hunks.toString('base64') };
}
