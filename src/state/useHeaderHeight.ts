import { useLayoutEffect, type RefObject } from 'react';

/**
 * Keeps `--inv-header-h` on the page at the app bar's height: the bar wraps on a narrow
 * window, and the sticky file headers, the sidebars and every jump's landing place sit below it.
 */
export function useHeaderHeight(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const set = () => document.documentElement.style.setProperty('--inv-header-h', `${element.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
}
