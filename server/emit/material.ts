import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { MaterialEntry, Source, Status } from '../../schemas/material';
import { generatedAttribute } from '../git/attributes';
import { captureTree } from '../git/capture';
import { diffTrees, ZERO_OID, type RawChange } from '../git/diff';
import { commitsByPath, type Commit } from '../git/log';
import { BlobReader, blobSizes } from '../git/objects';
import type { Repo } from '../git/repo';
import { AtomicWriter, assertWritable, reviewDir, type ReviewDir } from '../review-dir';
import { resolveBase, type Base, type BaseOptions } from './base';
import { buildEntry, type EntryFacts } from './entry';
import { isGenerated } from './generated';
import { ensureIgnored } from './ignore';
import { loadPrivacy, type PrivacyCheck } from './privacy';
import { claimRound, keepRound, nextRoundNumber, pinRound, readBegin, readPreviousRound, releaseRound } from './rounds';
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
 */
export async function emitRound(repo: Repo, options: BaseOptions): Promise<RoundSummary> {
  const review = reviewDir(repo.root);
  await assertWritable(review);
  const withheld = await loadPrivacy(repo.root);
  const [begin, previous] = await Promise.all([readBegin(review), readPreviousRound(review)]);
  const base = await resolveBase(repo, options, begin, previous);

  const warnings = await ensureIgnored(repo);
  const tree = await captureTree(repo);
  let round = await nextRoundNumber(repo, review, previous);
  while (!(await claimRound(review, round))) round++;
  try {
    await pinRound(repo, round, tree);
    const summary = await writeMaterial(repo, review, { base, tree, round, warnings, withheld });
    await keepRound(review, round);
    return summary;
  } catch (error) {
    await releaseRound(review, round);
    throw error;
  }
}

interface RoundFacts {
  base: Base;
  tree: string;
  round: number;
  warnings: string[];
  withheld: PrivacyCheck;
}

/** Streams material.json, entry by entry, through a temporary file; the before copy of each binary goes to blobs/. */
async function writeMaterial(repo: Repo, review: ReviewDir, { base, tree, round, warnings, withheld }: RoundFacts): Promise<RoundSummary> {
  await mkdir(review.blobs, { recursive: true });
  const summary: RoundSummary = {
    round,
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
  };
  const writer = await AtomicWriter.open(review.material);
  const reader = new BlobReader(repo);
  try {
    await writer.write(materialHead(repo, base, tree, round));
    const commits = commitsByPath(repo, base.commit);
    commits.catch(() => {}); // awaited once the change list is known; this keeps an early failure handled
    let facts: EntryFacts | null = null;
    const lookUp = async (changes: RawChange[]) => {
      facts = await lookUpFacts(repo, changes, await commits, withheld);
    };
    const blobs = { reader, dir: review.blobs, shortBase: base.oid.slice(0, 7), taken: new Set<string>() };
    for await (const file of diffTrees(repo, base.oid, tree, lookUp)) {
      const entry = await buildEntry(file, facts!, blobs);
      await writer.write(`${summary.files === 0 ? '' : ','}\n${indent(JSON.stringify(entry, null, 2))}`);
      count(summary, entry);
    }
    await writer.write(summary.files === 0 ? ']\n}\n' : '\n  ]\n}\n');
    await reader.close();
    await writer.commit();
  } catch (error) {
    await writer.abort();
    await reader.close().catch(() => {});
    throw error;
  }
  return summary;
}

/** Sizes, generated and withheld flags, and commits of a change list, looked up in batches. */
export async function lookUpFacts(
  repo: Repo,
  changes: RawChange[],
  commits: Map<string, Commit[]>,
  withheld: (file: string) => string | null,
): Promise<EntryFacts> {
  const oids = changes.map((c) => (c.status === 'D' ? c.oldOid : c.newOid)).filter((oid) => !ZERO_OID.test(oid));
  const [sizes, attributes] = await Promise.all([
    blobSizes(repo, oids),
    generatedAttribute(
      repo,
      changes.map((c) => c.path),
    ),
  ]);
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

function indent(json: string): string {
  return json.replace(/^/gm, '    ');
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
