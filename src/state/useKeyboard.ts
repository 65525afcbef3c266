import { useEffect, useRef } from 'react';

export interface KeyActions {
  nextCard: (step: 1 | -1) => void;
  nextFile: (step: 1 | -1) => void;
  toggleRaw: () => void;
  toggleFormat: () => void;
  focusNote: () => void;
  focusSearch: () => void;
  toggleHelp: () => void;
  closeHelp: () => void;
}

/** The viewer's keys (listed in HelpOverlay); typing in a field never triggers them. */
export function useKeyboard(actions: KeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
      const a = latest.current;
      const map: Record<string, () => void> = {
        j: () => a.nextCard(1),
        k: () => a.nextCard(-1),
        ']': () => a.nextFile(1),
        '[': () => a.nextFile(-1),
        r: a.toggleRaw,
        s: a.toggleFormat,
        n: a.focusNote,
        '/': a.focusSearch,
        '?': a.toggleHelp,
        Escape: a.closeHelp,
      };
      const action = map[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
