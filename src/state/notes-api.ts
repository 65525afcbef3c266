import type { NotesState } from '../../schemas/api';
import type { Note, NoteKind } from '../../schemas/notes';
import type { NoteBody } from '../model/note-sync';

/** Where a note stands between the reader's keyboard and notes.json. */
export type NoteStatus =
  | { state: 'saved' }
  | { state: 'saving' }
  | { state: 'draft' }
  | { state: 'refused'; reason: string }
  /** notes.json holds another text of this note (or none) than the one this tab's text was typed over. */
  | { state: 'conflict'; theirs: Note | null }
  /** A note this tab saved is no longer in notes.json (the file was replaced, or the note removed elsewhere). */
  | { state: 'gone'; onDisk: Note | null };

export interface NotesApi {
  /** Notes as the server has them, with this tab's saved notes and unsent drafts laid over them (a null-prototype record). */
  notes: Record<string, Note>;
  status: (key: string) => NoteStatus | undefined;
  /** Text of the note or draft for a key ('' when there is none). */
  text: (key: string) => string;
  /** Kind of the note or draft for a key: a kind chosen before the first key stays with the draft. */
  kind: (key: string) => NoteKind | undefined;
  /** Records what the reader typed; it is sent after a short pause, and kept until the server confirms. */
  write: (key: string, body: NoteBody) => void;
  /** In a conflict, writes this tab's text over the other one; for a gone note, writes it again. */
  keepMine: (key: string) => void;
  /** In a conflict, drops this tab's text for the one in notes.json; for a gone note, lets it go. */
  takeTheirs: (key: string) => void;
  /** Sends every draft again (after a new session token arrived). */
  retry: () => void;
  /** Keys of the notes whose latest text is not in notes.json yet (typed, being sent, refused or in conflict). */
  unsaved: string[];
  /** True when notes.json cannot be written (it does not parse or fails the schema). */
  locked: string | null;
}

/** The notes file as the viewer last read it, with the generation of the read that answered it. */
export interface NotesRead {
  state: NotesState | null;
  /** Grows with each read asked for; `refetch` returns the one it asked. */
  seq: number;
  refetch: () => number;
}
