import { useSyncExternalStore } from 'react';
import type { NoteBody } from '../model/note-sync';

/** The note deleted last, with what it held: it can be written back for a few seconds. */
export interface Deleted {
  key: string;
  body: NoteBody;
  /** How the note is named to the reader ("Note on file src/a.ts"). */
  label: string;
  seq: number;
}

let current: Deleted | null = null;
let seq = 0;
const listeners = new Set<() => void>();

function tell(): void {
  for (const listener of listeners) listener();
}

export function offerUndo(key: string, body: NoteBody, label: string): void {
  current = { key, body, label, seq: ++seq };
  tell();
}

export function dropUndo(): void {
  current = null;
  tell();
}

export function useDeleted(): Deleted | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
