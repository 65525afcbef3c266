import { useEffect, useState } from 'react';
import type { SinceLast } from '../../schemas/api';
import type { Material } from '../../schemas/material';
import type { Api } from '../api/client';

/** The since-last answer, or where asking for it stands. */
export type SinceLastView = SinceLast | { state: 'loading' } | { state: 'failed'; reason: string };

/** Asks the server what changed since the previous round, again whenever a new round is captured. */
export function useSinceLast(api: Api, material: Material): SinceLastView {
  const round = `${material.source.round}:${material.source.tree}:${material.generated}`;
  const [answer, setAnswer] = useState<{ round: string; view: SinceLastView } | null>(null);
  useEffect(() => {
    let current = true;
    api.sinceLast().then(
      (view) => current && setAnswer({ round, view }),
      (error: Error) => current && setAnswer({ round, view: { state: 'failed', reason: error.message } }),
    );
    return () => {
      current = false;
    };
  }, [api, round]);
  return answer?.round === round ? answer.view : { state: 'loading' };
}
