import { useEffect, useRef } from 'react';
import { formatPlace, parsePlace, type Place } from '../../shared/place';

/**
 * Keeps the URL fragment saying where the reader is (beside the token), one history entry
 * per move, and calls `onReturn` with the place the browser's back or forward returns to.
 * The first place replaces the entry the page opened with, so a reload adds none.
 */
export function usePlace(token: string, place: Place, onReturn: (place: Place) => void): void {
  const hash = formatPlace(token, place);
  const first = useRef(true);
  useEffect(() => {
    const now = formatPlace(token, parsePlace(window.location.hash));
    if (now === hash && !first.current) return;
    if (first.current) window.history.replaceState(window.history.state, '', hash);
    else window.history.pushState(null, '', hash);
    first.current = false;
  }, [token, hash]);
  const latest = useRef(onReturn);
  latest.current = onReturn;
  useEffect(() => {
    const onPop = () => latest.current(parsePlace(window.location.hash));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
}
