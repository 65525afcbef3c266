import type { Note } from './notes';

/**
 * A notes record with no prototype, so that any key is just a key: `__proto__`,
 * `constructor` and `toString` included. Every reader and writer of notes, on the
 * server, in the viewer and in the CLI, holds notes in one of these.
 */
export function noteRecord(entries: Iterable<[string, Note]> = []): Record<string, Note> {
  const record = Object.create(null) as Record<string, Note>;
  for (const [key, note] of entries) setNote(record, key, note);
  return record;
}

/** Sets one entry as a plain own property (assignment to `__proto__` would set the prototype instead). */
export function setNote(record: Record<string, Note>, key: string, note: Note): void {
  Object.defineProperty(record, key, { value: note, enumerable: true, writable: true, configurable: true });
}
