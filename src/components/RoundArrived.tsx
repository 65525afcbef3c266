import { useEffect, useRef, useState } from 'react';
import type { Card } from '../../schemas/cards';
import type { Thread } from '../../shared/threads';
import type { CardOrigins } from '../state/useCardRounds';
import './handover.css';

interface Props {
  /** The round on screen: its number (when recorded) and when it was captured. */
  round: number | undefined;
  generated: string;
  cards: Card[];
  origins: CardOrigins | null;
  threads: Map<string, Thread>;
  /** Shows what is new: the first card new in the round, or the round in Raw. */
  onShow: (firstNew: string | null) => void;
}

/**
 * Says, without a reload, that a new round was captured while the page was open
 * ("Round 3 arrived: 2 new cards, 3 notes answered"), with one action to show it.
 */
export function RoundArrived({ round, generated, cards, origins, threads, onShow }: Props) {
  const first = useRef(generated);
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => setDismissed(null), [generated]);
  if (generated === first.current || dismissed === generated) return null;
  const fresh = newCards(cards, origins);
  const answered = [...threads.values()].filter(
    (thread) =>
      thread.state === 'answered' && (origins === null || thread.addressedBy.some((id) => fresh.includes(id))),
  ).length;
  const counts = origins ? `: ${plural(fresh.length, 'new card')}, ${plural(answered, 'note')} answered` : '';
  return (
    <div className="inv-round-arrived" role="status">
      <strong>
        {round === undefined ? 'A new round arrived' : `Round ${round} arrived`}
        {counts}
      </strong>
      <button type="button" onClick={() => onShow(fresh[0] ?? null)}>
        Show what is new
      </button>
      <button type="button" onClick={() => setDismissed(generated)} aria-label="Dismiss the new round notice">
        ×
      </button>
    </div>
  );
}

/** Ids of the cards new in the round on screen, in cards.json order. */
function newCards(cards: Card[], origins: CardOrigins | null): string[] {
  if (!origins) return [];
  return cards.filter((card) => origins.roundOf(card.id) === origins.round).map((card) => card.id);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
