import { isUtf8 } from 'node:buffer';
import { DIFF_FLAGS, WITHOUT_REVIEW, exited } from './git';
import { pathFromGit, splitBytes } from './path-bytes';
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
  /** The exact bytes of `path` (and `from`), present only when they are not valid UTF-8 (see `pathFromGit`). */
  pathBytes?: Buffer;
  fromBytes?: Buffer;
  /** How alike a rename's two sides are, in percent (git's `R086` is 86). */
  similarity?: number;
}

/** A raw change with its patch text, as git printed it. */
export interface FileDiff {
  change: RawChange;
  binary: boolean;
  /** The hunks from the first `@@` to the end, exact bytes (empty when there is none). */
  hunks: Buffer;
}

export const ZERO_OID = /^0+$/;
const RAW_END = Buffer.from('\0\0');
const FOLDER = '040000';
const SECTION_START = Buffer.from('\ndiff --git ');

/** The git command that makes a round's diff: raw records, then every file's patch. */
export function roundDiff(base: string, tree: string): string[] {
  return ['diff', ...DIFF_FLAGS, '--raw', '-p', '-z', '-M', '-t', '--no-abbrev', base, tree, ...WITHOUT_REVIEW];
}

/**
 * Runs one `git diff --raw -p -z -M -t` between base and tree and yields each file's
 * change with its patch, in git's order, holding at most one file's patch in memory.
 * `onChanges` receives the whole change list before the first patch is yielded, so
 * per-file facts (sizes, attributes, commits) can be looked up in batches meanwhile, and
 * the ids of the folders the tree changed or added (`-t`: raw records of their own, no patch).
 */
export function diffTrees(
  repo: Repo,
  base: string,
  tree: string,
  onChanges: (changes: RawChange[], folders: string[]) => Promise<void>,
): AsyncGenerator<FileDiff> {
  // Started now, not at the first read, so git is at work while the caller starts its lookups.
  const child = repo.git.spawn(roundDiff(base, tree));
  child.stdin.end();
  return readDiff(child, onChanges);
}

async function* readDiff(
  child: ReturnType<Repo['git']['spawn']>,
  onChanges: (changes: RawChange[], folders: string[]) => Promise<void>,
): AsyncGenerator<FileDiff> {
  const done = exited(child, 'git diff');
  done.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  let head: Buffer[] = [];
  let changes: RawChange[] | null = null;
  const splitter = new SectionSplitter();
  const pending: Buffer[] = [];
  let next = 0;
  const drain = function* (sections: Buffer[]): Generator<FileDiff> {
    pending.push(...sections);
    // A type change prints two sections (a deletion, then a creation) for one raw record.
    while (changes && next < changes.length) {
      const change = changes[next]!;
      const need = change.status === 'T' ? 2 : 1;
      if (pending.length < need) return;
      yield toFileDiff(change, pending.splice(0, need));
      next++;
    }
  };
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      if (changes !== null) {
        yield* drain(splitter.push(chunk));
        continue;
      }
      head.push(chunk);
      const joined = Buffer.concat(head);
      const end = joined.indexOf(RAW_END);
      if (end === -1) continue;
      changes = await listed(parseRaw(joined.subarray(0, end + 1)), onChanges);
      head = [];
      yield* drain(splitter.push(joined.subarray(end + 2)));
    }
    await done;
  } finally {
    child.kill(); // a reader that stopped early (a failure) leaves git no one to write to
  }
  if (changes === null) {
    // No separator: either nothing changed, or only raw records came (no patch at all).
    changes = await listed(parseRaw(Buffer.concat(head)), onChanges);
  }
  yield* drain(splitter.end());
  if (next !== changes.length) {
    throw new Error(`git diff printed patches for ${next} of ${changes.length} changed files`);
  }
}

/** The files among raw records, once `onChanges` is told of them and of the folders. */
async function listed(
  records: RawChange[],
  onChanges: (changes: RawChange[], folders: string[]) => Promise<void>,
): Promise<RawChange[]> {
  const changes = records.filter((c) => c.oldMode !== FOLDER && c.newMode !== FOLDER);
  await onChanges(
    changes,
    records.filter((c) => c.newMode === FOLDER).map((c) => c.newOid),
  );
  return changes;
}

