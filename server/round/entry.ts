import path from 'node:path';
import type { ImageSize, MaterialEntry, Status } from '../../schemas/material';
import { countChanges, diffText, ZERO_OID, type FileDiff, type RawChange } from '../git/diff';
import type { Commit } from '../git/log';
import type { BlobReader } from '../git/objects';

const STATUS: Record<RawChange['status'], Status> = {
  A: 'added',
  D: 'deleted',
  M: 'modified',
  T: 'modified',
  R: 'renamed',
};
const SYMLINK = '120000';
const GITLINK = '160000';
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/** Per-file facts looked up in batches before the patches stream in. */
export interface EntryFacts {
  commits: Map<string, Commit[]>;
  sizes: Map<string, number>;
  generated: (file: string) => boolean;
  withheld: (file: string) => string | null;
}

/** Where before copies of binaries go, and under which names. */
export interface BlobStore {
  reader: BlobReader;
  /** `.review/blobs/` on disk; null keeps no before copy (the since-last view reads entries only). */
  dir: string | null;
  /** Short id of the base, part of every blob name. */
  shortBase: string;
  /** Names already handed out this round. */
  taken: Set<string>;
}

/** image-size, loaded with the first binary: most rounds have none. */
let imageSizeModule: Promise<typeof import('image-size')> | null = null;

/** Builds one material entry from git's record and patch of a file. */
export async function buildEntry(file: FileDiff, facts: EntryFacts, blobs: BlobStore): Promise<MaterialEntry> {
  const { change } = file;
  const deleted = change.status === 'D';
  const liveOid = deleted ? change.oldOid : change.newOid;
  const liveMode = deleted ? change.oldMode : change.newMode;
  const entry: MaterialEntry = {
    ref: change.path,
    status: STATUS[change.status],
    binary: file.binary,
    diff: null,
    hash: liveOid.slice(0, 12),
    commits: subjects(facts, change),
  };
  if (change.from) entry.from = change.from;
  if (change.pathBytes) entry.ref_base64 = change.pathBytes.toString('base64');
  if (change.fromBytes) entry.from_base64 = change.fromBytes.toString('base64');
  if (change.status === 'R' && change.similarity !== undefined) entry.similarity = change.similarity;
  const modeChanged =
    change.oldMode !== change.newMode && !ZERO_OID.test(change.oldMode) && !ZERO_OID.test(change.newMode);
  if (modeChanged) entry.mode = { before: change.oldMode, after: change.newMode };
  if (liveMode === SYMLINK) entry.symlink = true;
  if (change.oldMode === GITLINK || change.newMode === GITLINK) {
    entry.submodule = {
      before: change.oldMode === GITLINK ? change.oldOid : null,
      after: change.newMode === GITLINK ? change.newOid : null,
    };
  }
  entry.bytes = liveMode === GITLINK ? null : (facts.sizes.get(liveOid) ?? null);
  if (facts.generated(change.path)) entry.generated = true;

  const withheld = facts.withheld(change.path) ?? (change.from ? facts.withheld(change.from) : null);
  if (withheld) {
    // Listed with its status and reason; nothing of its content leaves git.
    return { ...entry, additions: null, deletions: null, withheld: { reason: withheld } };
  }
  if (file.binary) {
    await addBinaryFacts(entry, change, blobs);
    return { ...entry, additions: null, deletions: null };
  }
  const { additions, deletions } = countChanges(file.hunks);
  return { ...entry, ...diffText(file.hunks), additions, deletions };
}

/** Subjects of the commits that touched the file under its new or old name, each once, oldest first. */
function subjects(facts: EntryFacts, change: RawChange): string[] {
  const touched = [
    ...(facts.commits.get(change.path) ?? []),
    ...(change.from ? (facts.commits.get(change.from) ?? []) : []),
  ];
  if (change.from) touched.sort((a, b) => a.order - b.order);
  return [...new Map(touched.map((c) => [c.id, c.subject])).values()];
}

/** Saves the before copy of a binary and reads image dimensions of both sides. */
async function addBinaryFacts(entry: MaterialEntry, change: RawChange, blobs: BlobStore): Promise<void> {
  imageSizeModule ??= import('image-size');
  const { imageSize } = await imageSizeModule;
  /** Width and height of a PNG, JPEG, GIF or WebP from its first bytes; undefined otherwise. */
  const dimensions = (head: Buffer | null): ImageSize | undefined => {
    if (head === null) return undefined;
    try {
      const { width, height, type } = imageSize(head);
      return ['png', 'jpg', 'gif', 'webp'].includes(type ?? '') ? { w: width, h: height } : undefined;
    } catch {
      return undefined;
    }
  };
  const hasBefore = !ZERO_OID.test(change.oldOid) && change.oldMode !== GITLINK;
  const isImage = IMAGE_EXTENSIONS.has(path.extname(change.path).toLowerCase());
  const saved = hasBefore && blobs.dir !== null ? blobName(entry.ref, blobs) : null;
  // Both sides are asked for at once (git answers the second while the first is read).
  const [before, after] = await Promise.all([
    hasBefore ? blobs.reader.read(change.oldOid, saved === null ? undefined : path.join(blobs.dir!, saved)) : null,
    !ZERO_OID.test(change.newOid) && change.newMode !== GITLINK && isImage ? blobs.reader.read(change.newOid) : null,
  ]);
  if (saved !== null) entry.before = `blobs/${saved}`;
  const [beforeSize, afterSize] = [dimensions(before), dimensions(after)];
  if (beforeSize) entry.before_size = beforeSize;
  if (afterSize) entry.size = afterSize;
}

/** `assets/hero.png` from base `a3f9c21…` → `assets_hero.png.a3f9c21.png`, made unique within the round. */
function blobName(ref: string, blobs: Pick<BlobStore, 'shortBase' | 'taken'>): string {
  const flat = ref.replaceAll('/', '_');
  const extension = path.extname(ref);
  let name = `${flat}.${blobs.shortBase}${extension}`;
  for (let n = 2; blobs.taken.has(name); n++) name = `${flat}.${blobs.shortBase}-${n}${extension}`;
  blobs.taken.add(name);
  return name;
}
