import { useEffect, useRef } from 'react';

export interface KeyActions {
  nextCard: (step: 1 | -1) => void;
  nextFile: (step: 1 | -1) => void;
  nextHunk: (step: 1 | -1) => void;
  nextNote: (step: 1 | -1) => void;
  toggleViewed: () => void;
  toggleRaw: () => void;
  toggleFormat: () => void;
  toggleWhitespace: () => void;
  toggleSidebar: () => void;
  focusNote: () => void;
  focusSearch: () => void;
  focusHandOver: () => void;
  toggleHelp: () => void;
  closeHelp: () => void;
}

/** Every key and what it does; HelpOverlay lists each one (a test holds them together). */
export const KEYS: Record<string, (a: KeyActions) => void> = {
  j: (a) => a.nextCard(1),
  k: (a) => a.nextCard(-1),
  ']': (a) => a.nextFile(1),
  '[': (a) => a.nextFile(-1),
  '.': (a) => a.nextHunk(1),
  ',': (a) => a.nextHunk(-1),
  m: (a) => a.nextNote(1),
  M: (a) => a.nextNote(-1),
  v: (a) => a.toggleViewed(),
  r: (a) => a.toggleRaw(),
  s: (a) => a.toggleFormat(),
  w: (a) => a.toggleWhitespace(),
  b: (a) => a.toggleSidebar(),
  n: (a) => a.focusNote(),
  '/': (a) => a.focusSearch(),
  H: (a) => a.focusHandOver(),
  '?': (a) => a.toggleHelp(),
  Escape: (a) => a.closeHelp(),
};

/** The viewer's keys (listed in HelpOverlay); typing in a field never triggers them. */
export function useKeyboard(actions: KeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
      const action = KEYS[event.key];
      if (!action) return;
      // Escape keeps its default too: it also closes an open popover (the View menu).
      if (event.key !== 'Escape') event.preventDefault();
      action(latest.current);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
