import type { NotesApi, NoteStatus } from '../state/notes-api';
import { Visible } from './Visible';

interface Props {
  noteKey: string;
  status: Extract<NoteStatus, { state: 'conflict' | 'gone' }>;
  notes: NotesApi;
}

/**
 * When notes.json and this tab disagree about a note, the reader decides: the other
 * text (or its absence) is shown beside theirs, and nothing is written until they choose.
 */
export function NoteChoice({ noteKey, status, notes }: Props) {
  if (status.state === 'gone') {
    return (
      <div className="inv-note-choice" role="alert">
        <p>
          This note was saved from this tab but is no longer in notes.json
          {status.onDisk ? ', which now holds an older text of it' : ''} (the file was replaced or the note removed
          elsewhere).
        </p>
        {status.onDisk ? (
          <blockquote className="inv-note-theirs">
            <Visible text={status.onDisk.text} />
          </blockquote>
        ) : null}
        <div className="inv-note-choice-actions">
          <button type="button" onClick={() => notes.keepMine(noteKey)}>
            Write it again
          </button>
          <button type="button" onClick={() => notes.takeTheirs(noteKey)}>
            {status.onDisk ? 'Keep the file’s text' : 'Let it go'}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="inv-note-choice" role="alert">
      <p>
        {status.theirs
          ? 'This note was changed elsewhere (another tab, or by hand) while you typed. It now reads:'
          : 'This note was deleted elsewhere while you typed.'}
      </p>
      {status.theirs ? (
        <blockquote className="inv-note-theirs">
          <Visible text={status.theirs.text} />
        </blockquote>
      ) : null}
      <p>Your text is kept in the box above; nothing is written until you choose.</p>
      <div className="inv-note-choice-actions">
        <button type="button" onClick={() => notes.keepMine(noteKey)}>
          Keep mine
        </button>
        <button type="button" onClick={() => notes.takeTheirs(noteKey)}>
          {status.theirs ? 'Use theirs' : 'Drop mine'}
        </button>
      </div>
    </div>
  );
}
