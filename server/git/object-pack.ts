import { createHash } from 'node:crypto';
import { closeSync, fsync, openSync, rmSync, writevSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
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
 * later), which costs a checksum instead of compression, and its bytes go to the file
 * straight from the buffer they were read into (gathered writes, no copy). Both files
 * are flushed to disk (in the background, while the caller goes on) before the index
 * that makes the pack visible is moved into place, last, as git does: a pack appears whole
 * or not at all. Resolves with the pack's path once it is in place.
 */
export function writePack(packDir: string, objects: PackedObject[]): Promise<string> {
  const temporary = path.join(packDir, `tmp_involut_${process.pid}_${Date.now()}_${++packsStarted}`);
  const packHash = createHash('sha1');
  const offsets: number[] = [];
  const crcs: number[] = [];
  let offset = 0;
  const fd = openSync(`${temporary}.pack`, 'wx', 0o444);
  const pending: Buffer[] = [];
  const flush = () => {
    for (let done = 0; done < pending.length; ) done += writevFully(fd, pending.slice(done, done + MAX_PIECES));
    pending.length = 0;
  };
  const put = (bytes: Buffer) => {
    pending.push(bytes);
    offset += bytes.length;
    if (pending.length >= MAX_PIECES) flush();
  };
  let checksum: Buffer;
  try {
    const header = Buffer.alloc(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(objects.length, 8);
    packHash.update(header);
    put(header);
    for (const object of objects) {
      offsets.push(offset);
      let crc = 0;
      for (const piece of packedObject(object.type === 'tree' ? TREE : BLOB, object.content)) {
        packHash.update(piece);
        crc = crc32(piece, crc);
        put(piece);
      }
      crcs.push(crc);
    }
    checksum = packHash.digest();
    put(checksum);
    flush();
  } catch (error) {
    closeSync(fd);
    rmSync(`${temporary}.pack`, { force: true });
    throw error;
  }
  const index = packIndex(objects, offsets, crcs, checksum);
  const name = path.join(packDir, `pack-${checksum.toString('hex')}`);
  const placed = (async () => {
    try {
      await new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
      const indexFile = await open(`${temporary}.idx`, 'wx', 0o444);
      try {
        await indexFile.writeFile(index);
        await indexFile.sync();
      } finally {
        await indexFile.close();
      }
      await rename(`${temporary}.pack`, `${name}.pack`);
      await rename(`${temporary}.idx`, `${name}.idx`);
      return `${name}.pack`;
    } catch (error) {
      await Promise.all([rm(`${temporary}.pack`, { force: true }), rm(`${temporary}.idx`, { force: true })]);
      throw error;
    } finally {
      closeSync(fd);
    }
  })();
  return placed;
}

/** Packs this process started writing, so that two started in the same millisecond get different names. */
let packsStarted = 0;

/** Pieces per gathered write (Linux takes at most 1,024). */
const MAX_PIECES = 1024;

/** Writes all of `pieces` with one or more `writev`; returns how many pieces that was. */
function writevFully(fd: number, pieces: Buffer[]): number {
  let rest = pieces;
  while (rest.length) {
    let written = writevSync(fd, rest);
    let i = 0;
    while (i < rest.length && written >= rest[i]!.length) written -= rest[i++]!.length;
    rest = rest.slice(i);
    if (written > 0) rest[0] = rest[0]!.subarray(written);
  }
  return pieces.length;
}

const TREE = 2;
const BLOB = 3;
const STORED_BLOCK = 65535;

/**
 * One pack entry, in pieces: the type-and-size header with zlib's two-byte header, then
 * each stored block's five-byte header and a view of the content, then the Adler-32.
 */
function packedObject(type: number, content: Buffer): Buffer[] {
  const head: number[] = [];
  let size = content.length;
  let byte = (type << 4) | (size & 15);
  size = Math.floor(size / 16);
  while (size > 0) {
    head.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  head.push(byte);
  head.push(0x78, 0x01); // zlib: deflate with a 32 KiB window, no dictionary ((0x78 << 8 | 0x01) % 31 === 0)
  const pieces: Buffer[] = [Buffer.from(head)];
  const blocks = Math.max(1, Math.ceil(content.length / STORED_BLOCK));
  for (let block = 0; block < blocks; block++) {
    const start = block * STORED_BLOCK;
    const length = Math.min(STORED_BLOCK, content.length - start);
    const blockHead = Buffer.allocUnsafe(5);
    blockHead[0] = block === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00 (stored)
    blockHead.writeUInt16LE(length, 1);
    blockHead.writeUInt16LE(~length & 0xffff, 3);
    pieces.push(blockHead);
    if (length > 0) pieces.push(content.subarray(start, start + length));
  }
  const adler = Buffer.allocUnsafe(4);
  adler.writeUInt32BE(adler32(content), 0);
  pieces.push(adler);
  return pieces;
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
