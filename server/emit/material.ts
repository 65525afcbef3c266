import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { MaterialEntry, Source, Status } from '../../schemas/material';
import { GENERATED, generatedAttribute, generatedValue } from '../git/attributes';
import { captureIndex, type CapturedIndex } from '../git/capture';
import { cutAt, EarlyPart, earlySplit, splitDiff, ZERO_OID, type FileDiff, type RawChange, type SplitDiff } from '../git/diff';
import { commitsByPath, type Commit } from '../git/log';
import { BlobReader, blobSizes } from '../git/objects';
import { makePackView, type PackView } from '../git/object-pack';
import type { Repo } from '../git/repo';
import { assertWritable, reviewDir, type ReviewDir } from '../review-dir';
import { resolveBase, type Base, type BaseOptions } from './base';
import { baseBlobName, buildEntry, mayKeepBefore, preloadEntryModules, type BlobStore, type EntryFacts } from './entry';
import { writeEntry } from './entry-json';
import { MaterialFile } from './material-file';
import { isGenerated } from './generated';
import { lookIgnored } from './ignore';
import { loadPrivacy, type PrivacyCheck } from './privacy';
import { claimRound, keepRound, keptCopy, nextRoundNumber, readBegin, readPreviousRound, releaseRound, startPinning, type BeginRecord, type PreviousRound } from './rounds';
import { localIsoTime } from './time';

/** What a round's emission did, for the summary the CLI prints. */
export interface RoundSummary {
  round: number;
  base: string;
  baseReason: string;
  tree: string;
  materialFile: string;
  files: number;
  byStatus: Record<Status, number>;
  additions: number;
  deletions: number;
  binaries: number;
  withheld: Array<{ ref: string; reason: string }>;
  generated: number;
  warnings: string[];
}

/**
 * Captures the round and writes `.review/material.json` and `.review/blobs/`, then keeps
 * the material as `.review/rounds/<n>/material.json`. Everything is checked before
 * anything is written; material.json appears whole or not at all.
 *
 * The capture (`git add` into a temporary index, git's longest step) starts first and
 * runs while the rest is checked and looked up: it writes nothing anyone sees, only a
 * temporary index and objects no ref names yet. A check that fails waits for it to end
 * (so no git is left running) and then throws, leaving `.review/`, the refs and
 * `info/exclude` as they were. `whileCapturing` runs once git add is under way: work for a
 * core that would otherwise wait.
 */
export async function emitRound(repo: Repo, options: BaseOptions, whileCapturing?: () => void): Promise<RoundSummary> {
  const review = reviewDir(repo.root);
  await assertWritable(review);
  // The round's gits read the capture's packs while they are flushed to disk (see `startPack`).
  const view = makePackView(repo.objectsDir);
  try {
    return await emitRoundWith(repo, review, options, view, whileCapturing);
  } finally {
    await view?.dispose();
  }
}

