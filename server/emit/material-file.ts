import { closeSync, openSync, readSync, renameSync, rmSync, write, writeSync } from 'node:fs';
import path from 'node:path';
import type { LineCounts } from '../git/diff';
import { jsonEscape, jsonEscapeRoom } from './json-bytes';

const BUFFER_BYTES = 1 << 20;
/** Text escaped into the buffer at a time (each byte may take six). */
const ESCAPE_PIECE = BUFFER_BYTES / 8;

/**
 * A file written piece by piece through a temporary name, appearing whole only on
 * `commit()`, and optionally a copy of it written alongside (`copyTo`: the kept round, see
 * `keepRound`). Pieces are encoded straight into a mebibyte buffer; each full buffer goes
 * to the file (and the copy) from the thread pool, at its place, while the next one fills:
 * copying a material into the page cache, twice, is no longer the main thread's work, nor
 * the wait at the end of a round. A material is tens of thousands of pieces, so a stream's
 * bookkeeping per piece would cost more than the writes. A failed write fails `commit()`.
 */
export class MaterialFile {
  readonly temporary: string;
  private fds: number[] = [];
  private buffer: Buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  /** What was written, while it is held in memory (see the constructor); null once in the file. */
  private held: Buffer[] | null = null;
  private heldBytes = 0;
  /** Bytes handed to the file so far: where the next ones go. */
  private position = 0;
  /** Buffers whose writes ended, to fill again. */
  private readonly free: Buffer[] = [];
  private writing = 0;
  private drainedWaiters: Array<() => void> = [];
  private failure: unknown = null;
  private aborted = false;

  /**
   * Opens `.<name>.<pid>.<time>[.<tag>].tmp` next to `file` (whose folder must exist), and
   * `copyTo` when given. With `holdUpTo`, what is written stays in memory up to that many
   * bytes, and the file is only made past them: a part that is appended to another file
   * (see `append`) then costs no write and read back.
   */
  constructor(
    private readonly file: string,
    tag = '',
    private readonly holdUpTo = 0,
    readonly copyTo: string | null = null,
  ) {
    this.temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}${tag ? `.${tag}` : ''}.tmp`);
    if (holdUpTo > 0) this.held = [];
    else this.open();
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

  /**
   * Writes UTF-8 text as a JSON string, escaped straight from its bytes (see `jsonEscape`),
   * whole or in pieces (no character split across two), a part at a time; `lines` counts its
   * +/- lines on the way.
   */
  writeJsonString(text: Buffer | Buffer[], lines?: LineCounts): void {
    this.write('"');
    for (const bytes of Array.isArray(text) ? text : [text]) {
      for (let at = 0; at < bytes.length; at += ESCAPE_PIECE) {
        const piece = bytes.subarray(at, at + ESCAPE_PIECE);
        if (jsonEscapeRoom(piece.length) > BUFFER_BYTES - this.used) this.flush();
        this.used = jsonEscape(piece, this.buffer, this.used, lines);
      }
    }
    this.write('"');
  }

  /** Writes ASCII text over what was written at byte `at` (a stand-in of the same length), once the writes before it ended. */
  async writeAt(at: number, text: string): Promise<void> {
    this.flush();
    await this.drained();
    const bytes = Buffer.from(text, 'latin1');
    for (const fd of this.fds) for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
  }

  /** Appends everything written to another one (a part written alongside this one), which is then removed. */
  async append(other: MaterialFile): Promise<void> {
    this.flush();
    other.flush();
    if (other.held) {
      for (const bytes of other.held) this.send(bytes, null);
    } else {
      await other.close();
      const from = openSync(other.temporary, 'r');
      try {
        for (;;) {
          const chunk = this.free.pop() ?? Buffer.allocUnsafe(BUFFER_BYTES);
          const read = readSync(from, chunk, 0, BUFFER_BYTES, null);
          if (read === 0) break;
          this.send(chunk.subarray(0, read), chunk);
        }
      } finally {
        closeSync(from);
      }
    }
    await other.abort();
  }

  /** Writes what is buffered, waits for every write, and closes the file. */
  async close(): Promise<void> {
    this.flush();
    if (this.held) this.spill(); // a file held in memory is made when it is closed
    await this.drained();
    for (const fd of this.fds) closeSync(fd);
    this.fds = [];
    if (this.failure !== null) throw this.failure;
  }

  /** Closes and moves the file into place (the copy stays where it was written, for its owner). */
  async commit(): Promise<void> {
    await this.close();
    renameSync(this.temporary, this.file);
  }

  /** Drops what was held, and removes the temporary file and the copy once their writes ended. */
  async abort(): Promise<void> {
    this.aborted = true;
    this.held = null;
    await this.drained();
    for (const fd of this.fds) {
      try {
        closeSync(fd);
      } catch {
        // closing is all that is left to do; the file goes anyway
      }
    }
    this.fds = [];
    rmSync(this.temporary, { force: true });
    if (this.copyTo) rmSync(this.copyTo, { force: true });
  }

  private open(): void {
    this.fds = [openSync(this.temporary, 'wx')];
    if (this.copyTo) this.fds.push(openSync(this.copyTo, 'wx'));
  }

  private flush(): void {
    if (this.used === 0) return;
    const bytes = this.buffer.subarray(0, this.used);
    if (this.held && this.heldBytes + bytes.length <= this.holdUpTo) {
      // Held as it is: the buffer is handed over and a new one taken.
      this.held.push(bytes);
      this.heldBytes += bytes.length;
      this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    } else if (this.held) {
      this.put(Buffer.from(bytes));
    } else {
      this.send(bytes, this.buffer);
      this.buffer = this.free.pop() ?? Buffer.allocUnsafe(BUFFER_BYTES);
    }
    this.used = 0;
  }

  /** Writes bytes after what was written (held ones first go to the file, once past what may be held); `bytes` must stay as they are. */
  private put(bytes: Buffer): void {
    if (this.held) {
      if (this.heldBytes + bytes.length <= this.holdUpTo) {
        this.held.push(bytes);
        this.heldBytes += bytes.length;
        return;
      }
      this.spill();
    }
    this.send(bytes, null);
  }

  /** Makes the temporary file and writes what was held into it. */
  private spill(): void {
    const held = this.held!;
    this.held = null;
    this.open();
    for (const bytes of held) this.send(bytes, null);
  }

  /** Hands bytes to the thread pool, for the file and the copy, at their place; `pooled` is taken back to fill again once written. */
  private send(bytes: Buffer, pooled: Buffer | null): void {
    if (this.aborted) return;
    const position = this.position;
    this.position += bytes.length;
    let left = this.fds.length;
    for (const fd of this.fds) {
      this.writing++;
      writeWhole(fd, bytes, position, (error) => {
        if (error && this.failure === null) this.failure = error;
        if (--left === 0 && pooled) this.free.push(pooled);
        if (--this.writing === 0) for (const wake of this.drainedWaiters.splice(0)) wake();
      });
    }
  }

  private drained(): Promise<void> {
    if (this.writing === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }
}

/** Writes all of `bytes` at `position` (a write may take fewer than asked), on the thread pool. */
function writeWhole(fd: number, bytes: Buffer, position: number, done: (error: Error | null) => void): void {
  write(fd, bytes, 0, bytes.length, position, (error, written) => {
    if (error) return done(error);
    if (written < bytes.length) return writeWhole(fd, bytes.subarray(written), position + written, done);
    done(null);
  });
}
