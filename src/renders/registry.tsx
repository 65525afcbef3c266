import type { ReactNode } from 'react';
import type { Card, RenderKind } from '../../schemas/cards';
import type { MaterialEntry } from '../../schemas/material';
import type { Api } from '../api/client';

/** What a render gets: the card, its material, and the API for bytes. */
export interface RenderProps {
  card: Card;
  entries: MaterialEntry[];
  api: Api;
}

/** A drawing for one render kind: it checks its payload and either draws or says why it cannot. */
export interface Render {
  /** Null when the payload is usable; otherwise one sentence for the card. */
  problem: (card: Card) => string | null;
  draw: (props: RenderProps) => ReactNode;
}

/** Render kinds this viewer draws; `code` (or none) is the diff itself and needs no entry. */
const RENDERS: Partial<Record<RenderKind, Render>> = {};

/** The drawing a card asks for, or why there is none (the diff is shown either way). */
export function renderFor(card: Card): { render: Render } | { absent: string } | null {
  const kind = card.render ?? 'code';
  if (kind === 'code') return null;
  const render = RENDERS[kind];
  if (!render) return { absent: `This card asks for a ${kind} drawing, which this viewer does not draw; the diff below shows the change.` };
  const problem = render.problem(card);
  return problem ? { absent: `The ${kind} drawing is absent: ${problem} The diff below shows the change.` } : { render };
}
