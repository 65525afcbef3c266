import { createHash } from 'node:crypto';
import { closeSync, fsync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writev, writeSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { adler32 } from './adler32';

/** An object to store, its id already computed (see `objectId`): a blob unless said otherwise. */
export interface PackedObject {
  oid: string;
  content: Buffer;
  type?: 'blob' | 'tree';
}

/** The git id of an object: SHA-1 of `<type> <size>\0` and the content. */
export function objectId(type: 'blob' | 'tree', content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** The git id of a blob. */
export const blobId = (content: Buffer) => objectId('blob', content);

/**
 * Writes objects (blobs, trees) into the repository as one pack (`pack-<checksum>.pack` and its `.idx`,
 * version 2 of both formats, SHA-1 ids), as `git add` stores them in bulk, so that git
 * reads them like any object it wrote itself. Each object is deflated at level 0 (zlib's
 * stored blocks: still zlib, so every git inflates it; `git gc` recompresses the pack
 * later), which costs a checksum instead of compression (see `PackOutput` for how the
 * bytes reach the file). Both files
 * are flushed to disk (in the background, while the caller goes on) before the index
 * that makes the pack visible is moved into place, last, as git does: a pack appears whole
 * or not at all. Resolves with the pack's path once it is in place.
 */
export function writePack(packDir: string, objects: PackedObject[]): Promise<string> {
  return startPack(packDir, objects).placed;
}

/**
 * `writePack`, with the pack readable sooner by gits of this process: with `view` (a
 * folder on the same file system, see `PackView`), the pack and its index are linked into
 * `view/pack/` as soon as they are written, before they are flushed to disk, and `readable`
 * resolves then; a git given the view as an alternate object directory reads them from
 * there while the flush goes on. The repository itself sees the pack only once `placed`,
 * flushed, as always. Without a view, or where the file system has no hard links,
 * `readable` is `placed`.
 */
export function startPack(packDir: string, objects: PackedObject[], view?: string): { readable: Promise<void>; placed: Promise<string> } {
  const temporary = path.join(packDir, `tmp_involut_${process.pid}_${Date.now()}_${++packsStarted}`);
  const fd = openSync(`${temporary}.pack`, 'wx', 0o444);
  const offsets: number[] = [];
  const crcs: number[] = [];
  const out = new PackOutput(fd);
  let checksum: Buffer;
  try {
    const header = out.room(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(objects.length, 8);
    for (const object of objects) {
      offsets.push(out.offset);
      crcs.push(packObject(out, object.type === 'tree' ? TREE : BLOB, object.content));
    }
    checksum = out.finish();
  } catch (error) {
    // Writes already under way end before the file goes.
    const remove = () => {
      closeSync(fd);
      rmSync(`${temporary}.pack`, { force: true });
    };
    out.written().then(remove, remove);
    throw error;
  }
  const index = packIndex(objects, offsets, crcs, checksum);
  const name = `pack-${checksum.toString('hex')}`;
  let shown!: () => void;
  let failed!: (error: unknown) => void;
  const readable = new Promise<void>((resolve, reject) => ((shown = resolve), (failed = reject)));
  readable.catch(() => {});
  const placed = (async () => {
    let indexFd: number | null = null;
    try {
      await out.written();
      indexFd = openSync(`${temporary}.idx`, 'wx', 0o444);
      writeAll(indexFd, index);
      if (view !== undefined && linkInto(view, temporary, name)) shown();
      await Promise.all([flushed(fd), flushed(indexFd)]);
      await rename(`${temporary}.pack`, path.join(packDir, `${name}.pack`));
      await rename(`${temporary}.idx`, path.join(packDir, `${name}.idx`));
      return path.join(packDir, `${name}.pack`);
    } catch (error) {
      await Promise.all([rm(`${temporary}.pack`, { force: true }), rm(`${temporary}.idx`, { force: true })]);
      throw error;
    } finally {
      closeSync(fd);
      if (indexFd !== null) closeSync(indexFd);
    }
  })();
  placed.then(() => shown(), failed); // once shown, a failure is met where `placed` is awaited
  placed.catch(() => {});
  return { readable, placed };
}

/** Resolves once the file open as `fd` is flushed to disk (fsync, on the thread pool). */
function flushed(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Removes the views a round left behind when it was stopped before it could (Ctrl-C, say):
 * hard links only, the packs stay in the repository. A view under an hour old may be a
 * round running now, and is left.
 */
function removeStaleViews(objectsDir: string): void {
  try {
    for (const name of readdirSync(objectsDir)) {
      if (!name.startsWith(VIEW_PREFIX)) continue;
      const dir = path.join(objectsDir, name);
      if (Date.now() - statSync(dir).mtimeMs > STALE_VIEW_MS) rmSync(dir, { recursive: true, force: true });
    }
  } catch {
    // tidying only: a view that cannot go stays
  }
}

const VIEW_PREFIX = 'involut-view-';
const STALE_VIEW_MS = 60 * 60 * 1000;

/** Links a written pack and its index into `view/pack/` under their final names; false where that cannot be done. */
function linkInto(view: string, temporary: string, name: string): boolean {
  try {
    linkSync(`${temporary}.pack`, path.join(view, 'pack', `${name}.pack`));
    linkSync(`${temporary}.idx`, path.join(view, 'pack', `${name}.idx`));
    return true;
  } catch {
    return false;
  }
}

/**
 * A folder of the capture's packs for the capture's own gits (see `startPack`): made in
 * the repository's object folder (hard links need the same file system), named as an
 * alternate object directory in `env`, and removed with everything in it by `dispose`
 * (the packs stay in the repository).
 */
export interface PackView {
  dir: string;
  env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: string };
  dispose(): Promise<void>;
}

export function makePackView(objectsDir: string): PackView | null {
  // The variable is a list: a folder whose name holds its separator (or a quote) is not offered.
  if (objectsDir.includes(path.delimiter) || objectsDir.includes('"')) return null;
  removeStaleViews(objectsDir);
  try {
    const dir = mkdtempSync(path.join(objectsDir, VIEW_PREFIX));
    mkdirSync(path.join(dir, 'pack'));
    return { dir, env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: dir }, dispose: () => rm(dir, { recursive: true, force: true }) };
  } catch {
    return null; // an object folder Involut may not write into: the packs are read once placed
  }
}

/** Packs this process started writing, so that two started in the same millisecond get different names. */
let packsStarted = 0;

const TREE = 2;
const BLOB = 3;
const STORED_BLOCK = 65535;

/**
 * The pack file being written: the objects' bytes are not copied, but handed to the kernel
 * where they lie, between small headers laid out in a staging buffer, a batch at a time
 * (about a mebibyte, or a few hundred pieces) by one `writev` on the thread pool: the main
 * thread only hashes, while another copies into the page cache (that copy was a third of
 * what writing a pack cost it). The bytes must stay as they are until `written()`.
 */
class PackOutput {
  /** Bytes laid out so far: where the next one goes in the file. */
  offset = 0;
  private pieces: Buffer[] = [];
  private piecesBytes = 0;
  private staging = Buffer.allocUnsafe(STAGING_BYTES);
  private staged = 0;
  /** Where the staged bytes not yet among `pieces` start. */
  private stagedFrom = 0;
  private readonly hash = createHash('sha1');
  private writtenTo = 0;
  private readonly writes: Promise<void>[] = [];

  constructor(private readonly fd: number) {}

  /** `n` bytes of the staging buffer to fill (a header), written after what came before. */
  room(n: number): Buffer {
    if (n > this.staging.length - this.staged) {
      this.takeStaged();
      this.staging = Buffer.allocUnsafe(Math.max(STAGING_BYTES, n));
      this.staged = 0;
      this.stagedFrom = 0;
    }
    this.staged += n;
    this.offset += n;
    return this.staging.subarray(this.staged - n, this.staged);
  }

  /** Bytes written as they are (an object's content), not copied. */
  put(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.takeStaged();
    this.pieces.push(bytes);
    this.piecesBytes += bytes.length;
    this.offset += bytes.length;
    if (this.piecesBytes >= BATCH_BYTES || this.pieces.length >= BATCH_PIECES) this.flush();
  }

  /** Writes the pack's checksum after everything, and returns it; the writes go on until `written()`. */
  finish(): Buffer {
    this.flush();
    const checksum = this.hash.digest();
    this.writes.push(writeAt(this.fd, [checksum], this.writtenTo));
    return checksum;
  }

  /** Resolves once every write ended (rejects with the first that failed). */
  async written(): Promise<void> {
    for (const settled of await Promise.allSettled(this.writes)) if (settled.status === 'rejected') throw settled.reason;
  }

  private takeStaged(): void {
    if (this.staged === this.stagedFrom) return;
    this.pieces.push(this.staging.subarray(this.stagedFrom, this.staged));
    this.piecesBytes += this.staged - this.stagedFrom;
    this.stagedFrom = this.staged;
  }

  private flush(): void {
    this.takeStaged();
    if (this.pieces.length === 0) return;
    for (const piece of this.pieces) this.hash.update(piece);
    const write = writeAt(this.fd, this.pieces, this.writtenTo);
    write.catch(() => {}); // met in written()
    this.writes.push(write);
    this.writtenTo += this.piecesBytes;
    this.pieces = [];
    this.piecesBytes = 0;
  }
}

/** A batch of pieces goes to the file once it holds this many bytes… */
const BATCH_BYTES = 1 << 20;
/** …or this many pieces (writev takes at most 1,024). */
const BATCH_PIECES = 512;
/** Headers are laid out in buffers of this size. */
const STAGING_BYTES = 64 << 10;

/** Writes the pieces at `position`, all of them (a write may take fewer bytes than asked), on the thread pool. */
function writeAt(fd: number, pieces: Buffer[], position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const next = (left: Buffer[], at: number) =>
      writev(fd, left, at, (error, bytes) => {
        if (error) return reject(error);
        let rest = bytes;
        while (left.length > 0 && rest >= left[0]!.length) rest -= left.shift()!.length;
        if (left.length === 0) return resolve();
        left[0] = left[0]!.subarray(rest);
        next(left, at + bytes);
      });
    next([...pieces], position);
  });
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Writes one pack entry: the type-and-size header, zlib's two-byte header, each stored
 * block's five-byte header and its part of the content, then the Adler-32. Returns the
 * entry's CRC-32 (for the index). Headers are laid out in the staging buffer, the content
 * passed on as it is.
 */
function packObject(out: PackOutput, type: number, content: Buffer): number {
  const head = entryHead(type, content.length);
  const blocks = Math.max(1, Math.ceil(content.length / STORED_BLOCK));
  const adler = adler32(content);
  const headRoom = out.room(head.length);
  head.copy(headRoom);
  let crc = crc32(headRoom);
  for (let block = 0; block < blocks; block++) {
    const start = block * STORED_BLOCK;
    const end = Math.min(start + STORED_BLOCK, content.length);
    const blockHead = out.room(5);
    storedBlockHead(blockHead, 0, end - start, block === blocks - 1);
    crc = crc32(blockHead, crc);
    const part = content.subarray(start, end);
    // Not for an empty part: zlib.crc32 of an empty view answers 0, not the CRC it was given.
    if (part.length > 0) crc = crc32(part, crc);
    out.put(part);
  }
  const trailer = out.room(4);
  trailer.writeUInt32BE(adler, 0);
  return crc32(trailer, crc);
}

/** A pack entry's type-and-size header (size in 4 then 7-bit groups) and zlib's two-byte header. */
function entryHead(type: number, length: number): Buffer {
  const head: number[] = [];
  let size = length;
  let byte = (type << 4) | (size & 15);
  size = Math.floor(size / 16);
  while (size > 0) {
    head.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  head.push(byte);
  head.push(0x78, 0x01); // zlib: deflate with a 32 KiB window, no dictionary ((0x78 << 8 | 0x01) % 31 === 0)
  return Buffer.from(head);
}

/** Writes a stored block's header (final flag, length, its complement) at `at`; returns where it ends. */
function storedBlockHead(into: Buffer, at: number, length: number, last: boolean): number {
  into[at] = last ? 1 : 0; // BFINAL, BTYPE 00 (stored)
  into.writeUInt16LE(length, at + 1);
  into.writeUInt16LE(~length & 0xffff, at + 3);
  return at + 5;
}

/** The `.idx` (version 2) of a pack: a fan-out table, the sorted ids, their CRC-32s and offsets, both checksums. */
function packIndex(objects: PackedObject[], offsets: number[], crcs: number[], packChecksum: Buffer): Buffer {
  const order = objects.map((_, i) => i).sort((x, y) => (objects[x]!.oid < objects[y]!.oid ? -1 : 1));
  const n = objects.length;
  const large = offsets.filter((o) => o >= 0x80000000).length;
  const out = Buffer.alloc(8 + 256 * 4 + n * (20 + 4 + 4) + large * 8 + 20 + 20);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Array<number>(256).fill(0);
  for (const object of objects) fanout[parseInt(object.oid.slice(0, 2), 16)]!++;
  let at = 8;
  let running = 0;
  for (const count of fanout) {
    running += count;
    out.writeUInt32BE(running, at);
    at += 4;
  }
  for (const i of order) at += out.write(objects[i]!.oid, at, 'hex');
  for (const i of order) at = out.writeUInt32BE(crcs[i]!, at);
  let nextLarge = 0;
  const largeAt = at + n * 4;
  for (const i of order) {
    const o = offsets[i]!;
    if (o < 0x80000000) {
      at = out.writeUInt32BE(o, at);
    } else {
      at = out.writeUInt32BE((0x80000000 | nextLarge) >>> 0, at);
      out.writeBigUInt64BE(BigInt(o), largeAt + nextLarge * 8);
      nextLarge++;
    }
  }
  at = largeAt + large * 8;
  at += packChecksum.copy(out, at);
  createHash('sha1').update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}
