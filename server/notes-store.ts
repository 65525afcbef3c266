import type { NotePut, NotePutResult } from '../schemas/api';
import { Notes, type Note } from '../schemas/notes';
import { localIsoTime } from './emit/time';
import { writeFileAtomic } from './review-dir';
import { issuesOf, readSettled, sha256 } from './review-files';

/** A note write the server refuses; `status` is the HTTP status to answer with. */
export class NoteRefused extends Error {
  constructor(
    readonly status: 400 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'NoteRefused';
  }
}

const LINE_KEY = /^line:(.+):([+-])([1-9]\d*)$/;
const MAX_KEY_LENGTH = 4096;

/** Checks a note key: a card id, `file:<ref>`, or `line:<ref>:<side><n>` (side `+` new, `-` old). */
export function checkNoteKey(key: string): string {
  if (key === '' || key.length > MAX_KEY_LENGTH) throw new NoteRefused(400, 'bad-key', 'A note key must be 1 to 4096 characters.');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new NoteRefused(400, 'bad-key', 'A note key cannot contain control characters.');
  if (key.startsWith('file:') && key.length === 'file:'.length) throw new NoteRefused(400, 'bad-key', "A 'file:' key needs a ref.");
  if (key.startsWith('line:') && !LINE_KEY.test(key)) {
    throw new NoteRefused(400, 'bad-key', "A line key reads 'line:<ref>:+<n>' (new side) or 'line:<ref>:-<n>' (old side), n from 1.");
  }
  return key;
}

/**
 * The only writer of notes.json. Writes go one at a time (read, change one key, write
 * through a temporary file and a rename), so concurrent writes to different keys all
 * survive and no reader ever sees half a file. A notes.json that does not parse or
 * fails the schema is never overwritten: it may hold notes only its author can fix.
 */
export class NotesStore {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly ownWrites: string[] = [];

  constructor(private readonly file: string) {}

  put(key: string, body: NotePut): Promise<NotePutResult> {
    checkNoteKey(key);
    const run = this.queue.then(() => this.apply(key, body));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Resolves once every write accepted so far is on disk (or refused). */
  async drain(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  /** True when these bytes are what the server itself wrote last, so no one else changed the file. */
  isOwnWrite(hash: string | null): boolean {
    return hash !== null && this.ownWrites.includes(hash);
  }

  private async apply(key: string, body: NotePut): Promise<NotePutResult> {
    const doc = await this.readCurrent();
    const notes = doc.notes as Record<string, Note>;
    if (body.text.trim() === '') {
      if (!Object.hasOwn(notes, key)) return { key, note: null };
      delete notes[key];
      await this.write(doc);
      return { key, note: null };
    }
    const note: Note = { title: body.title, refs: body.refs, text: body.text, at: localIsoTime() };
    if (body.quote !== undefined) note.quote = body.quote;
    if (body.kind !== undefined) note.kind = body.kind;
    // defineProperty, not `=`: a key such as `__proto__` must stay a plain entry.
    Object.defineProperty(notes, key, { value: note, enumerable: true, writable: true, configurable: true });
    await this.write(doc);
    return { key, note };
  }

  /** The file as it is on disk (unknown fields kept as they are), or a new empty one. */
  private async readCurrent(): Promise<Record<string, unknown> & { notes: unknown }> {
    const read = await readSettled(this.file);
    if (read.bytes === null) return { contract: 1, notes: {} };
    if ('error' in read) {
      const where = read.error.line ? ` (line ${read.error.line}, column ${read.error.column})` : '';
      throw new NoteRefused(409, 'notes-invalid-json', `.review/notes.json does not parse${where}: ${read.error.message}. Fix or remove it; the note was not saved.`);
    }
    const parsed = Notes.safeParse(read.value);
    if (!parsed.success) {
      const first = issuesOf(parsed.error)[0];
      const what = first ? `${first.path.join('.') || '(top)'}: ${first.message}` : 'schema mismatch';
      throw new NoteRefused(409, 'notes-invalid-schema', `.review/notes.json does not match the notes schema (${what}). Fix or remove it; the note was not saved.`);
    }
    return read.value as Record<string, unknown> & { notes: unknown };
  }

  private async write(doc: object): Promise<void> {
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    // Remembered before the rename, so a watcher event racing the write already knows it.
    this.ownWrites.push(sha256(text));
    if (this.ownWrites.length > 16) this.ownWrites.shift();
    await writeFileAtomic(this.file, text);
  }
}
