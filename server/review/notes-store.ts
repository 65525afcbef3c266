import { mkdir, rm, stat } from 'node:fs/promises';
import type { NotePut, NotePutResult, NoteSeen } from '../../schemas/api';
import { noteRecord, setNote } from '../../schemas/note-record';
import { parseNotes, type HandOver, type Note } from '../../schemas/notes';
import { InvolutError } from '../cli/errors';
import { localIsoTimeMs } from './time';
import { buildNote, sameStored } from './note-build';
import { assertNoLinks, commitTemporaryIfUnchanged, writeTemporary, type ReviewDir } from './review-dir';
import { issuesOf } from './json-limits';
import { namedShape, readSettled, sha256 } from './review-files';

/** A note write the server refuses; `status` is the HTTP status to answer with, `extra` more of the body. */
export class NoteRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 409 | 503 | 507,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'NoteRefused';
  }
}

const LINE_KEY = /^line:(.+):([+-])([1-9]\d*)(?:-([1-9]\d*))?$/;
const MAX_KEY_LENGTH = 4096;
/** How many times a write is merged again because notes.json changed under it before giving up. */
const MAX_ATTEMPTS = 50;
/**
 * How long after its rename a write is checked to be still on disk before it is
 * acknowledged: another writer that read the file just before the rename and renamed
 * its own copy just after would otherwise have dropped the note unnoticed.
 */
const SETTLE_MS = 40;
const FILE = '.review/notes.json';

/** Checks a note key: a card id, `file:<ref>`, `line:<ref>:<side><n>` (side `+` new, `-` old), or `line:<ref>:<side><a>-<b>` (a < b). */
function checkNoteKey(key: string): string {
  if (key === '' || key.length > MAX_KEY_LENGTH)
    throw new NoteRefused(400, 'bad-key', 'A note key must be 1 to 4096 characters.');
  if (/\p{Cc}/u.test(key)) throw new NoteRefused(400, 'bad-key', 'A note key cannot contain control characters.');
  if (key.startsWith('file:') && key.length === 'file:'.length)
    throw new NoteRefused(400, 'bad-key', "A 'file:' key needs a ref.");
  const line = key.startsWith('line:') ? LINE_KEY.exec(key) : null;
  if (key.startsWith('line:') && (!line || (line[4] !== undefined && Number(line[4]) <= Number(line[3])))) {
    throw new NoteRefused(
      400,
      'bad-key',
      "A line key reads 'line:<ref>:+<n>' (new side) or 'line:<ref>:-<n>' (old side), n from 1, or 'line:<ref>:+<a>-<b>' for the lines a to b, a before b.",
    );
  }
  return key;
}

/** The file as read for a write: its exact bytes (null when missing) and its parsed document. */
interface Current {
  bytes: Buffer | null;
  doc: Record<string, unknown> & { notes: Record<string, Note> };
}

/**
 * The only writer of notes.json. Writes go one at a time, each a compare-and-swap: the
 * note under the key must still be what the writer saw (else 409 with what is there
 * now), other keys are kept as they are on disk, and the file must still hold the bytes
 * the write was merged from right before the rename, else the merge is made again. The
 * file and its folder are synced before a write is acknowledged, and a write is
 * acknowledged only once the note is still there a moment later (else merged again).
 * A notes.json that does not parse, fails the schema, is read-only or belongs to another
 * user is never replaced.
 */
export class NotesStore {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(hash: string) => void>();
  private readonly file: string;

  constructor(private readonly review: ReviewDir) {
    this.file = review.notes;
  }

