import { useEffect, useMemo, useState } from 'react';
import type { LoadedEntry } from '../model/entry';
import type { Api } from '../api/client';

export type WhitespaceState = 'shown' | 'loading' | 'hidden' | 'only-whitespace' | 'failed';

/**
 * The entry as the reader asked to see it: with `hide`, a modified or renamed text file
 * takes the server's `git diff -w` (fetched when it is first drawn so, once per diff);
 * every other file, and every file without `hide`, keeps its diff. While the -w diff
 * loads, or when it cannot be had, the whole diff stays: nothing is hidden by a failure.
 */
export function useWhitespace(entry: LoadedEntry, api: Api, hide: boolean) {
  const applies =
    hide &&
    !!entry.diff &&
    !entry.binary &&
    !entry.withheld &&
    (entry.status === 'modified' || entry.status === 'renamed');
  const [answer, setAnswer] = useState<{ for: string; diff: string | null } | null>(null);
  const fresh = answer?.for === entry.diff ? answer : null;
  useEffect(() => {
    if (!applies || fresh) return;
    let live = true;
    const asked = entry.diff!;
    api.whitespace(entry.ref).then(
      (body) => live && setAnswer({ for: asked, diff: body.diff }),
      () => live && setAnswer({ for: asked, diff: null }),
    );
    return () => {
      live = false;
    };
  }, [applies, fresh, api, entry.ref, entry.diff]);
  const state: WhitespaceState = !applies
    ? 'shown'
    : !fresh
      ? 'loading'
      : fresh.diff === null
        ? 'failed'
        : fresh.diff === ''
          ? 'only-whitespace'
          : fresh.diff === entry.diff
            ? 'shown'
            : 'hidden';
  const diff = state === 'hidden' ? fresh!.diff : entry.diff;
  const shown = useMemo(() => (diff === entry.diff ? entry : { ...entry, diff }), [entry, diff]);
  return { entry: shown, state };
}
