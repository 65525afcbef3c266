import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { NotePut, NotesState } from '../../schemas/api';
import type { Note } from '../../schemas/notes';
import type { Api } from '../api/client';
import { readStored, writeStored } from './storage';

/** Where a note stands between the reader's keyboard and notes.json. */
export type NoteStatus = { state: 'saved' } | { state: 'saving' } | { state: 'draft' } | { state: 'refused'; reason: string };

export interface NotesApi {
  /** Notes as the server has them, with unsent drafts laid over them. */
  notes: Record<string, Note>;
  status: (key: string) => NoteStatus | undefined;
  /** Text of the note or draft for a key ('' when there is none). */
  text: (key: string) => string;
  /** Records what the reader typed; it is sent after a short pause, and kept until the server confirms. */
  write: (key: string, body: NotePut) => void;
  /** True when notes.json cannot be written (it does not parse or fails the schema). */
  locked: string | null;
}

type Drafts = Record<string, NotePut>;
const DRAFTS = 'drafts';
const PAUSE_MS = 500;

/** Notes that save as you type and are never lost: a draft stays in storage until the server has it. */
export function useNotes(api: Api, state: NotesState | null, scopeReady: boolean): NotesApi {
  const [drafts, setDrafts] = useState<Drafts>({});
  const [statuses, setStatuses] = useState<Record<string, NoteStatus>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [confirmed, setConfirmed] = useState<Record<string, Note | null>>({});

  const serverNotes = useMemo(() => (state?.state === 'ok' ? state.data.notes : {}), [state]);
  // A confirmation is forgotten once notes.json, as read, holds it. Not sooner: a read asked
  // for before the write can answer after it, and the server sends no event for its own writes.
  useEffect(() => setConfirmed((c) => caughtUp(c, serverNotes)), [serverNotes]);
  const locked =
    state?.state === 'invalid-json'
      ? `notes.json does not parse (${state.message}); notes cannot be saved until it is fixed.`
      : state?.state === 'invalid-schema'
        ? 'notes.json does not match the contract; notes cannot be saved until it is fixed.'
        : null;

  const send = useCallback(
    (key: string, body: NotePut) => {
      setStatuses((s) => ({ ...s, [key]: { state: 'saving' } }));
      api.putNote(key, body).then(
        (result) => {
          setConfirmed((c) => ({ ...c, [key]: result.note }));
          setDrafts((d) => {
            if (d[key] !== body) return d; // the reader typed more meanwhile; that draft goes next
            const { [key]: _sent, ...rest } = d;
            writeStored(DRAFTS, rest);
            return rest;
          });
          setStatuses((s) => ({ ...s, [key]: { state: 'saved' } }));
        },
        (error: Error) => setStatuses((s) => ({ ...s, [key]: { state: 'refused', reason: error.message } })),
      );
    },
    [api],
  );

  // Drafts left by a reload or a server restart are shown and sent again.
  useEffect(() => {
    if (!scopeReady) return;
    const stored = readStored<Drafts>(DRAFTS, {});
    setDrafts(stored);
    for (const [key, body] of Object.entries(stored)) send(key, body);
  }, [scopeReady, send]);

  const write = useCallback(
    (key: string, body: NotePut) => {
      setDrafts((d) => {
        const next = { ...d, [key]: body };
        writeStored(DRAFTS, next);
        return next;
      });
      setStatuses((s) => ({ ...s, [key]: { state: 'draft' } }));
      clearTimeout(timers.current.get(key));
      timers.current.set(
        key,
        setTimeout(() => send(key, body), PAUSE_MS),
      );
    },
    [send],
  );

  const notes = useMemo(() => {
    const merged: Record<string, Note> = { ...serverNotes };
    for (const [key, note] of Object.entries(confirmed)) {
      // What the server confirmed wins until notes.json is read again with it.
      if (note === null) delete merged[key];
      else if (!serverNotes[key] || serverNotes[key].at < note.at) merged[key] = note;
    }
    for (const [key, draft] of Object.entries(drafts)) {
      if (draft.text.trim() === '') delete merged[key];
      else merged[key] = { ...draft, at: merged[key]?.at ?? '' };
    }
    return merged;
  }, [serverNotes, confirmed, drafts]);

  // One object per change of what it answers, so the file list can skip re-rendering when nothing did.
  return useMemo(
    () => ({
      notes,
      status: (key: string) => statuses[key] ?? (drafts[key] ? { state: 'draft' as const } : undefined),
      text: (key: string) => drafts[key]?.text ?? notes[key]?.text ?? '',
      write,
      locked,
    }),
    [notes, statuses, drafts, write, locked],
  );
}

/** The confirmations `server` does not reflect yet (the same object when it reflects none of them). */
function caughtUp(confirmed: Record<string, Note | null>, server: Record<string, Note>): Record<string, Note | null> {
  const pending = Object.entries(confirmed).filter(([key, note]) => (note === null ? key in server : !server[key] || server[key].at < note.at));
  return pending.length === Object.keys(confirmed).length ? confirmed : Object.fromEntries(pending);
}
