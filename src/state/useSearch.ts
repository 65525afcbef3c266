import { useEffect, useMemo, useState } from 'react';
import type { SearchResult } from '../../schemas/api';
import type { Api } from '../api/client';
import { flatMatches, stepIndex, type Match } from '../model/search';

export interface SearchOptions {
  caseSensitive: boolean;
  wholeWord: boolean;
  regex: boolean;
}

/** Pause after the last keystroke before the server is asked. */
const DEBOUNCE_MS = 120;

/**
 * A search of the whole round, answered by the server (the page never scans the diffs):
 * the query and its options, the answer, and which match the reader is on. `version`
 * changes with the material, and asks again.
 */
export function useSearch(api: Api, order: () => Map<string, number>, version: string) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState<SearchOptions>({ caseSensitive: false, wholeWord: false, regex: false });
  const [answer, setAnswer] = useState<{ result: SearchResult | null; error: string | null; for: string }>({
    result: null,
    error: null,
    for: '',
  });
  const [at, setAt] = useState(-1);
  const key = JSON.stringify([text, options, version]);

  useEffect(() => {
    if (!text) return setAnswer({ result: null, error: null, for: key });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const query = {
        q: text,
        case: flag(options.caseSensitive),
        word: flag(options.wholeWord),
        regex: flag(options.regex),
      };
      api.search(query, controller.signal).then(
        (result) => setAnswer({ result, error: null, for: key }),
        (error: Error) => !controller.signal.aborted && setAnswer({ result: null, error: error.message, for: key }),
      );
    }, DEBOUNCE_MS);
    setAt(-1);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  const matches = useMemo(() => (answer.result ? flatMatches(answer.result, order()) : []), [answer.result, order]);
  const step = (by: 1 | -1): Match | null => {
    const next = stepIndex(at, by, matches.length);
    setAt(next);
    return matches[next] ?? null;
  };
  return {
    text,
    setText,
    options,
    setOptions,
    result: answer.result,
    error: answer.error,
    pending: !!text && answer.for !== key,
    matches,
    at,
    step,
  };
}

export type SearchState = ReturnType<typeof useSearch>;

const flag = (on: boolean): '0' | '1' => (on ? '1' : '0');
