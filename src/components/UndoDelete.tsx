import { useEffect } from 'react';
import type { NotesApi } from '../state/notes-api';
import { dropUndo, useDeleted } from '../state/undoDelete';
import './UndoDelete.css';

/** How long a deleted note can be brought back, in ms. */
const UNDO_MS = 8000;

/**
 * The note deleted last, named, with one button that writes it back as it was (through the
 * same checked write as typing: it is put back only where no other note took its place).
 */
export function UndoDelete({ notes }: { notes: NotesApi }) {
  const deleted = useDeleted();
  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(dropUndo, UNDO_MS);
    return () => clearTimeout(timer);
  }, [deleted]);
  if (!deleted) return null;
  return (
    <div className="inv-undo" role="status">
      <span>{deleted.label.replace(/^Note on/, 'Deleted the note on')}.</span>
      <button
        type="button"
        onClick={() => {
          notes.write(deleted.key, deleted.body);
          dropUndo();
        }}
      >
        Undo
      </button>
    </div>
  );
}
