import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { NoteSeen, NotesState } from '../../schemas/api';
import { noteRecord, setNote } from '../../schemas/note-record';
import type { Note } from '../../schemas/notes';
import { ApiFailure, type Api } from '../api/client';
import {
  bodyOf,
  isNewer,
  sameNote,
  sameSeen,
  seenOf,
  shownFrom,
  withEntry,
  type NoteBody,
  type Written,
} from '../model/note-sync';
import { readStored, writeStored } from './storage';
import { useSyncedState } from './useSyncedState';

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

/** A draft and the note it was typed over: what the server must still hold for the write to go through. */
interface Draft {
  body: NoteBody;
  seen: NoteSeen | null;
}

const DRAFTS = 'drafts';
const PAUSE_MS = 500;
/** How soon a draft is handed to the server to keep, well before it is sent as a note. */
const KEEP_MS = 150;

/**
 * Notes that save as you type and are never lost. A draft stays in storage until the
 * server has it; each write is a compare-and-swap on the note this tab last saw, so a
 * note changed elsewhere meanwhile (another tab, an editor) is shown beside the reader's
 * text instead of being overwritten; and a note this tab saved that later vanishes
 * from notes.json (an older copy put back) is flagged, with an offer to write it again.
 */
export function useNotes(api: Api, read: NotesRead, scopeReady: boolean): NotesApi {
  // Each map is changed through its ref, at once, so that a keystroke right after a write was
  // confirmed (before React rendered) already builds on the confirmation.
  const [drafts, draftsRef, setDrafts] = useSyncedState(() => new Map<string, Draft>());
  const [written, writtenRef, setWritten] = useSyncedState(() => new Map<string, Written>());
  const [statuses, statusesRef, setStatuses] = useSyncedState(() => new Map<string, NoteStatus>());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const keepTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const latestRead = useRef(read);
  latestRead.current = read;

  // While notes.json is broken, the last notes read from it stay on screen, read from here.
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
  const locked =
    read.state?.state === 'invalid-json' || read.state?.state === 'invalid-schema'
      ? 'notes.json is broken (see the banner above): this is the last good note; what you type is kept as a draft and saved once the file is fixed.'
      : null;
  const lockedRef = useRef(locked);
  lockedRef.current = locked;

  const setStatus = useCallback(
    (key: string, status: NoteStatus | null) => setStatuses((s) => withEntry(s, key, status)),
    [setStatuses],
  );
  const storeDrafts = useCallback((next: Map<string, Draft>) => writeStored(DRAFTS, [...next]), []);
  /** Replaces the drafts, in storage too. */
  const putDrafts = useCallback(
    (change: (old: Map<string, Draft>) => Map<string, Draft>) => {
      const next = change(draftsRef.current);
      if (next === draftsRef.current) return;
      setDrafts(next);
      storeDrafts(next);
    },
    [draftsRef, setDrafts, storeDrafts],
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

  const schedule = useCallback(
    (key: string) => {
      clearTimeout(timers.current.get(key));
      timers.current.set(
        key,
        setTimeout(() => send(key), PAUSE_MS),
      );
    },
    [send],
  );

  /** Hands the draft to the server too: this browser keeps it per origin, the server per repository. */
  const keep = useCallback(
    (key: string) => {
      clearTimeout(keepTimers.current.get(key));
      keepTimers.current.set(
        key,
        setTimeout(() => {
          const draft = draftsRef.current.get(key);
          const kept = draft ?? { body: { text: '', title: '', refs: [] }, seen: null };
          api.putDraft(key, kept).catch(() => {}); // the browser's copy stays either way
        }, KEEP_MS),
      );
    },
    [api, draftsRef],
  );

  // Drafts left by a reload, or kept by the server (a server started again on another port
  // serves another origin, which cannot read this one's storage), are shown and sent again.
  useEffect(() => {
    if (!scopeReady) return;
    let cancelled = false;
    // This browser's drafts at once; the server's, for notes this browser has none of, when they come.
    const stored = readDrafts();
    putDrafts(() => stored);
    for (const key of stored.keys()) send(key);
    api.drafts().then(
      (list) => {
        if (cancelled) return;
        const kept = list.drafts.filter((d) => !draftsRef.current.has(d.key));
        if (kept.length === 0) return;
        putDrafts(
          (d) => new Map([...d, ...kept.map((k) => [k.key, { body: k.body as NoteBody, seen: k.seen }] as const)]),
        );
        for (const { key } of kept) send(key);
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [api, scopeReady, send, putDrafts, draftsRef]);

  // Each new read of notes.json: a saved note it no longer holds is flagged; a draft typed
  // over a note it now holds differently is a conflict, shown before anything is sent.
  useEffect(() => {
    const [d, w, s] = [draftsRef.current, writtenRef.current, statusesRef.current];
    const flags = new Map<string, NoteStatus | null>();
    const superseded: string[] = [];
    for (const [key, mine] of w) {
      if (read.seq < mine.from) continue; // asked for before the write: it cannot reflect it
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
  }, [read.seq, serverNotes]); // eslint-disable-line react-hooks/exhaustive-deps

  const shown = useCallback(
    (key: string): Note | null => {
      const mine = written.get(key);
      if (mine && mine.note !== null) return mine.note;
      if (mine && mine.note === null) return null;
      return Object.hasOwn(serverNotes, key) ? serverNotes[key]! : null;
    },
    [written, serverNotes],
  );

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

  const keepMine = useCallback(
    (key: string) => {
      const [d, s, w] = [draftsRef.current, statusesRef.current, writtenRef.current];
      const status = s.get(key);
      const there = Object.hasOwn(serverNotes, key) ? serverNotes[key]! : null;
      const onDisk = status?.state === 'conflict' ? status.theirs : there;
      const body = d.get(key)?.body ?? bodyOf(w.get(key)?.note ?? null);
      if (!body) return;
      putDrafts((old) => withEntry(old, key, { body, seen: seenOf(onDisk) }));
      send(key);
    },
    [serverNotes, send, putDrafts, draftsRef, statusesRef, writtenRef],
  );

  const takeTheirs = useCallback(
    (key: string) => {
      clearTimeout(timers.current.get(key));
      putDrafts((d) => withEntry(d, key, null));
      setWritten((w) => withEntry(w, key, null));
      setStatus(key, null);
      keep(key);
    },
    [setStatus, putDrafts, setWritten, keep],
  );

  const retry = useCallback(() => {
    for (const [key] of draftsRef.current) {
      const state = statusesRef.current.get(key)?.state;
      if (state !== 'conflict' && state !== 'gone') send(key);
    }
  }, [send, draftsRef, statusesRef]);

  // notes.json is fixed: the drafts typed meanwhile go out.
  const wasLocked = useRef(false);
  useEffect(() => {
    if (wasLocked.current && locked === null) retry();
    wasLocked.current = locked !== null;
  }, [locked, retry]);

  const notes = useMemo(() => {
    const merged = noteRecord();
    const keys = new Set([...Object.keys(serverNotes), ...written.keys(), ...drafts.keys()]);
    for (const key of keys) {
      const draft = drafts.get(key);
      const base = shown(key);
      if (draft) {
        if (draft.body.text.trim() !== '') setNote(merged, key, { ...base, ...draft.body, at: base?.at ?? '' });
      } else if (base) setNote(merged, key, base);
    }
    return merged;
  }, [serverNotes, written, drafts, shown]);

  // One object per change of what it answers, so the file list can skip re-rendering when nothing did.
  return useMemo(
    () => ({
      notes,
      status: (key: string) => statuses.get(key) ?? (drafts.has(key) ? { state: 'draft' as const } : undefined),
      text: (key: string) => drafts.get(key)?.body.text ?? (Object.hasOwn(notes, key) ? notes[key]!.text : ''),
      write,
      keepMine,
      takeTheirs,
      retry,
      unsaved: [...new Set([...drafts.keys(), ...[...statuses].filter(([, s]) => s.state === 'gone').map(([k]) => k)])],
      locked,
    }),
    [notes, statuses, drafts, write, keepMine, takeTheirs, retry, locked],
  );
}

/** The drafts kept in storage: a list of [key, draft] (a plain object would turn a `__proto__` key into a prototype). */
function readDrafts(): Map<string, Draft> {
  const stored = readStored<unknown>(DRAFTS, []);
  const drafts = new Map<string, Draft>();
  if (!Array.isArray(stored)) return drafts;
  for (const entry of stored) {
    const draft = Array.isArray(entry) ? (entry[1] as { body?: { text?: unknown } } | undefined) : undefined;
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof draft?.body?.text !== 'string') continue;
    drafts.set(entry[0], entry[1] as Draft);
  }
  return drafts;
}
