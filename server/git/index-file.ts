import { readFile } from 'node:fs/promises';

/**
 * The file size git recorded for each path of an index file (stage 0 and others alike;
 * the last entry of a path wins), read straight from the file: versions 2, 3 and 4 of
 * git's index format, SHA-1 or SHA-256 ids. `null` when the file cannot be read or is not
 * an index this understands. For weighing work only (sizes are 32-bit, taken from the
 * working files' stat data), never for what is written.
 */
export async function indexSizes(file: string, hashBytes: number): Promise<Map<string, number> | null> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return null;
  }
  try {
    return parseSizes(data, hashBytes);
  } catch {
    return null;
  }
}

const FIXED = 40; // ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each)
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

function parseSizes(data: Buffer, hashBytes: number): Map<string, number> | null {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = data.readUInt32BE(8);
  const sizes = new Map<string, number>();
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    const size = data.readUInt32BE(start + 36);
    const flags = data.readUInt16BE(start + FIXED + hashBytes);
    let name = start + FIXED + hashBytes + 2;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      name += 2;
    }
    let path: Buffer;
    if (version === 4) {
      // A varint: how many bytes to drop from the end of the previous path, then the rest, NUL-ended.
      let byte = data[name++]!;
      let strip = byte & 127;
      while (byte & 128) {
        byte = data[name++]!;
        strip = ((strip + 1) << 7) + (byte & 127);
      }
      const end = data.indexOf(0, name);
      if (end === -1 || strip > previous.length) return null;
      path = Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(name, end)]);
      at = end + 1;
    } else {
      const length = flags & NAME_MASK;
      const end = length < NAME_MASK ? name + length : data.indexOf(0, name);
      if (end === -1 || end > data.length) return null;
      path = data.subarray(name, end);
      // The entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
    }
    if (at > data.length) return null;
    sizes.set(path.toString('utf8'), size);
    previous = path;
  }
  return sizes;
}
