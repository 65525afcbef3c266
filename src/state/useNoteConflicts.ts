import { useCallback, useEffect } from 'react';
import type { Note } from '../../schemas/notes';
import { bodyOf, isNewer, sameNote, sameSeen, seenOf, withEntry } from '../model/note-sync';
import type { NoteDrafts } from './useNoteDrafts';
import type { NoteWrites } from './useNoteWrites';
import type { NoteStatus } from './notes-api';

/**
 * Where this tab's notes and notes.json disagree. Each new read of the file: a saved note it
 * no longer holds is flagged gone; a draft typed over a note it now holds differently is a
 * conflict, shown before anything is sent. The reader settles each with `keepMine` or `takeTheirs`.
 */
export function useNoteConflicts(
  seq: number,
  serverNotes: Record<string, Note>,
  { draftsRef, putDrafts, keep }: NoteDrafts,
  { writtenRef, setWritten, statusesRef, setStatuses, setStatus, send, cancel }: NoteWrites,
): { keepMine: (key: string) => void; takeTheirs: (key: string) => void } {
  useEffect(() => {
    const [d, w, s] = [draftsRef.current, writtenRef.current, statusesRef.current];
    const flags = new Map<string, NoteStatus | null>();
    const superseded: string[] = [];
    for (const [key, mine] of w) {
      if (seq < mine.from) continue; // asked for before the write: it cannot reflect it
      const there = Object.hasOwn(serverNotes, key) ? serverNotes[key]! : null;
      if (mine.note === null || (there && (isNewer(there, mine.note) || sameNote(there, mine.note)))) {
        if (!there || mine.note === null || !sameNote(there, mine.note)) superseded.push(key);
        if (s.get(key)?.state === 'gone') flags.set(key, null);
      } else if (s.get(key)?.state !== 'conflict') flags.set(key, { state: 'gone', onDisk: there });
    }
    for (const [key, draft] of d) {
      const state = s.get(key)?.state;
      if (state === 'saving' || state === 'conflict' || flags.get(key)?.state === 'gone') continue;
      const there = Object.hasOwn(serverNotes, key) ? serverNotes[key]! : null;
      const mine = w.get(key);
      const expected = mine && !superseded.includes(key) ? mine.note : undefined;
      if (!sameSeen(there, draft.seen) && !(expected !== undefined && sameSeen(there, seenOf(expected)))) {
        flags.set(key, { state: 'conflict', theirs: there });
      }
    }
    if (superseded.length) setWritten((old) => superseded.reduce((next, key) => withEntry(next, key, null), old));
    if (flags.size) setStatuses((old) => [...flags].reduce((next, [key, status]) => withEntry(next, key, status), old));
  }, [seq, serverNotes]); // eslint-disable-line react-hooks/exhaustive-deps

  /** In a conflict, writes this tab's text over the other one; for a gone note, writes it again. */
  const keepMine = useCallback(
    (key: string) => {
      const status = statusesRef.current.get(key);
      const there = Object.hasOwn(serverNotes, key) ? serverNotes[key]! : null;
      const onDisk = status?.state === 'conflict' ? status.theirs : there;
      const body = draftsRef.current.get(key)?.body ?? bodyOf(writtenRef.current.get(key)?.note ?? null);
      if (!body) return;
      putDrafts((old) => withEntry(old, key, { body, seen: seenOf(onDisk) }));
      send(key);
    },
    [serverNotes, send, putDrafts, draftsRef, statusesRef, writtenRef],
  );

  /** In a conflict, drops this tab's text for the one in notes.json; for a gone note, lets it go. */
  const takeTheirs = useCallback(
    (key: string) => {
      cancel(key);
      putDrafts((d) => withEntry(d, key, null));
      setWritten((w) => withEntry(w, key, null));
      setStatus(key, null);
      keep(key);
    },
    [cancel, setStatus, putDrafts, setWritten, keep],
  );

  return { keepMine, takeTheirs };
}
