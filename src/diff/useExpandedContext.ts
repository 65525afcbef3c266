import { useMemo, useRef, useState } from 'react';
import type { LoadedEntry } from '../model/entry';
import type { Api } from '../api/client';
import { expandDiff, linesAbove, linesBelow } from '../model/context';

/** Lines revealed by one step above a hunk or below the last. */
export const CONTEXT_STEP = 20;

type Range = [number, number];

/**
 * The diff of a file with the context the reader asked for around its hunks. The lines
 * come from the round itself (the after version in the captured tree, fetched once, on the
 * first ask). Only modified and renamed files have lines in no hunk: an added or deleted
 * file's one hunk is the whole file.
 */
export function useExpandedContext(entry: LoadedEntry, api: Api, widen = true) {
  const expandable =
    widen &&
    !!entry.diff &&
    !entry.binary &&
    !entry.withheld &&
    (entry.status === 'modified' || entry.status === 'renamed');
  const [file, setFile] = useState<string[] | null>(null);
  const [revealed, setRevealed] = useState<Range[]>([]);
  const [error, setError] = useState<string | null>(null);
  const loading = useRef<Promise<string[]> | null>(null);
  // A new round's diff starts from its own hunks (checked during render: no extra pass when a file first draws).
  const [forDiff, setForDiff] = useState(entry.diff);
  if (forDiff !== entry.diff) {
    setForDiff(entry.diff);
    setRevealed([]);
    setFile(null);
    loading.current = null;
  }

  const diff = useMemo(
    () => (entry.diff && file && revealed.length ? expandDiff(entry.diff, file, revealed) : entry.diff),
    [entry.diff, file, revealed],
  );

  const reveal = async (pick: (shown: string, total: number) => Range | null) => {
    if (!expandable || !entry.diff) return;
    try {
      loading.current ??= api.lines(entry.ref, 'after').then((answer) => answer.lines);
      const lines = await loading.current;
      setFile(lines);
      setError(null);
      setRevealed((old) => {
        const range = pick(old.length ? expandDiff(entry.diff!, lines, old) : entry.diff!, lines.length);
        return range ? [...old, range] : old;
      });
    } catch (failure) {
      loading.current = null;
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  const whole = file !== null && revealed.some(([first, last]) => first <= 1 && last >= file.length);
  return {
    diff,
    expandable,
    error,
    /** Whether the whole file is shown; known once its lines came. */
    whole,
    /** Whether lines below the last hunk remain; true until the file's length is known. */
    moreBelow: file === null || (!!diff && linesBelow(diff, file.length, 1) !== null),
    above: (hunkHeader: string) => reveal((shown) => linesAbove(shown, hunkHeader, CONTEXT_STEP)),
    below: () => reveal((shown, total) => linesBelow(shown, total, CONTEXT_STEP)),
    wholeFile: () => reveal((_, total) => (total > 0 ? [1, total] : null)),
  };
}

export type ExpandedContext = ReturnType<typeof useExpandedContext>;
