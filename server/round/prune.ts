import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Repo } from '../git/repo';
import type { ReviewDir } from '../review/review-dir';
import { finishedRounds, keptMaterial, readRound, roundDir, roundRef } from './rounds';

/** What a prune removed, for the line `rounds` and `involut prune` print. */
export interface Pruned {
  /** The rounds removed (ref, folder), ascending. */
  rounds: number[];
  /** How many before copies in `.review/blobs/` went with them. */
  blobs: number;
  /** The rounds kept beyond the last `keep`, each with why. */
  alsoKept: Array<{ round: number; why: string }>;
}

/**
 * Removes the finished rounds of this worktree's `.review/rounds/` that nothing needs any
 * more: all but the last `keep`, except the round before the newest (what the viewer's
 * "since the last round" compares with) and each round an open note was written on. A
 * removed round loses its ref (one `git update-ref --stdin` for all, each only while it
 * still names the round's tree), then its folder; then every before copy in `.review/blobs/`
 * that no kept round's material names goes. The refs go first: a crash in between leaves a
 * folder the next prune removes, never a ref nothing names. Never runs `git gc`: the trees
 * left unreachable are git's own gc's to drop. Run under the rounds' lock. A ref with no
 * folder here may be another worktree's round, so it is left alone.
 */
export async function pruneRounds(repo: Repo, review: ReviewDir, keep: number): Promise<Pruned> {
  const finished = await finishedRounds(review);
  const none: Pruned = { rounds: [], blobs: 0, alsoKept: [] };
  if (finished.length <= keep) return none;
  const needed = new Map<number, string>();
  const previous = finished.at(-2);
  if (previous !== undefined) needed.set(previous, 'the viewer compares the newest round with it');
  for (const n of await roundsOfOpenNotes(review, finished)) needed.set(n, 'an open note was written on it');
  const kept = new Set(finished.slice(-keep));
  const removed = finished.filter((n) => !kept.has(n) && !needed.has(n));
  if (removed.length === 0) return none;
  await dropRefs(repo, review, removed);
  await Promise.all(removed.map((n) => rm(roundDir(review, n), { recursive: true, force: true })));
  const alsoKept = [...needed].filter(([n]) => !kept.has(n)).map(([round, why]) => ({ round, why }));
  const remaining = finished.filter((n) => !removed.includes(n));
  return { rounds: removed, blobs: await dropUnusedBlobs(review, remaining), alsoKept };
}

/** One sentence saying what a prune removed, or null when it removed nothing. */
export function describePruned(pruned: Pruned, keep: number): string | null {
  if (pruned.rounds.length === 0) return null;
  const one = pruned.rounds.length === 1;
  const list = one
    ? `round ${pruned.rounds[0]} (its ref and folder`
    : `rounds ${spans(pruned.rounds)} (their refs and folders`;
  const blobs = pruned.blobs ? ` and ${pruned.blobs} before ${pruned.blobs === 1 ? 'copy' : 'copies'}` : '';
  const also = pruned.alsoKept.length
    ? `; also kept ${pruned.alsoKept.map((k) => `round ${k.round} (${k.why})`).join(', ')}`
    : '';
  return `Pruned ${list}${blobs}), keeping the last ${keep}${also}.`;
}

/** `1-3, 5` for [1, 2, 3, 5]. */
function spans(ns: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ns.length; i++) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j]! + 1) j++;
    parts.push(i === j ? String(ns[i]) : `${ns[i]}-${ns[j]}`);
    i = j;
  }
  return parts.join(', ');
}

/**
 * The rounds the open notes (not resolved) were written on: for each, the newest finished
 * round claimed at or before the note's time. A notes.json that cannot be read or parsed
 * keeps every round: which ones it needs cannot be told.
 */
async function roundsOfOpenNotes(review: ReviewDir, finished: number[]): Promise<number[]> {
  let text: string;
  try {
    text = await readFile(review.notes, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return finished;
  }
  let times: number[];
  try {
    const notes = (
      JSON.parse(text.replace(/^\uFEFF/, '')) as { notes?: Record<string, { at?: unknown; resolvedAt?: unknown }> }
    ).notes;
    times = Object.values(notes ?? {})
      .filter((note) => note && note.resolvedAt === undefined && typeof note.at === 'string')
      .map((note) => Date.parse(note.at as string))
      .filter((t) => !Number.isNaN(t));
  } catch {
    return finished;
  }
  if (times.length === 0) return [];
  const claimed = await Promise.all(
    finished.map(async (n) => ({ n, at: Date.parse((await readRound(review, n))?.at ?? '') })),
  );
  const rounds = new Set<number>();
  for (const time of times) {
    const on = claimed.filter((r) => !Number.isNaN(r.at) && r.at <= time).at(-1);
    if (on) rounds.add(on.n);
  }
  return [...rounds];
}

/** Deletes the refs of `removed` in one transaction, each only while it names what its round pinned. */
async function dropRefs(repo: Repo, review: ReviewDir, removed: number[]): Promise<void> {
  const listed = await repo.git.run(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/involut/rounds/']);
  const current = new Map(listed.split('\n').map((line) => line.split(' ') as [string, string]));
  const lines: string[] = [];
  for (const n of removed) {
    const names = current.get(roundRef(n));
    if (!names) continue;
    const pinned = (await readRound(review, n))?.tree;
    // A ref naming another tree is not this folder's round: it stays.
    if (pinned && pinned !== names) continue;
    lines.push(`delete ${roundRef(n)} ${names}`);
  }
  if (lines.length) await repo.git.run(['update-ref', '--stdin'], {}, [], Buffer.from(`${lines.join('\n')}\n`));
}

const BEFORE = Buffer.from('"before": "blobs/');

/**
 * Removes the files of `.review/blobs/` that no kept round's material names as a before
 * copy; says how many went. The names are found in the kept materials' bytes (the one
 * place that says which round uses which copy), not by parsing them whole.
 */
async function dropUnusedBlobs(review: ReviewDir, remaining: number[]): Promise<number> {
  const names = await readdir(review.blobs).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? [] : Promise.reject(error),
  );
  if (names.length === 0) return 0;
  const used = new Set<string>();
  const materials = [...remaining.map((n) => keptMaterial(review, n)), review.material];
  for (const file of materials) {
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? null : Promise.reject(error),
    );
    for (let at = bytes?.indexOf(BEFORE) ?? -1; bytes && at >= 0; at = bytes.indexOf(BEFORE, at + 1)) {
      const open = at + BEFORE.length - '"blobs/'.length;
      const close = stringEnd(bytes, open);
      // The name as JSON wrote it: a quote or backslash in it is escaped, so the string is parsed.
      const value = JSON.parse(bytes.subarray(open, close + 1).toString('utf8')) as string;
      used.add(value.slice('blobs/'.length));
    }
  }
  const unused = names.filter((name) => !used.has(name));
  await Promise.all(unused.map((name) => rm(path.join(review.blobs, name), { force: true })));
  return unused.length;
}

/** Where the JSON string opening at `open` (its quote) ends: its closing quote. */
function stringEnd(bytes: Buffer, open: number): number {
  for (let i = open + 1; i < bytes.length; i++) {
    if (bytes[i] === 0x5c) i++;
    else if (bytes[i] === 0x22) return i;
  }
  return bytes.length - 1;
}
