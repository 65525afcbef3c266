import { useEffect, useState } from 'react';
import type { Card } from '../../schemas/cards';

type Registry = typeof import('./registry');
type Drawing = ReturnType<Registry['renderFor']>;

let loaded: Registry | null = null;
let loading: Promise<Registry> | null = null;

/**
 * Loads the drawings and zod, which reads their payloads: a chunk of its own, so a page
 * whose first card or file has no drawing starts without them.
 */
function loadRenders(): Promise<Registry> {
  loading ??= import('./registry').then(
    (registry) => (loaded = registry),
    (error: unknown) => {
      loading = null; // the next card that needs them asks again
      throw error;
    },
  );
  return loading;
}

const drawn = (card: Card) => (card.render ?? 'code') !== 'code';

/** Starts loading the drawings as soon as the cards say one of them has a drawing. */
export function usePreloadRenders(cards: Card[]): void {
  const wanted = cards.some(drawn);
  useEffect(() => {
    if (wanted) loadRenders().catch(() => {}); // a card that needs them says what went wrong
  }, [wanted]);
}

/**
 * The drawing a card asks for (see renderFor): `'loading'` while the drawings load, null
 * for a card without one, and why there is none when they could not be loaded.
 */
export function useRender(card: Card): Drawing | 'loading' {
  const [registry, setRegistry] = useState(loaded);
  const [failed, setFailed] = useState<string | null>(null);
  const wanted = drawn(card);
  useEffect(() => {
    if (!wanted || registry) return;
    let live = true;
    loadRenders().then(
      (r) => live && setRegistry(() => r),
      (error: unknown) => live && setFailed(String(error)),
    );
    return () => {
      live = false;
    };
  }, [wanted, registry]);
  if (!wanted) return null;
  if (registry) return registry.renderFor(card);
  if (failed)
    return { absent: `The ${card.render} drawing could not be loaded (${failed}); the diff below shows the change.` };
  return 'loading';
}