/** The ids of what each change leaves to look at: the new blob, or a deleted file's old one. */
export function liveOids(changes: RawChange[]): string[] {
  return changes.map((c) => (c.status === 'D' ? c.oldOid : c.newOid)).filter((oid) => !ZERO_OID.test(oid));
}

/** Parses `--raw -z` records: `:<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0[<path>\0]`. */
export function parseRaw(raw: Buffer): RawChange[] {
  // Split on NUL before decoding: a path need not be UTF-8, and must keep its bytes.
  const fields = splitBytes(raw, 0);
  const changes: RawChange[] = [];
  for (let i = 0; i < fields.length;) {
    const meta = fields[i++]!.toString('latin1');
    if (!meta.startsWith(':')) continue;
    const [oldMode = '', newMode = '', oldOid = '', newOid = '', score = ''] = meta.slice(1).split(' ');
    // A rename or a copy (which reads as an addition) names its old path first.
    const moved = score[0] === 'R' || score[0] === 'C';
    const from = moved ? pathFromGit(fields[i++]!) : null;
    const path = pathFromGit(fields[i++]!);
    changes.push({
      status: score[0] === 'C' ? 'A' : (score[0] as RawChange['status']),
      oldMode,
      newMode,
      oldOid,
      newOid,
      path: path.text,
      ...(path.bytes ? { pathBytes: path.bytes } : {}),
      ...(from ? { from: from.text } : {}),
      ...(from?.bytes ? { fromBytes: from.bytes } : {}),
      ...(moved ? { similarity: Number(score.slice(1)) } : {}),
    });
  }
  return changes;
}

function toFileDiff(change: RawChange, sections: Buffer[]): FileDiff {
  let binary = false;
  const hunks: Buffer[] = [];
  for (const section of sections) {
    const at = hunkStart(section);
    const header = at === -1 ? section : section.subarray(0, at);
    if (header.includes('\nBinary files ')) binary = true;
    if (at !== -1) hunks.push(section.subarray(at));
  }
  return { change, binary, hunks: hunks.length === 1 ? hunks[0]! : Buffer.concat(hunks) };
}

/** Offset of the first `@@ -` line of a section, or -1. */
export function hunkStart(section: Buffer): number {
  if (section.subarray(0, 4).toString() === '@@ -') return 0;
  const at = section.indexOf('\n@@ -');
  return at === -1 ? -1 : at + 1;
}

/** Counts added and deleted lines in hunk text. */
export function countChanges(hunks: Buffer): { additions: number; deletions: number } {
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
  if (isUtf8(hunks)) return { diff: hunks.toString('utf8') };
  return { diff: hunks.toString('utf8'), diff_base64: hunks.toString('base64') };
}

/**
 * Cuts a patch stream into per-file sections at each `diff --git` line, copying each
 * section once, even when a marker straddles two chunks.
 */
export class SectionSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** The stream's last bytes, too few to hold a marker: where one may have begun. */
  private tail: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    if (chunk.length === 0) return [];
    const view = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    const viewStart = this.size - this.tail.length;
    this.parts.push(chunk);
    this.size += chunk.length;
    this.tail = Buffer.from(view.subarray(Math.max(0, view.length - (SECTION_START.length - 1))));
    const cuts: number[] = [];
    for (let m = view.indexOf(SECTION_START); m !== -1; m = view.indexOf(SECTION_START, m + 1))
      cuts.push(viewStart + m + 1);
    if (cuts.length === 0) return [];
    const all = Buffer.concat(this.parts, this.size);
    const sections: Buffer[] = [];
    let taken = 0;
    for (const cut of cuts) {
      sections.push(all.subarray(taken, cut));
      taken = cut;
    }
    this.parts = taken < all.length ? [all.subarray(taken)] : [];
    this.size = all.length - taken;
    return sections;
  }

  end(): Buffer[] {
    if (this.size === 0) return [];
    const last = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return [last];
  }
}
