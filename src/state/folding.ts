import { useLayoutEffect, useState, useSyncExternalStore } from 'react';

/** The last "collapse all" or "expand all": every file follows it, those drawn later too. */
let command: { open: boolean; seq: number } | null = null;
const listeners = new Set<() => void>();

export function foldAll(open: boolean): void {
  command = { open, seq: (command?.seq ?? 0) + 1 };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Whether a file's diff is unfolded: it starts as `initial` (or as the last collapse/expand
 * all said), and follows every later collapse/expand all; the reader's own toggle in between
 * is theirs.
 */
export function useFold(initial: boolean): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => command?.open ?? initial);
  const last = useSyncExternalStore(subscribe, () => command);
  const [seen, setSeen] = useState(last?.seq ?? 0);
  useLayoutEffect(() => {
    if (last && last.seq !== seen) {
      setSeen(last.seq);
      setOpen(last.open);
    }
  }, [last, seen]);
  return [open, setOpen];
}
