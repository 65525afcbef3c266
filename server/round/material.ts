import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { MaterialEntry, Source, Status } from '../../schemas/material';
import { generatedAttribute } from '../git/attributes';
import { captureTree, forgetCapturedIndex, type Captured } from './capture';
import { diffTrees, liveOids, type RawChange } from '../git/diff';
import { roundLog, type Commit, type RoundLog } from '../git/log';
import { BlobReader, objectSizes } from '../git/objects';
import type { Repo } from '../git/repo';
import { submoduleWarning, type WorkingChange, type WorkingState } from '../git/working-state';
import { assertReviewDirSafe, assertWritable, linkOrCopy, type ReviewDir } from '../review/review-dir';
import { resolveBase, type Base, type BaseOptions } from './base';
import { buildEntry, type EntryFacts } from './entry';
import { isGenerated } from './generated';
import { addProvenance, addState, lookUpProvenance, type Provenance } from './provenance';
import { excludeReview, reviewExcluded, reviewInCapture, TRACKED_WARNING } from './ignore';
import { storedSizes } from './integrity';
import { loadPrivacyRules, type PrivacyCheck } from './privacy';
import { readKeep } from './config';
import { describePruned, pruneRounds } from './prune';
import {
  claimRound,
  keepCards,
  keptMaterial,
  lastFinishedRound,
  lockRounds,
  nextRoundNumber,
  roundRefNumbers,
  readBegin,
  releaseRound,
  removeUnfinished,
  writeBegin,
  type BeginRecord,
  type RoundRecord,
} from './rounds';
import { localIsoTime, localIsoTimeMs } from '../review/time';

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
  /** The line saying which older rounds were pruned once this one was finished; null when none. */
  pruned: string | null;
}

export interface EmitHooks {
  /** Told when another round of this repository holds the lock, before waiting for it. */
  onWait?: (pid: number) => void;
}

/**
 * Captures the round and writes `.review/material.json` and `.review/blobs/`, keeping the
 * material as `.review/rounds/<n>/material.json` and the cards written for the round before
 * as that round's `cards.json`. Rounds of one repository run one after the other; a
 * round's ref is pinned while its material is written, and taken back if anything fails;
 * material.json appears whole, or not at all, once every object of the round is known to
 * be in the repository.
 */
export async function emitRound(repo: Repo, options: BaseOptions, hooks: EmitHooks = {}): Promise<RoundSummary> {
  let review: ReviewDir;
  // What git is asked here only reads; a base that cannot be resolved leaves everything as it was.
  const choose = async () => resolveBase(repo, options, await readBegin(review), await lastFinishedRound(review));
  let inCapture: ReturnType<typeof reviewInCapture> | null = null;
  const askInCapture = () => (inCapture ??= reviewInCapture(repo));
  // Read before git add starts: no path it withholds may be handed to git add.
  const privacy = loadPrivacyRules(repo.root);
  privacy.catch(() => {}); // awaited below, on every path
  // Once git ignores .review/ (every round after a repository's first), git add starts first: it
  // writes a temporary index and objects no ref names, touches nothing in .review/, and the
  // checks below (of .review/ too) run meanwhile.
  const early = (await reviewExcluded(repo))
    ? captureTree(repo, {
        reviewAdded: async () => (await askInCapture()).added,
        keepIndex: true,
        privacy,
        readWorking: true,
      })
    : null;
  early?.catch(() => {}); // awaited below, on every path
  if (!early) askInCapture().catch(() => {}); // awaited below
  // Asked again when a round ran or was cleared meanwhile; a number taken since is found by the claim.
  let pinned = roundRefNumbers(repo);
  pinned.catch(() => {}); // awaited below
  const dropEarly = () =>
    early?.then(
      ({ tree }) => forgetCapturedIndex(repo, tree),
      () => {},
    );
  let withheld: PrivacyCheck;
  let base: Base;
  let waited = false;
  let unlock: () => Promise<void>;
  try {
    review = await assertReviewDirSafe(repo.root);
    await assertWritable(review);
    [withheld, base] = await Promise.all([privacy.then((rules) => rules.check), choose()]);
    unlock = await openReview(repo, review, (pid) => {
      waited = true;
      hooks.onWait?.(pid);
    });
  } catch (error) {
    await dropEarly();
    throw error;
  }
  try {
    // A round that ran meanwhile may be the one to compare with now.
    if (waited) base = await choose();
    const commits = roundLog(repo, base.commit);
    commits.catch(() => {}); // awaited once the change list is known
    if ((await removeUnfinished(repo, review)) || waited) pinned = roundRefNumbers(repo);
    pinned.catch(() => {}); // awaited once the tree is captured
    const { added, tracked } = await askInCapture();
    const capture =
      early ?? captureTree(repo, { reviewAdded: async () => added, keepIndex: true, privacy, readWorking: true });
    // Where each change stands in git: two of its three lists need no tree, so they start now.
    const provenance = lookUpProvenance(
      repo,
      base.commit,
      capture.then((captured) => captured.tree),
    );
    provenance.catch(() => {}); // awaited by writeMaterial, or dropped with the round
    const captured = await capture;
    const { tree } = captured;
    const record: RoundRecord = { round: 0, tree, head: repo.head, base: base.oid, at: localIsoTime() };
    let pinnedHere = false;
    let cardsKept: string | null = null;
    // Claimed while git diff runs: only the material's head and the check of its objects wait for it.
    const round = (async () => {
      record.round = await nextRoundNumber(review, await pinned);
      while (!(await claimRound(repo, review, record))) record.round++;
      pinnedHere = true;
      return record.round;
    })();
    // Before the new material appears, so whoever sees round n finds the cards of the round before.
    const cardsReady = round.then(async (n) => {
      cardsKept = await keepCards(review, n);
    });
    cardsReady.catch(() => {}); // awaited by writeMaterial, or below
    let summary: RoundSummary;
    try {
      const warnings = tracked ? [TRACKED_WARNING] : [];
      const facts = { base, captured, round, cardsReady, warnings, withheld, commits, provenance };
      summary = await writeMaterial(repo, review, facts);
    } catch (error) {
      await cardsReady.catch(() => {}); // settles after the claim
      // The next attempt keeps the cards as they are then.
      if (cardsKept) await rm(cardsKept, { force: true });
      if (pinnedHere) await releaseRound(repo, review, record);
      throw error;
    }
    // The round is finished: what goes now is older rounds nothing needs (still under the lock).
    summary.pruned = await pruneAfterRound(repo, review, summary.warnings);
    return summary;
  } finally {
    await unlock();
  }
}

