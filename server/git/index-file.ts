import { readFile } from 'node:fs/promises';

/** What Involut reads of one index entry. */
export interface IndexEntry {
  path: string;
  /** The path's exact bytes, as Latin-1 (one character per byte: what trees hold, UTF-8 or not). */
  rawPath: string;
  /** The entry's mode: 100644, 100755, 120000 (symlink), 160000 (submodule), as an octal string. */
  mode: string;
  /** The blob (or submodule commit) id, in hex. */
  oid: string;
  /** 0, or 1–3 for the sides of an unresolved merge conflict. */
  stage: number;
  /** The file size git recorded (32 bits, from the working file's stat data). */
  size: number;
  /** Outside the sparse-checkout cone (the file is not in the working tree). */
  skipWorktree: boolean;
  /** Marked assume-unchanged (`update-index --assume-unchanged`). */
  assumeValid: boolean;
  /** Added with `git add -N`: listed, its content not staged yet. */
  intentToAdd: boolean;
}

/** The entries of an index file and the signatures of its extensions (`TREE`, `link`, `sdir`…). */
export interface IndexFile {
  entries: IndexEntry[];
  extensions: string[];
  /** The cache-tree extension's bytes (`TREE`), when there is one. */
  cacheTree: Buffer | null;
}

/**
 * An index file read straight from disk: versions 2, 3 and 4 of git's index format,
 * SHA-1 or SHA-256 ids. `null` when the file cannot be read or is not an index this
 * understands. For planning and weighing work only, never for what is written.
 */
export async function readIndexFile(file: string, hashBytes: number): Promise<IndexFile | null> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return null;
  }
  try {
    return parseIndex(data, hashBytes);
  } catch {
    return null;
  }
}


const FIXED = 40; // ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each)
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_SHIFT = 12;
const SKIP_WORKTREE = 0x4000; // in the extended flags
const INTENT_TO_ADD = 0x2000; // in the extended flags
const NAME_MASK = 0x0fff;

function parseIndex(data: Buffer, hashBytes: number): IndexFile | null {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = data.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    const mode = data.readUInt32BE(start + 24);
    const size = data.readUInt32BE(start + 36);
    const flags = data.readUInt16BE(start + FIXED + hashBytes);
    let name = start + FIXED + hashBytes + 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      extended = data.readUInt16BE(name);
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
    entries.push({
      path: path.toString('utf8'),
      rawPath: path.toString('latin1'),
      mode: mode.toString(8),
      oid: data.toString('hex', start + FIXED, start + FIXED + hashBytes),
      stage: (flags >> STAGE_SHIFT) & 3,
      size,
      skipWorktree: (extended & SKIP_WORKTREE) !== 0,
      assumeValid: (flags & ASSUME_VALID) !== 0,
      intentToAdd: (extended & INTENT_TO_ADD) !== 0,
    });
    previous = path;
  }
  // Extensions: a 4-byte signature and a 4-byte size each, up to the trailing checksum.
  const extensions: string[] = [];
  let cacheTree: Buffer | null = null;
  while (at + 8 <= data.length - hashBytes) {
    const signature = data.toString('latin1', at, at + 4);
    const size = data.readUInt32BE(at + 4);
    extensions.push(signature);
    if (signature === 'TREE') cacheTree = data.subarray(at + 8, at + 8 + size);
    at += 8 + size;
  }
  return { entries, extensions, cacheTree };
}
