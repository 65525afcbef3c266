import { useEffect, useState } from 'react';
import type { SinceLast } from '../../schemas/api';
import type { RoundIndex } from '../../schemas/api';
import type { Api } from '../api/client';

/** The since-last answer, or where asking for it stands. */
export type SinceLastView = SinceLast | { state: 'loading' } | { state: 'failed'; reason: string };

/**
 * Asks the server what changed since the previous round once the reader needs it
 * (`wanted`: Raw mode is open), and again whenever a new round is captured. The server
 * runs a git diff for it, so a page that only reads cards never asks.
 */
export function useSinceLast(api: Api, material: RoundIndex, wanted: boolean): SinceLastView {
  const round = `${material.source.round}:${material.source.tree}:${material.generated}`;
  const [answer, setAnswer] = useState<{ round: string; view: SinceLastView } | null>(null);
  const answered = answer?.round === round;
  useEffect(() => {
    if (!wanted || answered) return;
    let current = true;
    api.sinceLast().then(
      (view) => current && setAnswer({ round, view }),
      (error: Error) => current && setAnswer({ round, view: { state: 'failed', reason: error.message } }),
    );
    return () => {
      current = false;
    };
  }, [api, round, wanted, answered]);
  return answered ? answer.view : { state: 'loading' };
}