  put(key: string, body: NotePut): Promise<NotePutResult> {
    checkNoteKey(key);
    const run = this.queue.then(() => this.apply(key, body));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Appends a hand-over record (`at`, the round it was given on, how many notes were open)
   * to `handedOver`, in the same queue and with the same compare-and-swap as note writes:
   * every note and every earlier hand-over on disk is kept.
   */
  handOver(round: number | undefined, open: number): Promise<HandOver> {
    const run = this.queue.then(() => this.applyHandOver(round, open));
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

  /** Calls `listener` with the hash of each write's bytes, in the same turn as its rename; returns how to stop. */
  onWrite(listener: (hash: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async apply(key: string, body: NotePut): Promise<NotePutResult> {
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const result = await this.attempt(key, body);
        if (result) return result;
      }
    } catch (error) {
      throw faultSentence(error);
    }
    throw new NoteRefused(
      503,
      'notes-busy',
      `${FILE} kept changing while the note was written; the note is kept in the viewer and sent again when you type.`,
    );
  }

  private async applyHandOver(round: number | undefined, open: number): Promise<HandOver> {
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const current = await this.readCurrent();
        const earlier = Array.isArray(current.doc.handedOver) ? (current.doc.handedOver as HandOver[]) : [];
        const last = earlier.at(-1);
        const record: HandOver = { at: noteTime(last ? { at: last.at } : null), ...(round ? { round } : {}), open };
        current.doc.handedOver = [...earlier, record];
        if (!(await this.writeDoc(current))) continue;
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        if (await this.holdsHandOver(record)) return record;
      }
    } catch (error) {
      throw faultSentence(error);
    }
    throw new NoteRefused(503, 'notes-busy', `${FILE} kept changing while the hand-over was written; press it again.`);
  }

  /** True when notes.json's `handedOver` ends with `record`. */
  private async holdsHandOver(record: HandOver): Promise<boolean> {
    const read = await readSettled(this.file);
    if (read.bytes === null || 'error' in read) return false;
    const parsed = parseNotes(read.value);
    const last = parsed.success ? parsed.data.handedOver?.at(-1) : undefined;
    return last?.at === record.at;
  }

