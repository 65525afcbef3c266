import { stat } from 'node:fs/promises';
import type { ReviewDir } from './review-dir';

/** The name of the last good notes.json the viewer's server keeps (see keepLastGoodNotes). */
const NOTES_LAST_GOOD = '.review/notes.last-good.json';

/**
 * How to put a broken notes.json right, as the reader can do it: the server keeps the last
 * valid notes.json it read, so there is a copy to put back once one was read.
 */
export function notesRepair(hasCopy: boolean): string {
  return hasCopy
    ? `fix it by hand, or put back the last good copy the viewer read: \`cp ${NOTES_LAST_GOOD} .review/notes.json\` (a note written after that copy is then lost; keep its text first)`
    : `fix it by hand (no last good copy is kept yet: the viewer keeps one at ${NOTES_LAST_GOOD} once it has read a valid notes.json)`;
}

/** Whether the last good copy of notes.json is there. */
export const hasNotesCopy = (review: ReviewDir) =>
  stat(review.notesLastGood).then(
    (s) => s.isFile(),
    () => false,
  );
