/** Pure pieces of how the viewer keeps notes in step with notes.json (see useNotes). */
import type { NotePut, NoteSeen } from '../../schemas/api';
import type { Note } from '../../schemas/notes';

/** What a note box sends: the note without the server's `at` and without the `seen` the viewer adds. */
export type NoteBody = Omit<NotePut, 'seen'>;

/** A note this tab saved, and the first read that reflects the write (reads asked for before it may not). */
export interface Written {
  note: Note | null;
  from: number;
}

/** The note this tab shows under a key: the one it saved last, else notes.json's. */
export function shownFrom(written: Map<string, Written>, server: Record<string, Note>, key: string): Note | null {
  const mine = written.get(key);
  if (mine) return mine.note;
  return Object.hasOwn(server, key) ? server[key]! : null;
}

/** A copy of `map` with `key` set to `value`, or removed when `value` is null. */
export function withEntry<V>(map: Map<string, V>, key: string, value: V | null): Map<string, V> {
  const next = new Map(map);
  if (value === null) next.delete(key);
  else next.set(key, value);
  return next;
}

export const seenOf = (note: Note | null): NoteSeen | null => (note ? { text: note.text, at: note.at } : null);

export function sameSeen(note: Note | null, seen: NoteSeen | null): boolean {
  if (note === null || seen === null) return note === null && seen === null;
  return note.text === seen.text && note.at === seen.at;
}

export const sameNote = (a: Note, b: Note) => a.text === b.text && a.at === b.at;

/**
 * True when `there` was written after `mine` (by another tab: the server stamps every
 * write). Anything else in its place is an older copy of notes.json put back, or a hand
 * edit: the reader is asked which to keep.
 */
export function isNewer(there: Note, mine: Note): boolean {
  const a = Date.parse(there.at);
  const b = Date.parse(mine.at);
  return Number.isFinite(a) && Number.isFinite(b) ? a > b : there.at > mine.at;
}

export function bodyOf(note: Note | null): NoteBody | null {
  if (!note) return null;
  const { at: _at, ...rest } = note;
  return {
    text: rest.text,
    title: rest.title,
    refs: rest.refs,
    ...(rest.quote !== undefined ? { quote: rest.quote } : {}),
    ...(rest.kind !== undefined ? { kind: rest.kind } : {}),
  };
}
