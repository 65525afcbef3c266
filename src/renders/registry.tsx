import type { ComponentType } from 'react';
import type { Card, RenderKind } from '../../schemas/cards';
import { readPayload } from '../../schemas/checks';
import type { Entry } from '../model/entry';
import type { Api } from '../api/client';
import { GraphDraw } from './graph';
import { ImageDraw, isDrawnImage } from './image';
import { TreeDraw } from './tree';
import { SchemaDraw } from './schema';
import { TableDraw } from './table';

/** What every drawing gets: the card, the material entries it names, and the API for bytes. */
export interface RenderProps<T> {
  card: Card;
  entries: Entry[];
  api: Api;
  /** The card's payload, validated by the render's schema. */
  data: T;
}

/** A drawing for one render kind: the component that draws it, and which of the card's files it shows (the others keep their diff in the card's summary; default: all). */
interface Render {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each render has its own payload type
  Draw: ComponentType<RenderProps<any>>;
  draws?: (entry: Entry) => boolean;
}

/**
 * Render kinds this viewer draws, one file each; each payload's schema is in
 * `schemas/checks.ts`, shared with `involut check`. `code` (or no render) is the diff
 * itself and needs no entry. Register a new kind with one line here.
 */
const RENDERS: Partial<Record<RenderKind, Render>> = {
  graph: { Draw: GraphDraw },
  image: { Draw: ImageDraw, draws: isDrawnImage },
  tree: { Draw: TreeDraw },
  schema: { Draw: SchemaDraw },
  table: { Draw: TableDraw },
};

/** The drawing a card asks for with its validated payload, or why there is none. Either way the diff is shown. */
export function renderFor(
  card: Card,
):
  | { Draw: ComponentType<RenderProps<unknown>>; data: unknown; draws?: (entry: Entry) => boolean }
  | { absent: string }
  | null {
  const kind = card.render ?? 'code';
  if (kind === 'code') return null;
  const render = RENDERS[kind];
  if (!render)
    return {
      absent: `This card asks for a ${kind} drawing, which this viewer does not draw; the diff below shows the change.`,
    };
  const read = readPayload(card);
  if (!read) return null;
  if ('absent' in read) return read;
  return { Draw: render.Draw as ComponentType<RenderProps<unknown>>, data: read.data, draws: render.draws };
}
