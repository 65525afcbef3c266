import { useEffect, useState } from 'react';
import type { CommitChanges } from '../../schemas/api';
import type { Api } from '../api/client';

/** One commit's changes, or where asking for them stands. */
export type CommitView =
  { state: 'ok'; data: CommitChanges } | { state: 'loading' } | { state: 'failed'; reason: string } | { state: 'none' };

/**
 * Asks the server for the changes of the chosen commit (git diffs it on demand), once per
 * commit: a commit's changes never change, so going back to one is instant.
 */
export function useCommit(api: Api, id: string | null): CommitView {
  const [answers, setAnswers] = useState<ReadonlyMap<string, CommitView>>(new Map());
  const known = id === null ? undefined : answers.get(id);
  useEffect(() => {
    if (id === null || known) return;
    const settle = (view: CommitView) => setAnswers((all) => new Map(all).set(id, view));
    api.commit(id).then(
      (data) => settle({ state: 'ok', data }),
      (error: Error) => settle({ state: 'failed', reason: error.message }),
    );
  }, [api, id, known]);
  if (id === null) return { state: 'none' };
  return known ?? { state: 'loading' };
}
