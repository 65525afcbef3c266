import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { jsonEscape, jsonEscapeRoom } from './json-bytes';

const BUFFER_BYTES = 1 << 20;
/** Text escaped into the buffer at a time (each byte may take six). */
const ESCAPE_PIECE = BUFFER_BYTES / 8;

/**
 * A file written piece by piece through a temporary name, appearing whole only on
 * `commit()`. Pieces are encoded straight into one buffer and written a mebibyte at a
 * time, synchronously: a material is tens of thousands of pieces, and a write stream's
 * bookkeeping and thread-pool round trips per piece cost more than the writes to the page
 * cache themselves. A failed write throws where it happens.
 */
export class MaterialFile {
  readonly temporary: string;
  private fd: number | null;
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;

  /** Opens `.<name>.<pid>.<time>[.<tag>].tmp` next to `file` (whose folder must exist). */
  constructor(
    private readonly file: string,
    tag = '',
  ) {
    this.temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}${tag ? `.${tag}` : ''}.tmp`);
    this.fd = openSync(this.temporary, 'wx');
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > BUFFER_BYTES - this.used) {
      this.flush();
      if (text.length * 3 > BUFFER_BYTES) {
        writeAll(this.fd!, Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** Writes UTF-8 text as a JSON string, escaped straight from its bytes (see `jsonEscape`), a piece at a time. */
  writeJsonString(text: Buffer): void {
    this.write('"');
    for (let at = 0; at < text.length; at += ESCAPE_PIECE) {
      const piece = text.subarray(at, at + ESCAPE_PIECE);
      if (jsonEscapeRoom(piece.length) > BUFFER_BYTES - this.used) this.flush();
      this.used = jsonEscape(piece, this.buffer, this.used);
    }
    this.write('"');
  }

  /** Writes ASCII text over what was written at byte `at` (a stand-in of the same length). */
  writeAt(at: number, text: string): void {
    this.flush();
    const bytes = Buffer.from(text, 'latin1');
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd!, bytes, done, bytes.length - done, at + done);
  }

  /** Appends the whole content of another file (a part written alongside this one). */
  append(other: string): void {
    this.flush();
    const from = openSync(other, 'r');
    try {
      for (;;) {
        const read = readSync(from, this.buffer, 0, BUFFER_BYTES, null);
        if (read === 0) break;
        writeAll(this.fd!, this.buffer.subarray(0, read));
      }
    } finally {
      closeSync(from);
    }
  }

  /** Writes what is buffered, closes, and returns the temporary file's name (for `append`). */
  close(): string {
    if (this.fd !== null) {
      try {
        this.flush();
      } finally {
        closeSync(this.fd);
        this.fd = null;
      }
    }
    return this.temporary;
  }

  /** Closes and moves the file into place. */
  commit(): void {
    this.close();
    renameSync(this.temporary, this.file);
  }

  /** Closes and removes the temporary file. */
  abort(): void {
    try {
      if (this.fd !== null) closeSync(this.fd);
    } catch {
      // closing is all that is left to do; the file goes anyway
    }
    this.fd = null;
    rmSync(this.temporary, { force: true });
  }

  private flush(): void {
    if (this.used === 0) return;
    writeAll(this.fd!, this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}
