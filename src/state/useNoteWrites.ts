import { useCallback, useRef } from 'react';
import type { Note } from '../../schemas/notes';
import { ApiFailure, type Api } from '../api/client';
import { seenOf, withEntry, type Written } from '../model/note-sync';
import type { NoteDrafts } from './useNoteDrafts';
import type { NoteStatus, NotesRead } from './notes-api';
import { useSyncedState } from './useSyncedState';

export type NoteWrites = ReturnType<typeof useNoteWrites>;

const PAUSE_MS = 500;

/**
 * Writing notes to notes.json: each write is a compare-and-swap on the note this tab last
 * saw, so a note changed elsewhere meanwhile comes back as a conflict instead of being
 * overwritten, and a draft leaves storage only once the server has it.
 */
export function useNoteWrites(api: Api, read: NotesRead, { draftsRef, putDrafts }: NoteDrafts) {
  // Each map is changed through its ref, at once, so that a keystroke right after a write was
  // confirmed (before React rendered) already builds on the confirmation.
  const [written, writtenRef, setWritten] = useSyncedState(() => new Map<string, Written>());
  const [statuses, statusesRef, setStatuses] = useSyncedState(() => new Map<string, NoteStatus>());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const latestRead = useRef(read);
  latestRead.current = read;

  const setStatus = useCallback(
    (key: string, status: NoteStatus | null) => setStatuses((s) => withEntry(s, key, status)),
    [setStatuses],
  );

  const send = useCallback(
    (key: string) => {
      const draft = draftsRef.current.get(key);
      if (!draft) return;
      setStatus(key, { state: 'saving' });
      api.putNote(key, { ...draft.body, seen: draft.seen }).then(
        (result) => {
          const from = latestRead.current.refetch();
          setWritten((w) => withEntry(w, key, { note: result.note, from }));
          const typedOn = draftsRef.current.get(key) !== draft;
          putDrafts((d) => {
            const now = d.get(key);
            if (!now) return d;
            // The reader typed more meanwhile: that draft goes next, over the note just saved.
            return now === draft ? withEntry(d, key, null) : withEntry(d, key, { ...now, seen: seenOf(result.note) });
          });
          if (!typedOn) setStatus(key, { state: 'saved' });
        },
        (error: Error) => {
          if (error instanceof ApiFailure && error.code === 'note-conflict') {
            const theirs = (error.body as { current?: Note | null } | null)?.current ?? null;
            setStatus(key, { state: 'conflict', theirs });
          } else setStatus(key, { state: 'refused', reason: error.message });
        },
      );
    },
    [api, draftsRef, putDrafts, setStatus, setWritten],
  );

  /** Forgets a key's pending send. */
  const cancel = useCallback((key: string) => clearTimeout(timers.current.get(key)), []);
  const schedule = useCallback(
    (key: string) => {
      cancel(key);
      timers.current.set(
        key,
        setTimeout(() => send(key), PAUSE_MS),
      );
    },
    [send, cancel],
  );

  /** Sends every draft again, but those waiting on the reader's choice. */
  const retry = useCallback(() => {
    for (const [key] of draftsRef.current) {
      const state = statusesRef.current.get(key)?.state;
      if (state !== 'conflict' && state !== 'gone') send(key);
    }
  }, [send, draftsRef, statusesRef]);

  return {
    written,
    writtenRef,
    setWritten,
    statuses,
    statusesRef,
    setStatuses,
    setStatus,
    send,
    schedule,
    cancel,
    retry,
  };
}
