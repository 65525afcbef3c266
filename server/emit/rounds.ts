import { link, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Repo } from '../git/repo';
import { ROUND_REFS, takeEarly } from '../git/early';
import { readJsonOrNull, writeFileAtomic, type ReviewDir } from '../review-dir';
import { localIsoTime } from './time';

/**
 * What `involut rounds --begin` records: the state the next round is compared against.
 * Checked by hand rather than with zod, which `involut rounds` does not load otherwise
 * (importing it is a third of the command's start-up).
 */
export interface BeginRecord {
  head: string | null;
  tree: string;
  at: string;
}

/** The round captured last, as the previous material.json recorded it. */
export interface PreviousRound {
  round: number;
  tree: string;
  head: string | null;
}

export const roundRef = (n: number) => `refs/involut/rounds/${n}`;

export async function readBegin(review: ReviewDir): Promise<BeginRecord | null> {
  const data = await readJsonOrNull(review.begin);
  if (!isRecord(data)) return null;
  const { head, tree, at } = data;
  if ((head !== null && typeof head !== 'string') || typeof tree !== 'string' || typeof at !== 'string') return null;
  return { head, tree, at };
}

export async function writeBegin(review: ReviewDir, record: Omit<BeginRecord, 'at'>): Promise<BeginRecord> {
  const full = { ...record, at: localIsoTime() };
  await writeFileAtomic(review.begin, `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

/**
 * The round material.json holds, from its `source`. The emitter writes `source` near the
 * top and closes the file with `]\n}\n`, so the fast path reads the first few KiB and
 * the last bytes instead of parsing and validating megabytes of entries (0.1 s on a
 * 17 MB material): a file cut short fails the check of its end, and anything else
 * (another layout, a head that does not parse) is read whole and validated against
 * the material schema, as before.
 */
export async function readPreviousRound(review: ReviewDir): Promise<PreviousRound | null> {
  const quick = await readMaterialHead(review.material).catch(() => undefined);
  if (quick !== undefined) return quick;
  const { Material } = await import('../../schemas/material');
  const parsed = Material.safeParse(await readJsonOrNull(review.material));
  if (!parsed.success) return null;
  return previousFrom(parsed.data.source);
}

function previousFrom(source: { round?: number; tree?: string; head?: string | null }): PreviousRound | null {
  const { round, tree, head } = source;
  return round && tree ? { round, tree, head: head ?? null } : null;
}

const HEAD_BYTES = 64 * 1024;
const MATERIAL_END = ']\n}\n';

/**
 * The previous round from the head and the end of material.json as the emitter writes
 * it: `null` when the file is missing or its source names no round; `undefined` when
 * the quick reading cannot decide (the caller then parses the whole file).
 */
async function readMaterialHead(file: string): Promise<PreviousRound | null | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    if (size < MATERIAL_END.length) return undefined;
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const tail = Buffer.alloc(MATERIAL_END.length);
    const [{ bytesRead }, end] = await Promise.all([
      handle.read(head, 0, head.length, 0),
      handle.read(tail, 0, tail.length, size - tail.length),
    ]);
    if (bytesRead !== head.length || end.bytesRead !== tail.length || tail.toString('latin1') !== MATERIAL_END) return undefined;
    const top = topLevelFields(head.toString('utf8'), ['contract', 'source', 'generated'], 'material');
    if (!top) return undefined;
    const { contract, source, generated } = top;
    if (contract !== 1 || typeof generated !== 'string' || !isSource(source)) return undefined;
    return previousFrom(source);
  } finally {
    await handle.close();
  }
}

/** The material schema's `source`, checked by hand (it keeps unknown keys, as the schema does). */
function isSource(value: unknown): value is { round?: number; tree?: string; head?: string | null } {
  if (!isRecord(value)) return false;
  const { kind, id, root, request, base, base_reason, head, tree, round } = value;
  const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
  return (
    typeof kind === 'string' &&
    typeof id === 'string' &&
    typeof root === 'string' &&
    request === null &&
    optionalString(base) &&
    optionalString(base_reason) &&
    (head === null || optionalString(head)) &&
    optionalString(tree) &&
    (round === undefined || (typeof round === 'number' && Number.isInteger(round) && round > 0))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The values of the top-level keys of a JSON object that come before `stop`, read from
 * the start of its text: `null` when `stop` is not reached within the text, a key is
 * repeated, or something does not parse.
 */
export function topLevelFields(text: string, wanted: string[], stop: string): Record<string, unknown> | null {
  const found: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return null;
  at++;
  for (;;) {
    at = skipSpace(text, at);
    if (text[at] !== '"') return null;
    const keyEnd = stringEnd(text, at);
    if (keyEnd === -1) return null;
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text[at] !== ':') return null;
    at = skipSpace(text, at + 1);
    if (key === stop) return text[at] === '[' ? found : null;
    if (Object.hasOwn(found, key)) return null;
    const valueEnd = valueEndAt(text, at);
    if (valueEnd === -1) return null;
    const raw = text.slice(at, valueEnd);
    try {
      found[key] = wanted.includes(key) ? JSON.parse(raw) : undefined;
    } catch {
      return null;
    }
    at = skipSpace(text, valueEnd);
    if (text[at] !== ',') return null;
    at++;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at++;
  return at;
}

/** Index just past the string starting at `at` (a `"`), or -1 when it does not end in the text. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `at`, or -1 when it does not end in the text. */
function valueEndAt(text: string, at: number): number {
  if (text[at] === '"') return stringEnd(text, at);
  if (text[at] !== '{' && text[at] !== '[') {
    let i = at;
    while (i < text.length && !',}] \n\r\t'.includes(text[i]!)) i++;
    return i < text.length ? i : -1;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i) - 1;
      if (i < 0) return -1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * The next round number: one past the last material's round, every pinned round ref and
 * every kept round folder, so a pinned tree is never moved (worktrees of one repository
 * share refs) and a kept round is never written over.
 */
export async function nextRoundNumber(repo: Repo, review: ReviewDir, previous: PreviousRound | null): Promise<number> {
  const pinned = takeEarly('rounds', repo.root).then((early) => early ?? repo.git.runBytes(ROUND_REFS));
  const [refs, kept] = await Promise.all([pinned.then((answer) => answer.toString('utf8')), keptRounds(review)]);
  let highest = Math.max(previous?.round ?? 0, ...kept);
  for (const ref of refs.split('\n')) {
    const n = Number(ref.slice('refs/involut/rounds/'.length));
    if (Number.isInteger(n) && n > highest) highest = n;
  }
  return highest + 1;
}

/** `.review/rounds/`: one folder per round, holding that round's material.json as it was written. */
export const keptRoundsDir = (review: ReviewDir) => path.join(review.dir, 'rounds');
export const keptMaterial = (review: ReviewDir, n: number) => path.join(keptRoundsDir(review), String(n), 'material.json');

/** The numbers of the round folders in `.review/rounds/`, ascending. */
export async function keptRounds(review: ReviewDir): Promise<number[]> {
  const names = await readdir(keptRoundsDir(review)).catch(() => [] as string[]);
  return names
    .filter((name) => /^[1-9]\d*$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Takes `.review/rounds/<n>/` for the round about to be written: the folder is made, or
 * `false` when it exists already (mkdir is atomic, so two emissions never share one).
 */
export async function claimRound(review: ReviewDir, n: number): Promise<boolean> {
  await mkdir(keptRoundsDir(review), { recursive: true });
  try {
    await mkdir(path.dirname(keptMaterial(review, n)));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Gives back a claimed round folder when the emission failed (only while it is still empty). */
export async function releaseRound(review: ReviewDir, n: number): Promise<void> {
  await rmdir(path.dirname(keptMaterial(review, n))).catch(() => {});
}

/** Where the copy of a round's material is written alongside material.json, before `keepRound` links it into place. */
export const keptCopy = (review: ReviewDir, n: number) => path.join(path.dirname(keptMaterial(review, n)), `.material.json.${process.pid}.tmp`);

/**
 * Keeps the material just written as `.review/rounds/<n>/material.json`: its copy, written
 * alongside as `written` (see `keptCopy`), is linked into place, which appears whole and
 * fails rather than replace a file already there.
 */
export async function keepRound(review: ReviewDir, n: number, written: string): Promise<void> {
  const kept = keptMaterial(review, n);
  try {
    await link(written, kept).catch(async (error: NodeJS.ErrnoException) => {
      // A file system without hard links: the folder was claimed for this round, so a rename is safe.
      if (error.code === 'EEXIST' || (await stat(kept).catch(() => null))) throw error;
      await rename(written, kept);
    });
  } finally {
    await rm(written, { force: true });
  }
}

/**
 * Pins a round's tree under `refs/involut/rounds/<n>` through a `git update-ref --stdin`
 * started ahead, while the process is small (a spawn costs more the more memory it holds).
 * `pin` makes the one update and waits for git; `close` ends git when nothing was pinned.
 */
export function startPinning(repo: Repo): { pin(n: number, tree: string): Promise<void>; close(): Promise<void> } {
  const git = repo.git.start(['update-ref', '--stdin', '-z']);
  let ended: Promise<unknown> | null = null;
  return {
    pin: async (n, tree) => {
      ended = git.answer(Buffer.from(`update ${roundRef(n)}\0${tree}\0\0`));
      await ended;
    },
    close: async () => {
      await (ended ??= git.answer()).catch(() => {});
    },
  };
}
