import { useEffect, useMemo, useState } from 'react';
import type { CardRounds } from '../../schemas/api';
import type { Cards } from '../../schemas/cards';
import type { RoundIndex } from '../../schemas/api';
import type { Api } from '../api/client';

/** Where each card comes from, when the server can tell: the round it first appeared in. */
export interface CardOrigins {
  /** The round being read. */
  round: number;
  /** The round a card comes from; `round` for a card new in it. */
  roundOf: (id: string) => number | undefined;
}

/**
 * Asks the server which round each card comes from, again whenever cards.json or the round
 * changes. Null while it is asked, and whenever nothing can be told apart (the first round,
 * no earlier cards kept, a failure): cards then show as they always did.
 */
export function useCardRounds(api: Api, material: RoundIndex, cards: Cards | null): CardOrigins | null {
  const [answer, setAnswer] = useState<{ for: [string, Cards | null]; rounds: CardRounds | null } | null>(null);
  const fresh = answer?.for[0] === material.generated && answer.for[1] === cards;
  useEffect(() => {
    if (fresh || !cards) return;
    let current = true;
    const asked: [string, Cards | null] = [material.generated, cards];
    api.cardRounds().then(
      (rounds) => current && setAnswer({ for: asked, rounds }),
      () => current && setAnswer({ for: asked, rounds: null }),
    );
    return () => {
      current = false;
    };
  }, [api, material.generated, cards, fresh]);
  const rounds = fresh && answer.rounds?.state === 'ok' ? answer.rounds.data : null;
  return useMemo(
    () =>
      rounds && {
        round: rounds.round,
        roundOf: (id: string) => (Object.hasOwn(rounds.rounds, id) ? rounds.rounds[id] : undefined),
      },
    [rounds],
  );
}
