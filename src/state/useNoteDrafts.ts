import { useCallback, useEffect, useRef } from 'react';
import type { NoteSeen } from '../../schemas/api';
import type { Api } from '../api/client';
import type { NoteBody } from '../model/note-sync';
import { readStored, writeStored } from './storage';
import { useSyncedState } from './useSyncedState';

/** A draft and the note it was typed over: what the server must still hold for the write to go through. */
export interface Draft {
  body: NoteBody;
  seen: NoteSeen | null;
}

export type NoteDrafts = ReturnType<typeof useNoteDrafts>;

const DRAFTS = 'drafts';
/** How soon a draft is handed to the server to keep, well before it is sent as a note. */
const KEEP_MS = 150;

/** The reader's unsent notes, kept twice: by this browser (per origin) and by the server (per repository). */
export function useNoteDrafts(api: Api) {
  const [drafts, draftsRef, setDrafts] = useSyncedState(() => new Map<string, Draft>());
  const keepTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  /** Replaces the drafts, in this browser's storage too. */
  const putDrafts = useCallback(
    (change: (old: Map<string, Draft>) => Map<string, Draft>) => {
      const next = change(draftsRef.current);
      if (next === draftsRef.current) return;
      setDrafts(next);
      writeStored(DRAFTS, [...next]);
    },
    [draftsRef, setDrafts],
  );
  /** Hands a key's draft (or its absence) to the server to keep, shortly. */
  const keep = useCallback(
    (key: string) => {
      clearTimeout(keepTimers.current.get(key));
      keepTimers.current.set(
        key,
        setTimeout(() => {
          const kept = draftsRef.current.get(key) ?? { body: { text: '', title: '', refs: [] }, seen: null };
          api.putDraft(key, kept).catch(() => {}); // the browser's copy stays either way
        }, KEEP_MS),
      );
    },
    [api, draftsRef],
  );
  return { drafts, draftsRef, putDrafts, keep };
}

/**
 * Drafts left by a reload, or kept by the server (a server started again on another port
 * serves another origin, which cannot read this one's storage), are shown and sent again.
 */
export function useRestoredDrafts(
  api: Api,
  scopeReady: boolean,
  { draftsRef, putDrafts }: NoteDrafts,
  send: (key: string) => void,
) {
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
