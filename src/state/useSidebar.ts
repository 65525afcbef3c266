import { useCallback, useEffect, useState } from 'react';

/** How the sidebar is laid out: shown or hidden, and its width in px. Kept per browser, for every repository. */
export interface SidebarLayout {
  hidden: boolean;
  width: number;
}

const KEY = 'involut:sidebar';
const SIDEBAR_DEFAULT = 300;
const SIDEBAR_MIN = 180;
const SIDEBAR_MAX = 800;

/** A width the sidebar can take: between its bounds, and leaving the diffs at least 320 px. */
function sidebarWidth(width: number): number {
  const room = Math.max(SIDEBAR_MIN, Math.min(SIDEBAR_MAX, window.innerWidth - 320));
  return Math.round(Math.max(SIDEBAR_MIN, Math.min(room, width)));
}

function read(): SidebarLayout {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<SidebarLayout> | null;
    return {
      hidden: stored?.hidden === true,
      width: typeof stored?.width === 'number' ? stored.width : SIDEBAR_DEFAULT,
    };
  } catch {
    return { hidden: false, width: SIDEBAR_DEFAULT };
  }
}

/** The sidebar's layout, remembered in this browser (a full or disabled storage only forgets it). */
export function useSidebar() {
  const [layout, setLayout] = useState(read);
  useEffect(() => {
    try {
      localStorage.setItem(KEY, JSON.stringify(layout));
    } catch {
      // Not kept: the layout still holds for this page.
    }
  }, [layout]);
  const toggle = useCallback(() => setLayout((l) => ({ ...l, hidden: !l.hidden })), []);
  const resize = useCallback((width: number) => setLayout((l) => ({ ...l, width: sidebarWidth(width) })), []);
  return { layout, toggle, resize };
}
