import { useCallback } from 'react';
import type { Intent } from '../../schemas/cards';
import { learn, startingDetail, type Detail, type DetailHistory } from '../model/detail';
import type { Prediction } from '../components/Question';
import { useStored } from './storage';

/** The reader's own reading state: predictions, daily budget, and how open cards start. */
export function useReading() {
  const [predictions, setPredictions] = useStored<Record<string, Prediction>>('predictions', {});
  const [budgetMinutes, setBudgetMinutes] = useStored<number>('budget', 30);
  const [history, setHistory] = useStored<Partial<Record<Intent, DetailHistory>>>('detail-history', {});
  const [details, setDetails] = useStored<Record<string, Detail>>('details', {});

  const detailOf = useCallback(
    (id: string, intent: Intent) => details[id] ?? startingDetail(intent, history[intent]),
    [details, history],
  );
  const setDetail = useCallback(
    (id: string, intent: Intent, to: Detail) => {
      const from = details[id] ?? startingDetail(intent, history[intent]);
      setHistory((h) => ({ ...h, [intent]: learn(h[intent], from, to) }));
      setDetails((d) => ({ ...d, [id]: to }));
    },
    [details, history, setDetails, setHistory],
  );
  const predict = useCallback(
    (id: string, p: Prediction) => setPredictions((old) => ({ ...old, [id]: p })),
    [setPredictions],
  );

  return { predictions, predict, budgetMinutes, setBudgetMinutes, detailOf, setDetail };
}
