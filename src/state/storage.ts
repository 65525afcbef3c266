import { useCallback, useEffect, useState } from 'react';

/**
 * The reader's own state (viewed marks, predictions, budget, detail preferences, note
 * drafts, diff format) lives in this browser's localStorage, never in the contract
 * files. Keys are namespaced per repository.
 */
let scope = 'involut';

export function setStorageScope(repositoryRoot: string): void {
  scope = `involut:${repositoryRoot}`;
}

export function readStored<T>(key: string, fallback: T): T {
  try {
    const text = localStorage.getItem(`${scope}:${key}`);
    return text === null ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(`${scope}:${key}`);
    else localStorage.setItem(`${scope}:${key}`, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the reader keeps working, only this preference is not kept.
  }
}

/** useState that survives reloads. */
export function useStored<T>(key: string, fallback: T): [T, (value: T | ((old: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => readStored(key, fallback));
  useEffect(() => setValue(readStored(key, fallback)), [key]); // eslint-disable-line react-hooks/exhaustive-deps
  const set = useCallback(
    (next: T | ((old: T) => T)) => {
      setValue((old) => {
        const resolved = typeof next === 'function' ? (next as (old: T) => T)(old) : next;
        writeStored(key, resolved);
        return resolved;
      });
    },
    [key],
  );
  return [value, set];
}