/**
 * Prunes the rounds `keep` (`.involut.json`, default 10) no longer keeps; the line saying
 * what went, or null. The round itself is finished by now, so a prune that fails is a
 * warning, not a failed round.
 */
async function pruneAfterRound(repo: Repo, review: ReviewDir, warnings: string[]): Promise<string | null> {
  try {
    const keep = await readKeep(repo.root);
    return describePruned(await pruneRounds(repo, review, keep), keep);
  } catch (error) {
    warnings.push(`The round is written, but older rounds were not pruned: ${(error as Error).message}`);
    return null;
  }
}

/** `involut rounds --begin`: captures the working state as the base of the next round. */
export async function recordBegin(repo: Repo, hooks: EmitHooks = {}): Promise<BeginRecord> {
  const review = await assertReviewDirSafe(repo.root);
  await assertWritable(review);
  const unlock = await openReview(repo, review, (pid) => hooks.onWait?.(pid));
  try {
    const privacy = loadPrivacyRules(repo.root);
    const { tree } = await captureTree(repo, {
      reviewAdded: async () => (await reviewInCapture(repo)).added,
      privacy,
    });
    return await writeBegin(repo, review, { head: repo.head, tree });
  } finally {
    await unlock();
  }
}

/** Makes `.review/`, has git ignore it before anything is written in it, and takes the rounds' lock. */
async function openReview(repo: Repo, review: ReviewDir, onWait: (pid: number) => void): Promise<() => Promise<void>> {
  await excludeReview(repo);
  await mkdir(review.dir, { recursive: true });
  return lockRounds(review, onWait);
}

interface RoundFacts {
  base: Base;
  captured: Captured;
  /** The round's number, once its tree is pinned. */
  round: Promise<number>;
  /** Settles once the cards of the round before are kept: the material may then appear. */
  cardsReady: Promise<void>;
  warnings: string[];
  withheld: PrivacyCheck;
  /** The round's commits, being looked up. */
  commits: Promise<RoundLog>;
  /** Where each change stands in git, being looked up. */
  provenance: Promise<Provenance>;
}

/** Entries go out in batches of about a mebibyte: thousands of small writes cost more than the bytes. */
const BATCH = 1 << 20;

/**
 * Streams the round's material, entry by entry, into a temporary file, then renames it
 * into the round's folder and links it into place as material.json; the before copy of
 * each binary goes to blobs/. One file's patch at a time is held in memory.
 */
