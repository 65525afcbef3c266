import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { LineCounts } from '../git/diff';
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
  private fd: number | null = null;
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  /** What was written, while it is held in memory (see the constructor); null once in the file. */
  private held: Buffer[] | null = null;
  private heldBytes = 0;

  /**
   * Opens `.<name>.<pid>.<time>[.<tag>].tmp` next to `file` (whose folder must exist). With
   * `holdUpTo`, what is written stays in memory up to that many bytes, and the file is only
   * made past them: a part that is appended to another file (see `append`) then costs no
   * write and read back.
   */
  constructor(
    private readonly file: string,
    tag = '',
    private readonly holdUpTo = 0,
  ) {
    this.temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}${tag ? `.${tag}` : ''}.tmp`);
    if (holdUpTo > 0) this.held = [];
    else this.fd = openSync(this.temporary, 'wx');
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > BUFFER_BYTES - this.used) {
      this.flush();
      if (text.length * 3 > BUFFER_BYTES) {
        this.put(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** Writes UTF-8 text as a JSON string, escaped straight from its bytes (see `jsonEscape`), a piece at a time; `lines` counts its +/- lines on the way. */
  writeJsonString(text: Buffer, lines?: LineCounts): void {
    this.write('"');
    for (let at = 0; at < text.length; at += ESCAPE_PIECE) {
      const piece = text.subarray(at, at + ESCAPE_PIECE);
      if (jsonEscapeRoom(piece.length) > BUFFER_BYTES - this.used) this.flush();
      this.used = jsonEscape(piece, this.buffer, this.used, lines);
    }
    this.write('"');
  }

  /** Writes ASCII text over what was written at byte `at` (a stand-in of the same length). */
  writeAt(at: number, text: string): void {
    this.flush();
    const bytes = Buffer.from(text, 'latin1');
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd!, bytes, done, bytes.length - done, at + done);
  }

  /** Appends everything written to another one (a part written alongside this one), which is then removed. */
  append(other: MaterialFile): void {
    this.flush();
    other.flush();
    if (other.held) {
      for (const bytes of other.held) this.put(bytes);
    } else {
      other.close();
      const from = openSync(other.temporary, 'r');
      try {
        for (;;) {
          const read = readSync(from, this.buffer, 0, BUFFER_BYTES, null);
          if (read === 0) break;
          this.put(this.buffer.subarray(0, read));
        }
      } finally {
        closeSync(from);
      }
    }
    other.abort();
  }

  /** Writes what is buffered and closes the file. */
  close(): void {
    this.flush();
    if (this.held) this.spill(); // a file held in memory is made when it is closed
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
  }

  /** Closes and moves the file into place. */
  commit(): void {
    this.close();
    renameSync(this.temporary, this.file);
  }

  /** Closes and removes the temporary file (and drops what was held). */
  abort(): void {
    this.held = null;
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
    const bytes = this.buffer.subarray(0, this.used);
    if (this.held && this.heldBytes + bytes.length <= this.holdUpTo) {
      // Held as it is: the buffer is handed over and a new one taken.
      this.held.push(bytes);
      this.heldBytes += bytes.length;
      this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    } else {
      this.put(bytes);
    }
    this.used = 0;
  }

  /** Writes bytes after what was written (held ones first go to the file, once past what may be held). */
  private put(bytes: Buffer): void {
    if (this.held) {
      if (this.heldBytes + bytes.length <= this.holdUpTo) {
        this.held.push(Buffer.from(bytes));
        this.heldBytes += bytes.length;
        return;
      }
      this.spill();
    }
    writeAll(this.fd!, bytes);
  }

  /** Makes the temporary file and writes what was held into it. */
  private spill(): void {
    const held = this.held!;
    this.held = null;
    this.fd = openSync(this.temporary, 'wx');
    for (const bytes of held) writeAll(this.fd, bytes);
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}
