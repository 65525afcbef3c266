import type { ComponentType } from 'react';
import type { z } from 'zod';
import type { Card, RenderKind } from '../../schemas/cards';
import type { MaterialEntry } from '../../schemas/material';
import type { Api } from '../api/client';
import { GraphPayload } from '../../schemas/renders/graph';
import { GraphDraw } from './graph';
import { ImagePayload } from '../../schemas/renders/image';
import { ImageDraw, isDrawnImage } from './image';
import { TreePayload } from '../../schemas/renders/tree';
import { TreeDraw } from './tree';
import { SchemaPayload } from '../../schemas/renders/schema';
import { SchemaDraw } from './schema';
import { TablePayload } from '../../schemas/renders/table';
import { TableDraw } from './table';

/** What every drawing gets: the card, the material entries it names, and the API for bytes. */
export interface RenderProps<T> {
  card: Card;
  entries: MaterialEntry[];
  api: Api;
  /** The card's payload, validated by the render's schema. */
  data: T;
}

/** A drawing for one render kind: the schema of its payload, and the component that draws it. */
export interface Render<T = unknown> {
  schema: z.ZodType<T>;
  Draw: ComponentType<RenderProps<T>>;
  /** Which of the card's files the drawing shows; the others keep their diff in the card's summary. Default: all. */
  draws?: (entry: MaterialEntry) => boolean;
}

export function defineRender<T>(
  schema: z.ZodType<T>,
  Draw: ComponentType<RenderProps<T>>,
  draws?: (entry: MaterialEntry) => boolean,
): Render<T> {
  return { schema, Draw, draws };
}

/**
 * Render kinds this viewer draws, one file each. `code` (or no render) is the diff
 * itself and needs no entry. Register a new kind with one line here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each render has its own payload type
const RENDERS: Partial<Record<RenderKind, Render<any>>> = {
  graph: defineRender(GraphPayload, GraphDraw),
  image: defineRender(ImagePayload, ImageDraw, isDrawnImage),
  tree: defineRender(TreePayload, TreeDraw),
  schema: defineRender(SchemaPayload, SchemaDraw),
  table: defineRender(TablePayload, TableDraw),
};

/** The drawing a card asks for with its validated payload, or why there is none. Either way the diff is shown. */
export function renderFor(
  card: Card,
):
  | { Draw: ComponentType<RenderProps<unknown>>; data: unknown; draws?: (entry: MaterialEntry) => boolean }
  | { absent: string }
  | null {
  const kind = card.render ?? 'code';
  if (kind === 'code') return null;
  const render = RENDERS[kind];
  if (!render)
    return {
      absent: `This card asks for a ${kind} drawing, which this viewer does not draw; the diff below shows the change.`,
    };
  const parsed = render.schema.safeParse(card.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = ['payload', ...issue.path].join('.');
    const problem =
      card.payload === undefined || card.payload === null ? 'the card has no payload.' : `${where}: ${issue.message}.`;
    return { absent: `The ${kind} drawing is absent: ${problem} The diff below shows the change.` };
  }
  return { Draw: render.Draw as ComponentType<RenderProps<unknown>>, data: parsed.data, draws: render.draws };
}