async function writeMaterial(
  repo: Repo,
  review: ReviewDir,
  { base, captured, round, cardsReady, warnings, withheld, commits, provenance }: RoundFacts,
): Promise<RoundSummary> {
  const { tree } = captured;
  const conflicted = new Set(captured.conflicted);
  // Withheld working copies the tree does not hold (git add never saw them): listed all the same.
  const state: WorkingState = captured.working ?? { changes: [], dirtySubmodules: [] };
  const hidden = provenance.then((states) => {
    for (const sub of state.dirtySubmodules) warnings.push(submoduleWarning(sub));
    const changes = state.changes.filter((change) => withheld(change.path) !== null);
    // A withheld conflicted file keeps its own side in the tree (see captureTree); git status
    // reports it as unmerged, not as a working change.
    for (const file of conflicted)
      if (withheld(file) !== null && !changes.some((c) => c.path === file))
        changes.push({ path: file, kind: 'modified' });
    for (const change of changes) addState(states, change.path, change.kind === 'untracked' ? 'untracked' : 'unstaged');
    return changes;
  });
  hidden.catch(() => {}); // awaited with the head, below
  const listed = new Set<string>();
  await mkdir(review.blobs, { recursive: true });
  const summary: RoundSummary = {
    round: 0,
    base: base.oid,
    baseReason: base.reason,
    tree,
    materialFile: review.material,
    files: 0,
    byStatus: { added: 0, modified: 0, deleted: 0, renamed: 0 },
    additions: 0,
    deletions: 0,
    binaries: 0,
    withheld: [],
    generated: 0,
    warnings,
    pruned: null,
  };
  const temporary = path.join(review.dir, `.material.json.${process.pid}.round.tmp`);
  const reader = new BlobReader(repo);
  let facts: EntryFacts | null = null;
  let states: Provenance | null = null;
  let batch = '';
  const lookUp = async (changes: RawChange[], folders: string[]) => {
    // The sizes come with the check that the round's objects are all there, once its tree is pinned.
    const sizes = round.then(() => storedSizes(repo, tree, changes, folders));
    sizes.catch(() => {}); // awaited in lookUpFacts
    const known = commits.then((log) => lookUpFacts(repo, changes, log.byPath, withheld, sizes));
    [facts, states, batch] = await Promise.all([known, provenance, head, hidden]);
  };
  const head = Promise.all([round, commits, hidden]).then(([n, log]) =>
    materialHead(repo, base, tree, n, log, warnings),
  );
  for (const early of [head, round]) early.catch(() => {}); // awaited below
  let out: FileHandle | null = null;
  try {
    out = await open(temporary, 'w');
    // git diff first: the longest of the round's reads. All are read-only, so under way while the round is claimed.
    const files = diffTrees(repo, base.oid, tree, lookUp);
    const blobs = { reader, dir: review.blobs, shortBase: base.oid.slice(0, 7), taken: new Set<string>() };
    for await (const file of files) {
      const entry = await buildEntry(file, facts!, blobs);
      addProvenance(entry, file.change, states!);
      if (conflicted.has(file.change.path)) markConflicted(entry);
      if (entry.withheld) listed.add(entry.ref);
      batch += `${summary.files === 0 ? '' : ','}\n${entryText(entry)}`;
      count(summary, entry);
      if (batch.length < BATCH) continue;
      await writeAll(out, batch);
      batch = '';
    }
    for (const change of await hidden) {
      if (listed.has(change.path)) continue;
      const known = (facts as EntryFacts | null)?.commits ?? new Map<string, Commit[]>();
      const file = path.join(repo.root, change.path);
      const entry = await hiddenEntry(change, file, withheld(change.path)!, known, states ?? (new Map() as Provenance));
      if (conflicted.has(change.path)) markConflicted(entry);
      batch += `${summary.files === 0 ? '' : ','}\n${entryText(entry)}`;
      count(summary, entry);
    }
    await writeAll(out, batch + (summary.files === 0 ? ']\n}\n' : '\n  ]\n}\n'));
    await out.close();
    await reader.close();
    await cardsReady;
    summary.round = await round;
    const kept = keptMaterial(review, summary.round);
    await rename(temporary, kept);
    await publish(kept, review.material);
  } catch (error) {
    await Promise.all([out?.close().catch(() => {}), reader.close().catch(() => {})]);
    await rm(temporary, { force: true });
    // A write through the handle names no file: the sentence the user reads names the material.
    if (error instanceof Error && 'code' in error && !('path' in error))
      Object.assign(error, { path: review.material });
    throw error;
  }
  return summary;
}

/**
 * Writes all of `text`: one write may take only part of it (a disk that fills up takes what
 * fits and says nothing), so what is left is written again until it is all there, or the
 * disk refuses with an error (ENOSPC) that fails the round.
 */
async function writeAll(out: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) at += (await out.write(bytes, at)).bytesWritten;
}

/**
 * Makes the kept material `.review/material.json` too: a second name for the same file
 * (neither is ever written again), put in place by a rename, so a reader sees the old
 * round or the new one whole. A file system without hard links gets a copy.
 */
