import { useCallback, useEffect, useRef, useState } from 'react';
import type { CardsState, Freshness, NotesState, ReviewFile, RoundState, Waiting } from '../../schemas/api';
import type { Cards } from '../../schemas/cards';
import { ApiFailure, type Api } from '../api/client';
import { whenIdle } from '../idle';

/** Everything the viewer shows, as the server answered it, plus what the viewer keeps. */
export interface Review {
  /** material.json as the round's index (its diffs come per file, see DiffStore). */
  material: RoundState | null;
  cards: CardsState | null;
  /** The last cards that parsed, kept on screen while cards.json is mid-write or broken. */
  lastGoodCards: { data: Cards; invalid: Extract<CardsState, { state: 'ok' }>['invalid'] } | null;
  notes: NotesState | null;
  /** The generation of the read that answered `notes` (see `refetch`). */
  notesSeq: number;
  freshness: Freshness | null;
  /** The agent waiting for a hand-over (`involut notes --wait`), when one is. */
  waiting: Waiting | null;
  /** Why the server could not be reached, when it could not. */
  connection: string | null;
  /** The server answered, but refused this page's key (a page opened without the URL's `#token=`). */
  keyRefused: boolean;
  live: boolean;
}

/**
 * Loads the three files, refetches the one the server says changed, and keeps the last
 * good cards when cards.json stops parsing. State updates in place: nothing here
 * remounts the page, so scroll position, folds and drafts stay.
 */
export function useReview(api: Api): Review & { refetch: (file: ReviewFile) => number; refetchAll: () => void } {
  const [review, setReview] = useState<Review>({
    material: null,
    cards: null,
    lastGoodCards: null,
    notes: null,
    notesSeq: 0,
    freshness: null,
    waiting: null,
    connection: null,
    keyRefused: false,
    live: false,
  });
  const generation = useRef<Record<ReviewFile, number>>({ material: 0, cards: 0, notes: 0 });
  const askFreshness = useCallback(() => {
    api.freshness().then(
      (freshness) => setReview((r) => ({ ...r, freshness })),
      () => {},
    );
  }, [api]);

  const refetch = useCallback(
    (file: ReviewFile) => {
      const mine = ++generation.current[file];
      const load = file === 'material' ? api.round() : file === 'cards' ? api.cards() : api.notes();
      load.then(
        (state) => {
          if (mine !== generation.current[file]) return; // a newer answer is on its way
          setReview((r) => {
            if (file === 'cards') {
              const cards = state as CardsState;
              const lastGoodCards =
                cards.state === 'ok'
                  ? { data: cards.data, invalid: cards.invalid }
                  : cards.state === 'missing'
                    ? null
                    : r.lastGoodCards;
              return { ...r, cards, lastGoodCards, connection: null, keyRefused: false };
            }
            if (file === 'notes')
              return { ...r, notes: state as NotesState, notesSeq: mine, connection: null, keyRefused: false };
            if (file === 'material')
              return { ...r, material: state as RoundState, connection: null, keyRefused: false };
            return r;
          });
        },
        (error: Error) =>
          setReview((r) => ({
            ...r,
            connection: error.message,
            keyRefused: error instanceof ApiFailure && error.code === 'bad-token',
          })),
      );
      // Asked a second later, once the page is idle: its git reads would slow the first files' drawing.
      if (file === 'material') window.setTimeout(() => whenIdle(askFreshness, 2000), 1000);
      return mine;
    },
    [api, askFreshness],
  );
  const askWaiting = useCallback(() => {
    api.waiting().then(
      ({ waiting }) => setReview((r) => ({ ...r, waiting })),
      () => {},
    );
  }, [api]);
  const refetchAll = useCallback(() => (['material', 'cards', 'notes'] as const).forEach(refetch), [refetch]);

  useEffect(() => {
    const all = () => (['material', 'cards', 'notes'] as const).forEach(refetch);
    all();
    let wasDown = false;
    const stop = api.events(
      (event) => {
        if (event.file === 'waiting') askWaiting();
        else if (event.by !== api.viewerId) refetch(event.file);
      },
      (live) => {
        // Connected: catch up on what changed before the stream opened (the small files
        // always, the material too after an outage).
        if (live && wasDown) all();
        else if (live) (['cards', 'notes'] as const).forEach(refetch);
        if (live) askWaiting();
        wasDown = !live;
        setReview((r) => ({ ...r, live }));
      },
    );
    // The working state may move while the page is open: ask again when the reader comes back.
    window.addEventListener('focus', askFreshness);
    return () => {
      stop();
      window.removeEventListener('focus', askFreshness);
    };
  }, [api, refetch, askFreshness, askWaiting]);

  return { ...review, refetch, refetchAll };
}
