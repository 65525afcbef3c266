import type { NotePut } from '../../schemas/api';
import type { EarlierText, Note } from '../../schemas/notes';

export type NoteFields = Omit<NotePut, 'seen'>;

/**
 * The note a write asks for, stamped `at`, built over the note notes.json holds under
 * its key (`there`); null deletes it. Resolving stamps `resolvedAt` (kept when already
 * resolved), reopening removes it, a write that says neither keeps it. A follow-up
 * (`follows` is the `at` of the answered note the reader saw) moves that text into
 * `earlier` once; the writes that go on typing it move nothing more. Clearing a note's
 * text deletes it, except after a follow-up: then the follow-up is withdrawn and the
 * text it followed is the note again, so no earlier text is ever lost.
 */
export function buildNote(there: Note | null, fields: NoteFields, at: string): Note | null {
  const kept = there?.earlier ?? [];
  const followed = there !== null && fields.follows !== undefined && fields.follows === there.at;
  const earlier = followed ? [...kept, { text: there.text, at: there.at, answeredBy: fields.answeredBy ?? [] }] : kept;
  if (fields.text.trim() === '') {
    const last = earlier[earlier.length - 1];
    if (!last) return null;
    return noteOf({ ...fields, text: last.text }, last.at, earlier.slice(0, -1), there?.resolvedAt);
  }
  const resolvedAt =
    fields.resolve === undefined ? there?.resolvedAt : fields.resolve ? (there?.resolvedAt ?? at) : undefined;
  return noteOf(fields, at, earlier, resolvedAt);
}

function noteOf(fields: NoteFields, at: string, earlier: EarlierText[], resolvedAt: string | undefined): Note {
  const note: Note = { title: fields.title, refs: fields.refs, text: fields.text, at };
  if (fields.quote !== undefined) note.quote = fields.quote;
  if (fields.kind !== undefined) note.kind = fields.kind;
  if (resolvedAt !== undefined) note.resolvedAt = resolvedAt;
  if (earlier.length > 0) note.earlier = earlier;
  return note;
}

/** True when writing `note` over `there` changes nothing a reader or an agent reads (a write sent twice, two tabs agreeing). */
export function sameStored(there: Note, note: Note): boolean {
  const read = (n: Note) =>
    JSON.stringify([n.title, n.refs, n.text, n.quote, n.kind ?? 'change', n.resolvedAt !== undefined, n.earlier ?? []]);
  return read(there) === read(note);
}
