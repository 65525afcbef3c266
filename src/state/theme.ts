import { useEffect, useState } from 'react';
import hljsDark from 'highlight.js/styles/github-dark.css?url';
import hljsLight from 'highlight.js/styles/github.css?url';

/** What the reader chose: the system's scheme, or one of the two whatever the system says. */
export type Theme = 'system' | 'light' | 'dark';
export type Scheme = 'light' | 'dark';

const DARK = '(prefers-color-scheme: dark)';

/**
 * Draws the page in the chosen theme: `<html data-theme>` (styles.css keys every dark colour on
 * it), highlight.js's matching stylesheet, and the scheme diff2html draws in (returned). A
 * "system" theme follows the system as it changes.
 */
export function useTheme(theme: Theme): Scheme {
  const [systemDark, setSystemDark] = useState(() => window.matchMedia(DARK).matches);
  useEffect(() => {
    const query = window.matchMedia(DARK);
    const changed = () => setSystemDark(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  const scheme: Scheme = theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
  useEffect(() => applyScheme(scheme), [scheme]);
  return scheme;
}

function applyScheme(scheme: Scheme): void {
  if (document.documentElement.dataset.theme === scheme) return;
  document.documentElement.dataset.theme = scheme;
  highlightSheet().href = scheme === 'dark' ? hljsDark : hljsLight;
}

// Drawn in the system's scheme from the first paint: the reader's choice is known only once the
// round (whose repository scopes the stored preferences) has loaded, and a later switch restyles the whole page.
applyScheme(window.matchMedia(DARK).matches ? 'dark' : 'light');

/** The one <link> of highlight.js's colours (a stylesheet of the page's own origin, as the CSP asks). */
function highlightSheet(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>('link#inv-highlight');
  if (!link) {
    link = document.createElement('link');
    link.id = 'inv-highlight';
    link.rel = 'stylesheet';
    document.head.append(link);
  }
  return link;
}
