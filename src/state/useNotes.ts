import { useCallback, useEffect, useMemo, useRef } from 'react';
import { noteRecord, setNote } from '../../schemas/note-record';
import type { Api } from '../api/client';
import { seenOf, shownFrom, withEntry, type NoteBody } from '../model/note-sync';
import { useNoteConflicts } from './useNoteConflicts';
import { useNoteDrafts, useRestoredDrafts, type Draft } from './useNoteDrafts';
import { useNoteWrites } from './useNoteWrites';
import { useServerNotes } from './useServerNotes';
import type { NotesApi, NotesRead } from './notes-api';

/**
 * Notes that save as you type and are never lost: what notes.json holds (useServerNotes), the
 * reader's drafts kept by the browser and the server (useNoteDrafts), compare-and-swap writes
 * (useNoteWrites), and where the two disagree (useNoteConflicts), laid over one another.
 */
export function useNotes(api: Api, read: NotesRead, scopeReady: boolean): NotesApi {
  const { serverNotes, locked } = useServerNotes(read);
  const drafts = useNoteDrafts(api);
  const writes = useNoteWrites(api, read, drafts);
  useRestoredDrafts(api, scopeReady, drafts, writes.send);
  const { keepMine, takeTheirs } = useNoteConflicts(read.seq, serverNotes, drafts, writes);
  const lockedRef = useRef(locked);
  lockedRef.current = locked;

  const { putDrafts, keep, draftsRef } = drafts;
  const { schedule, setStatus, writtenRef, statusesRef, retry, written, statuses } = writes;
  const write = useCallback(
    (key: string, body: NoteBody) => {
      const before = draftsRef.current.get(key);
      const draft: Draft = {
        body,
        seen: before ? before.seen : seenOf(shownFrom(writtenRef.current, serverNotes, key)),
      };
      putDrafts((d) => withEntry(d, key, draft));
      keep(key);
      const state = statusesRef.current.get(key)?.state;
      if (state === 'conflict' || state === 'gone') return; // the reader chooses first
      setStatus(key, { state: 'draft' });
      // Sending would be refused while notes.json is broken: the draft waits for the fix (see below).
      if (lockedRef.current === null) schedule(key);
    },
    [serverNotes, schedule, setStatus, putDrafts, keep, draftsRef, writtenRef, statusesRef],
  );

  // notes.json is fixed: the drafts typed meanwhile go out.
  const wasLocked = useRef(false);
  useEffect(() => {
    if (wasLocked.current && locked === null) retry();
    wasLocked.current = locked !== null;
  }, [locked, retry]);

  const notes = useMemo(() => {
    const merged = noteRecord();
    for (const key of new Set([...Object.keys(serverNotes), ...written.keys(), ...drafts.drafts.keys()])) {
      const draft = drafts.drafts.get(key);
      const base = shownFrom(written, serverNotes, key);
      if (draft) {
        if (draft.body.text.trim() !== '') setNote(merged, key, { ...base, ...draft.body, at: base?.at ?? '' });
      } else if (base) setNote(merged, key, base);
    }
    return merged;
  }, [serverNotes, written, drafts.drafts]);

  // One object per change of what it answers, so the file list can skip re-rendering when nothing did.
  return useMemo(
    () => ({
      notes,
      status: (key: string) => statuses.get(key) ?? (drafts.drafts.has(key) ? { state: 'draft' as const } : undefined),
      text: (key: string) => drafts.drafts.get(key)?.body.text ?? (Object.hasOwn(notes, key) ? notes[key]!.text : ''),
      kind: (key: string) =>
        drafts.drafts.get(key)?.body.kind ?? (Object.hasOwn(notes, key) ? notes[key]!.kind : undefined),
      write,
      keepMine,
      takeTheirs,
      retry,
      unsaved: [
        ...new Set([...drafts.drafts.keys(), ...[...statuses].filter(([, s]) => s.state === 'gone').map(([k]) => k)]),
      ],
      locked,
    }),
    [notes, statuses, drafts.drafts, write, keepMine, takeTheirs, retry, locked],
  );
}