async function emitRoundWith(repo: Repo, review: ReviewDir, options: BaseOptions, view: PackView | null, whileCapturing?: () => void): Promise<RoundSummary> {
  let adding!: () => void;
  const underWay = new Promise<void>((resolve) => (adding = resolve));
  // A big round's first patches are made during the capture, once their files are staged (see `EarlyPart`).
  const early = new EarlyPart(repo, (changed, indexed) =>
    earlySplit(changed.map((c) => c.path), changed.map((c) => patchWeight(c.size)), indexed, splitSettings.fromBytes, splitSettings.earlyShare),
  );
  const capture = captureIndex(repo, adding, view, (changed, indexed) => early.firstPart(changed, indexed));
  capture.catch(() => {}); // awaited below, on every path
  const dropCapture = () => {
    early.stop();
    return capture.then((index) => index.dispose(), () => {});
  };
  // The checks below load modules and run JavaScript: git add goes first.
  await Promise.race([underWay, capture.then(() => {}, () => {})]);
  // The gits that read binaries and pin the round wait for questions from now on: started
  // while node holds little memory, each spawn costs less (fork copies page tables).
  const helpers = { reader: new BlobReader(repo, view?.env), pinning: startPinning(repo) };
  helpers.reader.start();
  // Modules needed later load while git works (a small round's capture is over in milliseconds,
  // and what it waits for then is these imports).
  preloadEntryModules();
  whileCapturing?.();
  const dropHelpers = () => Promise.all([helpers.reader.close(), helpers.pinning.close()].map((closed) => closed.catch(() => {})));
  let withheld: PrivacyCheck;
  let base: Base;
  let previous: PreviousRound | null;
  // Read while the round is checked; `.review/` is added to info/exclude only once it passed.
  const ignoring = lookIgnored(
    repo,
    capture.then((index) => index.reviewTracked, () => null),
  );
  ignoring.catch(() => {}); // awaited below
  try {
    let begin: BeginRecord | null;
    [withheld, begin, previous] = await Promise.all([loadPrivacy(repo.root), readBegin(review), readPreviousRound(review)]);
    base = await resolveBase(repo, options, begin, previous);
    early.setBase(base.oid);
  } catch (error) {
    await Promise.all([dropCapture(), dropHelpers(), ignoring.catch(() => {})]);
    throw error;
  }
  const commits = commitsByPath(repo, base.commit);
  commits.catch(() => {}); // awaited once the change list is known; this keeps an early failure handled
  // The round's number is looked up now, while the process is small; claiming it comes later.
  const numbered = nextRoundNumber(repo, review, previous);
  numbered.catch(() => {}); // awaited below
  let warnings: string[];
  let index: CapturedIndex;
  try {
    [warnings, index] = await settled(
      ignoring.then((apply) => apply()),
      capture,
    );
  } catch (error) {
    await Promise.all([dropCapture(), dropHelpers(), numbered.catch(() => {})]);
    throw error;
  }
  // Staged by one `git add`, the capture may have left a part's git reading an index it then wrote over.
  if (!index.listing) early.stop();
  // The diff reads the temporary index (`--cached`), so the tree is written meanwhile (after
  // the diff's gits are started: building it keeps node busy for a while), and both start
  // before the round is claimed.
  const patches = startPatches(repo, base, index, commits, withheld, early);
  const tree = index.writeTree();
  tree.catch(() => {}); // awaited in writeMaterial, and below before the index goes
  try {
    let round: number;
    try {
      round = await numbered;
      while (!(await claimRound(review, round))) round++;
    } catch (error) {
      await Promise.all([dropHelpers(), patches.diff.then((d) => d.stop(), () => {})]);
      throw error;
    }
    try {
      const summary = await writeMaterial(repo, review, { base, index, tree, round, warnings, patches, ...helpers });
      await keepRound(review, round, keptCopy(review, round));
      return summary;
    } catch (error) {
      await releaseRound(review, round);
      throw error;
    }
  } finally {
    await tree.catch(() => {});
    await index.dispose();
  }
}

/** Both results once both promises settled, or the first failure once both settled (no git left running). */
async function settled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

interface RoundFacts {
  base: Base;
  /** The captured working state, and its tree being written. */
  index: CapturedIndex;
  tree: Promise<string>;
  round: number;
  warnings: string[];
  patches: Patches;
  /** Gits started ahead; writeMaterial closes them. */
  reader: BlobReader;
  pinning: ReturnType<typeof startPinning>;
}

/** The round's patches, being made, and the per-file facts looked up once the change list is known. */
interface Patches {
  diff: Promise<SplitDiff>;
  /** Set once `diff` resolved. */
  facts: () => Promise<EntryFacts>;
}

/**
 * Starts the round's diff (see `splitDiff`): once git lists the changes, their facts are
 * looked up by the gits started ahead while the patches are made (and read ahead). The
 * patch work is shared by the sizes the capture recorded (see `patchWeight`): a git
 * started during the capture (`early`) makes the patches of the changes it staged first,
 * else a second git starts once the changes are listed, with half the work. A small round
 * takes one git (a second process would cost more than it saves), and so does a round
 * where two binaries could want the same before-copy name (see `distinctBeforeNames`).
 */
function startPatches(
  repo: Repo,
  base: Base,
  index: CapturedIndex,
  commits: Promise<Map<string, Commit[]>>,
  withheld: PrivacyCheck,
  early: EarlyPart,
): Patches {
  let facts: Promise<EntryFacts> | null = null;
  const shortBase = base.oid.slice(0, 7);
  const diff = splitDiff(repo, base.oid, { cached: index.env }, {
    early: early.started(),
    at: async (changes) => {
      facts = commits.then((byPath) => lookUpFacts(repo, changes, byPath, withheld, index));
      facts.catch(() => {}); // awaited before the first entry
      if (!distinctBeforeNames(changes, shortBase)) return null;
      // Half the weight each, by the sizes the capture recorded (a deleted file weighs its entry only).
      const sizes = await index.sizes();
      return cutAt(changes.map((c) => patchWeight(sizes.get(c.path) ?? 0)), splitSettings.fromBytes);
    },
  });
  diff.catch(() => {}); // awaited in writeMaterial; stopped if something fails first
  return { diff, facts: () => facts! };
}

