import { useCallback, useRef, useState } from 'react';

/**
 * State kept in a ref that changes at once, with a render after: `set` computes from the
 * latest value, not from the last rendered one.
 */
export function useSyncedState<T>(
  initial: () => T,
): [T, { readonly current: T }, (change: T | ((old: T) => T)) => void] {
  const [value, setValue] = useState(initial);
  const ref = useRef(value);
  const set = useCallback((change: T | ((old: T) => T)) => {
    const next = typeof change === 'function' ? (change as (old: T) => T)(ref.current) : change;
    if (next === ref.current) return;
    ref.current = next;
    setValue(next);
  }, []);
  return [value, ref, set];
}
