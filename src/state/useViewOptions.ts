import { useMemo } from 'react';
import type { ViewSettings } from './settings';
import { useStored } from './storage';
import { useTheme, type Theme } from './theme';

/** The reader's drawing preferences, remembered in this browser like the diff format. */
export function useViewOptions() {
  const [hideWhitespace, setHideWhitespace] = useStored('hide-whitespace', false);
  const [wrap, setWrap] = useStored('wrap', false);
  const [theme, setTheme] = useStored<Theme>('theme', 'system');
  const scheme = useTheme(theme);
  const settings = useMemo<ViewSettings>(() => ({ hideWhitespace, wrap, scheme }), [hideWhitespace, wrap, scheme]);
  return { hideWhitespace, setHideWhitespace, wrap, setWrap, theme, setTheme, settings };
}

export type ViewOptionsState = ReturnType<typeof useViewOptions>;