/** Streams material.json, entry by entry, through a temporary file; the before copy of each binary goes to blobs/. */
async function writeMaterial(repo: Repo, review: ReviewDir, facts: RoundFacts): Promise<RoundSummary> {
  try {
    return await writeMaterialWith(repo, review, facts);
  } catch (error) {
    const stopped = facts.patches.diff.then((diff) => diff.stop());
    await Promise.all([facts.reader.close(), facts.pinning.close(), stopped].map((closed) => closed.catch(() => {})));
    throw error;
  }
}

async function writeMaterialWith(
  repo: Repo,
  review: ReviewDir,
  { base, tree: treeWritten, round, warnings, patches, reader, pinning }: RoundFacts,
): Promise<RoundSummary> {
  await mkdir(review.blobs, { recursive: true });
  // The kept round's copy is written alongside (see `keepRound`).
  const writer = new MaterialFile(review.material, '', 0, keptCopy(review, round));
  let part: MaterialFile | null = null;
  let diff: SplitDiff | null = null;
  const blobs = { reader, dir: review.blobs, shortBase: base.oid.slice(0, 7), taken: new Set<string>() };
  const started = patches.diff;
  const summary: RoundSummary = { round, base: base.oid, baseReason: base.reason, tree: '', materialFile: review.material, ...noEntries(), warnings };
  // Pinned as soon as git has written the tree; material.json appears only once the ref is there.
  const pinned = treeWritten.then((tree) => pinning.pin(round, tree));
  pinned.catch(() => {}); // awaited before the commit
  try {
    // The entries do not wait for the tree: the head holds a stand-in of its length, written over at the end.
    const standIn = '0'.repeat(repo.emptyTree.length);
    const head = materialHead(repo, base, standIn, round);
    const key = head.indexOf(`"tree": "${standIn}"`);
    if (key === -1) throw new Error('material.json: the head has no tree to fill in');
    const treeAt = Buffer.byteLength(head.slice(0, key + '"tree": "'.length));
    writer.write(head);
    diff = await started;
    const known = await patches.facts();
    if (diff.second === null) {
      await writeEntries(diff.first, known, blobs, writer, summary, () => false);
    } else {
      // The second half's entries go to a part file, appended once the first half is written.
      // Both halves have entries, so each of the second half's follows another: a comma first.
      part = new MaterialFile(review.material, 'part', PART_HELD_BYTES);
      const rest = noEntries();
      // When one half fails, the other stops at its next entry; the first failure is thrown once both ended.
      let failed = false;
      const stopped = () => failed;
      const halves = [
        writeEntries(diff.first, known, blobs, writer, summary, stopped),
        writeEntries(diff.second, known, blobs, part, rest, stopped, true),
      ].map((half) => half.catch((error: unknown) => ((failed = true), Promise.reject(error))));
      for (const result of await Promise.allSettled(halves)) if (result.status === 'rejected') throw result.reason;
      await writer.append(part);
      part = null;
      addEntries(summary, rest);
      if (rest.files > 0) splitSettings.splits++;
    }
    writer.write(summary.files === 0 ? ']\n}\n' : '\n  ]\n}\n');
    summary.tree = await treeWritten;
    await writer.writeAt(treeAt, summary.tree);
    await Promise.all([reader.close(), pinned]);
    await writer.commit();
  } catch (error) {
    await Promise.all([started.then((d) => d.stop(), () => {}), pinned.catch(() => {}), writer.abort(), part?.abort()]);
    throw error;
  }
  return summary;
}

/** The second half's entries are held in memory up to this many bytes (then in a file of their own). */
const PART_HELD_BYTES = 64 << 20;

/** What a summary counts of the entries, all at zero. */
function noEntries(): Pick<RoundSummary, 'files' | 'byStatus' | 'additions' | 'deletions' | 'binaries' | 'withheld' | 'generated'> {
  return { files: 0, byStatus: { added: 0, modified: 0, deleted: 0, renamed: 0 }, additions: 0, deletions: 0, binaries: 0, withheld: [], generated: 0 };
}

function addEntries(summary: RoundSummary, more: ReturnType<typeof noEntries>): void {
  summary.files += more.files;
  for (const status of Object.keys(more.byStatus) as Status[]) summary.byStatus[status] += more.byStatus[status];
  summary.additions += more.additions;
  summary.deletions += more.deletions;
  summary.binaries += more.binaries;
  summary.generated += more.generated;
  summary.withheld.push(...more.withheld);
}

