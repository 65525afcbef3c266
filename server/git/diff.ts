import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import type { FirstPart } from './direct-add';
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
/** The change list alone: the raw records of DIFF_ARGS, without a patch. */
const LIST_ARGS = ['diff', ...DIFF_FLAGS, '--raw', '-z', '-M', '--no-abbrev'];

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
  const stream = PatchStream.piped(repo.git.spawn([...DIFF_ARGS, base, tree, ...WITHOUT_REVIEW]));
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
 * At most this many pathspecs go to a git that makes part of the patches (see
 * `pathspecsFor`, `earlySplit`): git matches every path against every pathspec.
 */
const MAX_PATHSPECS = 4000;
/** …and at most this many bytes of them (the command line's limit is far above). */
const MAX_PATHSPEC_BYTES = 512 * 1024;

/**
 * How the patch work is shared: `early` is a git started during the capture for the
 * changes before the path `from` (see `EarlyPart`), or null; `at`, once the changes are
 * listed, says where a second git starts when none was started early, or null for no
 * second git at all (an early one is then not used either).
 */
export interface SplitChoice {
  early: { stream: PatchStream; from: string } | null;
  at(changes: RawChange[]): Promise<number | null>;
}

/**
 * The diff of `diffTrees`, with its patch work shared by two git processes when it is
 * big enough, so two cores make patches at once; `first` yields the patches of the
 * changes up to some point, `second` those of the rest, both read at the same time by
 * the caller. Whatever the split, the files, and their order, are those of one whole diff.
 *
 * With a git started during the capture (`early`, limited by pathspecs to the changes
 * before a path), the changes are listed by a git that makes no patch (`--raw` alone,
 * a few milliseconds), and a second git makes the patches from that path on
 * (`--skip-to`: it pairs renames over the whole round, as the listing does). The early
 * git's records must be exactly the listing's first ones: rename detection over fewer
 * paths could pair differently, and pathspecs chosen before the listing could take in a
 * change the capture did not know of. They are compared once it is done; when they
 * differ, a whole diff makes the first part's patches instead.
 *
 * Otherwise one `git diff --raw -p` of the whole round starts as always, and once it has
 * listed the changes a second git, limited by literal pathspecs to the changes from `at`
 * on (folders holding only such changes, else their paths, both paths of a rename), takes
 * over there: the first git's patches are read up to that change, then it is stopped. The
 * second git's raw records are compared with the whole diff's last ones before anything
 * of it is used; when they differ, it is stopped and the first git, still running, gives
 * every patch (`second` then yields nothing).
 */