  /** Writes the merged document over notes.json if it still holds the bytes it was merged from; false when it changed. */
  private async writeDoc(current: Current): Promise<boolean> {
    const text = `${JSON.stringify(current.doc, null, 2)}\n`;
    await mkdir(this.review.dir, { recursive: true });
    await assertNoLinks(this.review, this.file);
    // notes.json keeps its mode (a 0600 file stays 0600); a new one is the reader's alone, 0600.
    const mode = current.bytes === null ? 0o600 : ((await stat(this.file).catch(() => null))?.mode ?? 0o600) & 0o777;
    const temporary = await writeTemporary(this.file, text, mode);
    try {
      // Someone else (an editor, another process) wrote notes.json since it was read: merge again.
      const hash = sha256(text);
      const told = () => this.listeners.forEach((listener) => listener(hash));
      return await commitTemporaryIfUnchanged(temporary, this.file, current.bytes, told);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** One read-merge-write; null when notes.json changed before the rename or lost the note after it, so the merge must be made again. */
  private async attempt(key: string, body: NotePut): Promise<NotePutResult | null> {
    const current = await this.readCurrent();
    const notes = current.doc.notes;
    const there = Object.hasOwn(notes, key) ? notes[key]! : null;
    const { seen, ...fields } = body;
    const note = buildNote(there, fields, noteTime(there));
    if (note === null ? there === null : there !== null && sameStored(there, note)) {
      return { key, note: there }; // already what was asked (a write sent twice, or two tabs agreeing)
    }
    if (!sameNote(there, seen)) {
      const message = there
        ? 'This note was changed elsewhere since you last saw it; choose which text to keep.'
        : 'This note was deleted elsewhere since you opened it; write it again to keep it.';
      throw new NoteRefused(409, 'note-conflict', message, { current: there });
    }
    if (note === null) delete notes[key];
    else setNote(notes, key, note);
    if (!(await this.writeDoc(current))) return null;
    // An editor that read the file just before the rename may rename its copy over it just after.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return (await this.holds(key, note)) ? { key, note } : null;
  }

  /** True when notes.json holds `note` under `key` (or, for null, no note there). */
  private async holds(key: string, note: Note | null): Promise<boolean> {
    const read = await readSettled(this.file);
    if (read.bytes === null || 'error' in read) return false;
    const parsed = parseNotes(read.value);
    if (!parsed.success) return false;
    const there = Object.hasOwn(parsed.data.notes, key) ? parsed.data.notes[key]! : null;
    return note === null ? there === null : there !== null && sameNote(there, note);
  }

  /** The file as it is on disk (unknown fields kept as they are), or a new empty one. */
  private async readCurrent(): Promise<Current> {
    await assertNoLinks(this.review, this.file);
    await this.assertOwnFile();
    const read = await readSettled(this.file);
    if (read.bytes === null) return { bytes: null, doc: { contract: 1, notes: noteRecord() } };
    if ('error' in read) {
      const where = read.error.line ? ` (line ${read.error.line}, column ${read.error.column})` : '';
      throw new NoteRefused(
        409,
        'notes-invalid-json',
        `${FILE} does not parse${where}${namedShape(read.error.message)}; fix or remove it, the note was not saved.`,
      );
    }
    const parsed = parseNotes(read.value);
    if (!parsed.success) {
      const first = issuesOf(parsed.error)[0];
      const what = first ? `${first.path.join('.') || '(top)'}: ${first.message}` : 'schema mismatch';
      throw new NoteRefused(
        409,
        'notes-invalid-schema',
        `${FILE} does not match the notes schema (${what}); fix or remove it, the note was not saved.`,
      );
    }
    return { bytes: read.bytes, doc: { ...(read.value as object), notes: parsed.data.notes } as Current['doc'] };
  }

  /** A read-only notes.json, or one another user owns, is the reader's decision: it is never replaced. */
  private async assertOwnFile(): Promise<void> {
    const locked = await notesLocked(this.file);
    if (locked === 'read-only') {
      throw new NoteRefused(
        403,
        'notes-read-only',
        `${FILE} is read-only, so Involut leaves it as it is; make it writable (chmod u+w ${FILE}) to save notes, the note is kept in the viewer meanwhile.`,
      );
    }
    if (locked !== null) {
      throw new NoteRefused(
        403,
        'notes-not-yours',
        `${FILE} belongs to another user (uid ${locked.owner}), so Involut leaves it as it is; give it back to you (chown) to save notes, the note is kept in the viewer meanwhile.`,
      );
    }
  }
}

/** Why notes.json must not be replaced: it is read-only, or another user's; null when it may be (or is missing). */
export async function notesLocked(file: string): Promise<'read-only' | { owner: number } | null> {
  const info = await stat(file).catch(() => null);
  if (!info) return null;
  if ((info.mode & 0o222) === 0) return 'read-only';
  const uid = process.getuid?.();
  return uid !== undefined && info.uid !== uid ? { owner: info.uid } : null;
}

/**
 * When a note is written: local ISO 8601 with milliseconds, and always after the note it
 * replaces, so a viewer can tell a newer write (another tab's) from an older copy put back.
 */
function noteTime(replaced: Pick<Note, 'at'> | null, now = new Date()): string {
  const before = replaced ? Date.parse(replaced.at) : Number.NaN;
  const at = Number.isFinite(before) && before >= now.getTime() ? new Date(before + 1) : now;
  return localIsoTimeMs(at);
}

function sameNote(there: Note | null, seen: NoteSeen | null): boolean {
  if (there === null || seen === null) return there === null && seen === null;
  return there.text === seen.text && there.at === seen.at;
}

/** A failure of the disk, as one sentence naming the file and what to do. */
function faultSentence(error: unknown): unknown {
  if (error instanceof NoteRefused) return error;
  if (error instanceof InvolutError) return new NoteRefused(403, error.code, error.message);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new NoteRefused(
      507,
      'disk-full',
      `The disk holding ${FILE} is full; free some space and type again, the note is kept in the viewer meanwhile.`,
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new NoteRefused(
      403,
      'notes-permission',
      `Involut may not write ${FILE} (permission denied); make .review/ writable for you, the note is kept in the viewer meanwhile.`,
    );
  }
  if (code === 'EROFS') {
    return new NoteRefused(
      403,
      'notes-read-only',
      `${FILE} is on a read-only file system; the note is kept in the viewer, save it once the disk is writable.`,
    );
  }
  return error;
}