/** Builds and writes the entries of one stream of patches, each after a comma but the very first. */
async function writeEntries(
  files: AsyncGenerator<FileDiff>,
  facts: EntryFacts,
  blobs: BlobStore,
  out: MaterialFile,
  counts: ReturnType<typeof noEntries>,
  stopped: () => boolean,
  follows = false,
): Promise<void> {
  for await (const file of files) {
    if (stopped()) break;
    const built = await buildEntry(file, facts, blobs, true);
    out.write(follows || counts.files > 0 ? ',\n' : '\n');
    writeEntry(out, built);
    count(counts, built.entry);
  }
}

/**
 * What making the patch of a file of `size` bytes costs git, in bytes: a file costs more
 * than its bytes (its entry, two objects to read). Measured on the bench round: ~85 µs a
 * file of 4 KB, ~10.6 ns a byte for its 6.6 MB file (50,000 changed lines), so 4 KB a file.
 */
function patchWeight(size: number): number {
  return PER_FILE_BYTES + size;
}

/**
 * Whether no two binaries could want the same before-copy name: names are made unique in
 * the order entries are written, which two parts written at once would not keep, so a round
 * where they could collide takes one git.
 */
function distinctBeforeNames(changes: RawChange[], shortBase: string): boolean {
  // Flattening `/` to `_` can make two paths one name only when some path holds a `_`.
  if (!changes.some((c) => c.path.includes('_'))) return true;
  const names = new Set<string>();
  for (const change of changes) {
    if (!mayKeepBefore(change)) continue;
    const name = baseBlobName(change.path, shortBase);
    if (names.has(name)) return false;
    names.add(name);
  }
  return true;
}

/**
 * A round whose files add up to less than `fromBytes` takes one git: a second one would
 * not pay for its start. A git started during the capture takes the changes before
 * `earlyShare` of the work: more than half, since it starts while the rest is read (on the
 * bench round, of 0.4, 0.55 and 0.7, 0.55 ended the round soonest). An object, so that tests can force either way, and count the
 * emissions whose second git was used (`splits`).
 */
export const splitSettings = { fromBytes: 1 << 20, earlyShare: 0.55, splits: 0 };
/** What one more file costs git beyond its bytes, in bytes. */
const PER_FILE_BYTES = 4096;

/**
 * Sizes, generated and withheld flags, and commits of a change list, looked up in batches;
 * what the capture knows already (the sizes of the blobs it stored, the attributes of the
 * paths it listed) is not asked of git again, and git is started only for the rest.
 */
export async function lookUpFacts(
  repo: Repo,
  changes: RawChange[],
  commits: Map<string, Commit[]>,
  withheld: (file: string) => string | null,
  captured?: Pick<CapturedIndex, 'blobSizes' | 'listing'>,
): Promise<EntryFacts> {
  const known = captured?.blobSizes ?? new Map<string, number>();
  const wanted = changes.map((c) => (c.status === 'D' ? c.oldOid : c.newOid)).filter((oid) => !ZERO_OID.test(oid) && !known.has(oid));
  // The attributes of the paths the capture listed are known too; git is asked for the others.
  const listed = new Set(captured?.listing?.changed.map((c) => c.path));
  const paths = changes.map((c) => c.path).filter((file) => !listed.has(file));
  const [asked, attributes] = await Promise.all([blobSizes(repo, wanted), generatedAttribute(repo, paths)]);
  for (const file of listed) {
    const generated = generatedValue(captured!.listing!.attributes.get(file)?.get(GENERATED));
    if (generated !== undefined) attributes.set(file, generated);
  }
  const sizes = known.size ? new Map([...known, ...asked]) : asked;
  return { commits, sizes, withheld, generated: (file) => isGenerated(file, attributes.get(file)) };
}

/** Everything of material.json before the entries, which are streamed in after it. */
function materialHead(repo: Repo, base: Base, tree: string, round: number): string {
  const source: Source = {
    kind: 'git',
    id: `${path.basename(repo.root)}@${repo.head ? repo.head.slice(0, 7) : 'no-commits'}`,
    root: repo.root,
    request: null,
    base: base.oid,
    base_reason: base.reason,
    head: repo.head,
    tree,
    round,
  };
  const head = JSON.stringify({ contract: 1, source, generated: localIsoTime(), material: [] }, null, 2);
  // Drop the closing `[]\n}` so the entries can be streamed into the array.
  return head.slice(0, head.lastIndexOf('[]') + 1);
}

function count(summary: ReturnType<typeof noEntries>, entry: MaterialEntry): void {
  summary.files++;
  summary.byStatus[entry.status]++;
  summary.additions += entry.additions ?? 0;
  summary.deletions += entry.deletions ?? 0;
  if (entry.binary) summary.binaries++;
  if (entry.generated) summary.generated++;
  if (entry.withheld) summary.withheld.push({ ref: entry.ref, reason: entry.withheld.reason });
}
