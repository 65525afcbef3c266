import { useMemo } from 'react';
import type { ViewSettings } from './settings';
import { useStored } from './storage';

/** The reader's drawing preferences, remembered in this browser like the diff format. */
export function useViewOptions() {
  const [hideWhitespace, setHideWhitespace] = useStored('hide-whitespace', false);
  const [wrap, setWrap] = useStored('wrap', false);
  const settings = useMemo<ViewSettings>(() => ({ hideWhitespace, wrap }), [hideWhitespace, wrap]);
  return { hideWhitespace, setHideWhitespace, wrap, setWrap, settings };
}

export type ViewOptionsState = ReturnType<typeof useViewOptions>;
