import { notesLocked } from '../review/notes-store';
import type { ReviewDir } from '../review/review-dir';
import type { Finding } from './findings';

/** A warning when the viewer cannot save notes: notes.json is read-only or another user's, so the server leaves it alone. */
export async function notesLockedFindings(review: ReviewDir): Promise<Finding[]> {
  const locked = await notesLocked(review.notes);
  if (locked === null) return [];
  const why = locked === 'read-only' ? 'is read-only' : `belongs to another user (uid ${locked.owner})`;
  return [
    {
      level: 'warning',
      code: locked === 'read-only' ? 'notes-read-only' : 'notes-not-yours',
      file: 'notes.json',
      message: `.review/notes.json ${why}, so the viewer will not save notes into it.`,
      fix:
        locked === 'read-only'
          ? 'Make it writable (chmod u+w .review/notes.json) if notes should be saved.'
          : 'Give it back to you (chown) if notes should be saved.',
    },
  ];
}