async function publish(kept: string, material: string): Promise<void> {
  const temporary = path.join(path.dirname(material), `.material.json.${process.pid}.tmp`);
  try {
    await linkOrCopy(kept, temporary);
    await rename(temporary, material);
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Sizes, generated and withheld flags, and commits of a change list, looked up in batches. */
export async function lookUpFacts(
  repo: Repo,
  changes: RawChange[],
  commits: Map<string, Commit[]>,
  withheld: PrivacyCheck,
  sizes: Promise<Map<string, number>> = objectSizes(repo, liveOids(changes)),
): Promise<EntryFacts> {
  const [known, attributes] = await Promise.all([
    sizes,
    generatedAttribute(
      repo,
      changes.map((c) => c.pathBytes ?? c.path),
    ),
  ]);
  return { commits, sizes: known, withheld, generated: (file) => isGenerated(file, attributes.get(file)) };
}

/** Everything of material.json before the entries, which are streamed in after it. */
function materialHead(
  repo: Repo,
  base: Base,
  tree: string,
  round: number,
  { commits }: RoundLog,
  warnings: string[],
): string {
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
    commits: commits.map(({ id, subject }) => ({ id, subject })),
    ...(warnings.length ? { warnings } : {}),
  };
  // With milliseconds: a note written in the same second before this round must read as older than it.
  const head = JSON.stringify({ contract: 1, source, generated: localIsoTimeMs(), material: [] }, null, 2);
  // Drop the closing `[]\n}` so the entries can be streamed into the array.
  return head.slice(0, head.lastIndexOf('[]') + 1);
}

/** Where an entry's JSON, written with `diff: 0`, takes its diff. */
const DIFF_PLACE = '"diff": 0';

/**
 * An entry's JSON as it sits in the material's array, indented by four spaces. The diff's
 * JSON is put in after the indenting (JSON.stringify leaves only its own line breaks raw, and
 * none in a string), so its megabytes are not scanned and copied once more.
 */
function entryText(entry: MaterialEntry): string {
  const text = typeof entry.diff === 'string' ? entry.diff : null;
  const json = `    ${JSON.stringify(text === null ? entry : { ...entry, diff: 0 }, null, 2).replaceAll('\n', '\n    ')}`;
  if (text === null) return json;
  // Joined, not replaced in: a replace would copy the diff's megabytes once more.
  const at = json.indexOf(DIFF_PLACE);
  return json.slice(0, at) + '"diff": ' + JSON.stringify(text) + json.slice(at + DIFF_PLACE.length);
}

function count(summary: RoundSummary, entry: MaterialEntry): void {
  summary.files++;
  summary.byStatus[entry.status]++;
  summary.additions += entry.additions ?? 0;
  summary.deletions += entry.deletions ?? 0;
  if (entry.binary) summary.binaries++;
  if (entry.generated) summary.generated++;
  if (entry.withheld) summary.withheld.push({ ref: entry.ref, reason: entry.withheld.reason });
}

/** The same round's own index held no stage for a conflicted path: it is labelled conflicted, not staged. */
function markConflicted(entry: MaterialEntry): void {
  entry.conflicted = true;
  entry.provenance = entry.provenance?.filter((state) => state !== 'staged');
}

/**
 * The entry of a withheld file whose working copy the tree does not hold: its status from
 * git status, its reason, and no id of its content (git never hashed it), zeros as git
 * prints for a working copy. Its size and whether it is binary (a NUL in its first 8,000
 * bytes, git's own test) are read from the file, which nothing copies.
 */
async function hiddenEntry(
  change: WorkingChange,
  file: string,
  reason: string,
  commits: Map<string, Commit[]>,
  states: Provenance,
): Promise<MaterialEntry> {
  let binary = false;
  let bytes: number | null = null;
  if (change.kind !== 'deleted') {
    const handle = await open(file, 'r').catch(() => null);
    if (handle) {
      try {
        const head = Buffer.alloc(8000);
        const { bytesRead } = await handle.read(head, 0, head.length, 0);
        binary = head.subarray(0, bytesRead).includes(0);
        bytes = (await handle.stat()).size;
      } finally {
        await handle.close();
      }
    }
  }
  const status: Status = change.kind === 'untracked' ? 'added' : change.kind;
  const provenance = ['committed', 'staged', 'unstaged', 'untracked'] as const;
  const has = states.get(change.path) ?? new Set();
  return {
    ref: change.path,
    status,
    binary,
    diff: null,
    hash: '0'.repeat(12),
    commits: [...new Map((commits.get(change.path) ?? []).map((c) => [c.id, c.subject])).values()],
    bytes,
    additions: null,
    deletions: null,
    withheld: { reason },
    provenance: provenance.filter((state) => has.has(state)),
  };
}