export async function splitDiff(repo: Repo, base: string, to: DiffTarget, choice: SplitChoice): Promise<SplitDiff> {
  const [sides, env] = 'tree' in to ? [[base, to.tree], {}] : [['--cached', base], to.cached];
  const diff = (pathspecs: string[], options: string[] = []) => PatchStream.piped(repo.git.spawn([...DIFF_ARGS, ...options, ...sides, '--', ...pathspecs], env));
  if (choice.early) return splitEarly(choice.early, choice, diff, () => PatchStream.piped(repo.git.spawn([...LIST_ARGS, ...sides, ...WITHOUT_REVIEW], env)));
  const whole = diff(WITHOUT_REVIEW.slice(1));
  let part: PatchStream | null = null;
  const stop = () => {
    whole.stop();
    part?.stop();
  };
  try {
    const { records, changes } = await whole.header();
    const start = secondStart(changes, await choice.at(changes));
    if (start === null) return { changes, first: readAll(whole, changes), second: null, stop };
    const second = diff(pathspecsFor(changes.slice(0, start), changes.slice(start)));
    part = second;
    const verified = sameRecords(second, records, start);
    void verified.then((same) => same || second.stop());
    // The whole diff is read only up to the second's first change now: what it makes past
    // that, the second git makes too, so little is read ahead (a full read-ahead was ~3 MB
    // of patches made twice).
    whole.readAhead(SPLIT_READ_AHEAD_BYTES);
    const first = async function* (): AsyncGenerator<FileDiff> {
      yield* whole.files(changes, start);
      if (await verified) {
        whole.stop();
        return;
      }
      whole.readAhead(READ_AHEAD_BYTES);
      yield* whole.files(changes.slice(start));
      await whole.finish();
    };
    const rest = async function* (): AsyncGenerator<FileDiff> {
      if (!(await verified)) return;
      yield* second.files(changes.slice(start));
      await second.finish();
    };
    return { changes, first: first(), second: rest(), stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Whether a stream's records are exactly `records` from `from` on, to the end (or `count` of them). */
function sameRecords(stream: PatchStream, records: string[], from: number, count = records.length - from): Promise<boolean> {
  return stream.header().then(
    (header) => header.records.length === count && header.records.every((r, i) => r === records[from + i]),
    () => false,
  );
}

/** The `early` way of `splitDiff`: the listing, the early git's part, and the rest by a git that skips to it. */
async function splitEarly(
  early: { stream: PatchStream; from: string },
  choice: SplitChoice,
  diff: (pathspecs: string[], options?: string[]) => PatchStream,
  list: () => PatchStream,
): Promise<SplitDiff> {
  const started: PatchStream[] = [early.stream];
  const start = (make: () => PatchStream) => {
    const stream = make();
    started.push(stream);
    return stream;
  };
  const stop = () => {
    for (const stream of started) stream.stop();
  };
  try {
    const listing = start(list);
    // The rest starts at once: it prints nothing before `from`, so it waits for nothing.
    const rest = start(() => diff(WITHOUT_REVIEW.slice(1), [`--skip-to=${early.from}`]));
    const { records, changes } = await listing.header();
    await listing.finish();
    const at = (await choice.at(changes)) === null ? -1 : changes.findIndex((change) => change.path === early.from);
    if (at <= 0) {
      // One git for everything after all (a small round, or the part's first path is not a change).
      early.stream.stop();
      rest.stop();
      return { changes, first: readAll(start(() => diff(WITHOUT_REVIEW.slice(1))), changes), second: null, stop };
    }
    const firstSame = sameRecords(early.stream, records, 0, at);
    const restSame = sameRecords(rest, records, at);
    /** The patches of `changes[from..to)` from a whole diff, for a part whose git saw the round differently. */
    const fromWhole = async function* (from: number, to: number): AsyncGenerator<FileDiff> {
      const whole = start(() => diff(WITHOUT_REVIEW.slice(1)));
      await whole.header();
      let n = 0;
      for await (const file of whole.files(changes, to)) if (n++ >= from) yield file;
      whole.stop();
    };
    const first = async function* (): AsyncGenerator<FileDiff> {
      if (await firstSame) {
        splitStats.early++;
        yield* early.stream.files(changes, at);
        await early.stream.finish();
        return;
      }
      early.stream.stop();
      yield* fromWhole(0, at);
    };
    const second = async function* (): AsyncGenerator<FileDiff> {
      if (await restSame) {
        yield* rest.files(changes.slice(at));
        await rest.finish();
        return;
      }
      rest.stop();
      yield* fromWhole(at, changes.length);
    };
    return { changes, first: first(), second: second(), stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** How many diffs used a git started during the capture (see `splitDiff`), for tests. */
export const splitStats = { early: 0 };

/** Where an early git's part ends (`from`, the first path it does not take) and the pathspecs that take in every path before it (see `earlySplit`). */
export interface EarlySplit {
  from: string;
  pathspecs: string[];
}

/**
 * A git of a split diff started during the capture: the capture stages the changes
 * before `from` first (its `FirstPart`), and once they are staged and the base is known,
 * this git makes their patches while the rest of the round is read, on a core that would
 * otherwise wait. It writes them to a file in the temporary index's folder (the capture's
 * own, removed with it), so it never waits for node, busy reading files; `splitDiff`
 * uses them once it checked they are the whole diff's.
 */
export class EarlyPart {
  private split: EarlySplit | null = null;
  private base: string | null = null;
  private index: GitEnv | null = null;
  private stream: PatchStream | null = null;
  private stopped = false;

  constructor(
    private readonly repo: Repo,
    /** Chooses the split from the capture's changed paths (sizes as the index had them) and the paths of its index. */
    private readonly choose: (changed: Array<{ path: string; size: number }>, indexed: string[]) => EarlySplit | null,
  ) {}

  /** For the capture: which changed paths it stages first, and what to do once they are. */
  firstPart(changed: Array<{ path: string; size: number }>, indexed: string[]): FirstPart | null {
    this.split = this.choose(changed, indexed);
    if (!this.split) return null;
    const { from } = this.split;
    return {
      takes: (file) => compare(file, from) < 0,
      staged: (env) => {
        this.index = env;
        this.start();
      },
    };
  }

  /** The round's base, once known. */
  setBase(oid: string): void {
    this.base = oid;
    this.start();
  }

  /** The git started and the first path it does not take, or null. */
  started(): SplitChoice['early'] {
    return this.stream && this.split && { stream: this.stream, from: this.split.from };
  }

  /** Ends the git, if started, and starts none later. */
  stop(): void {
    this.stopped = true;
    this.stream?.stop();
  }

  private start(): void {
    if (this.stopped || this.stream || !this.split || !this.base || !this.index?.GIT_INDEX_FILE) return;
    const file = path.join(path.dirname(this.index.GIT_INDEX_FILE), 'early-part.diff');
    const fd = openSync(file, 'w');
    try {
      const args = [...DIFF_ARGS, '--cached', this.base, '--', ...this.split.pathspecs, WITHOUT_REVIEW[2]!];
      this.stream = PatchStream.fromFile(this.repo.git.spawnToFile(args, this.index, fd), file);
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The part a git makes during the capture (see `EarlyPart`), chosen before the changes are
 * listed: the capture's `changed` paths are cut by `weights` (see `cutAt`, `share` of the
 * weight before the cut) at a changed path P, and the pathspecs take in every path before
 * P that the index held or the capture listed (staged changes it did not list included),
 * and none from P on: each by its highest folder that does not hold P, else by itself
 * (paths are contiguous by folder in git's order, so a folder that holds a path before P
 * and one after holds P too). Null when the round is too small to share or the pathspecs
 * would be too many.
 */
export function earlySplit(changed: string[], weights: number[], indexed: string[], fromWeight: number, share = 0.5): EarlySplit | null {
  const order = changed.map((_, i) => i).sort((x, y) => compare(changed[x]!, changed[y]!));
  const cut = cutAt(order.map((i) => weights[i]!), fromWeight, share);
  if (cut === null) return null;
  const from = changed[order[cut]!]!;
  const specs = new Set<string>();
  // Each list is in order, so the paths a folder spec takes in follow it.
  for (const earlier of [indexed.filter((file) => compare(file, from) < 0), order.slice(0, cut).map((i) => changed[i]!)]) {
    let covered: string | null = null; // the folder the last spec took in, as `folder/`
    for (const file of earlier) {
      if (covered !== null && file.startsWith(covered)) continue;
      let spec = file;
      for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
        if (!from.startsWith(file.slice(0, slash + 1))) {
          spec = file.slice(0, slash);
          break;
        }
      }
      covered = spec === file ? null : `${spec}/`;
      specs.add(`:(top,literal)${spec}`);
      if (specs.size > MAX_PATHSPECS) return null;
    }
  }
  let bytes = 0;
  for (const spec of specs) bytes += Buffer.byteLength(spec) + 1;
  return bytes <= MAX_PATHSPEC_BYTES ? { from, pathspecs: [...specs] } : null;
}

/** Git's order of paths (bytes); JavaScript's order of strings differs from it only beyond U+FFFF, where a mistake costs a fallback, never a wrong file. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Where the work is cut: the first index at which the weights before it reach `share` of
 * their total; null when the total is under `fromWeight` (a second git would not pay for
 * its start) or no such index leaves both sides something.
 */
export function cutAt(weights: number[], fromWeight: number, share = 0.5): number | null {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (weights.length < 2 || total < fromWeight) return null;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]!;
    if (sum >= total * share) return i + 1 < weights.length ? i + 1 : null;
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
  let at = Math.max(wanted, changes.length - MAX_PATHSPECS);
  let bytes = 0;
  for (let i = changes.length - 1; i >= at; i--) {
    const c = changes[i]!;
    bytes += Buffer.byteLength(c.path) + (c.from === undefined ? 0 : Buffer.byteLength(c.from)) + 32;
    if (bytes > MAX_PATHSPEC_BYTES) {
      at = i + 1;
      break;
    }
  }
  return at < changes.length ? at : null;
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
