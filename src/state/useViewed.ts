import { useCallback } from 'react';
import type { Entry } from '../model/entry';
import { useStored } from './storage';

/**
 * Viewed checkmarks per file, kept across reloads. A mark remembers the file's hash,
 * so it resets by itself when the file changes in a later round.
 */
export function useViewed() {
  const [viewed, setViewed] = useStored<Record<string, string>>('viewed', {});
  const isViewed = useCallback((entry: Entry) => viewed[entry.ref] === entry.hash, [viewed]);
  const setEntryViewed = useCallback(
    (entry: Entry, on: boolean) =>
      setViewed((old) => {
        const { [entry.ref]: _old, ...rest } = old;
        return on ? { ...rest, [entry.ref]: entry.hash } : rest;
      }),
    [setViewed],
  );
  return { isViewed, setViewed: setEntryViewed };
}
