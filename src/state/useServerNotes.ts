import { useMemo, useRef } from 'react';
import { noteRecord } from '../../schemas/note-record';
import type { Note } from '../../schemas/notes';
import type { NotesRead } from './notes-api';

const LOCKED =
  'notes.json is broken (see the banner above): this is the last good note; what you type is kept as a draft and saved once the file is fixed.';

/**
 * The notes as notes.json last held them. While the file is broken, the last notes read from
 * it stay on screen (or, when the viewer opened on a broken file, the server's kept copy), and
 * `locked` says why nothing can be written to it.
 */
export function useServerNotes(read: NotesRead): { serverNotes: Record<string, Note>; locked: string | null } {
  const lastGood = useRef<Record<string, Note>>(noteRecord());
  const readOnce = useRef(false);
  const serverNotes = useMemo(() => {
    if (read.state?.state === 'ok') lastGood.current = read.state.data.notes;
    else if (read.state?.state === 'missing') lastGood.current = noteRecord();
    // Opened while notes.json is broken: nothing read yet, so the server's kept copy stands in.
    else if (read.state && 'lastGood' in read.state && read.state.lastGood && !readOnce.current)
      lastGood.current = read.state.lastGood.notes;
    if (read.state?.state === 'ok' || read.state?.state === 'missing') readOnce.current = true;
    return lastGood.current;
  }, [read.state]);
  const broken = read.state?.state === 'invalid-json' || read.state?.state === 'invalid-schema';
  return { serverNotes, locked: broken ? LOCKED : null };
}
