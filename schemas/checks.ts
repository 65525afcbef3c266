/**
 * The checks of a card's drawing and question that the viewer shows and `involut check`
 * reports, in the same words: one module (with the faults it finds in drawing-faults.ts),
 * so a card `check` calls clean draws without a complaint, and every complaint the viewer
 * makes is one `check` makes first.
 */
import type { z } from 'zod';
import type { Card, RenderKind } from './cards';
import type { MaterialEntry } from './material';
import {
  danglingSentence,
  duplicateSentence,
  framesOutside,
  graphFaults,
  outsideItem,
  outsideSentence,
  raggedRows,
  raggedSentence,
} from './drawing-faults';
import { GraphPayload } from './renders/graph';
import { ImagePayload } from './renders/image';
import { SchemaPayload } from './renders/schema';
import { TablePayload } from './renders/table';
import { TreePayload } from './renders/tree';

/** The payload schema of each render kind that has one (`code` draws the diff itself). */
const PAYLOADS: Partial<Record<RenderKind, z.ZodType>> = {
  tree: TreePayload,
  graph: GraphPayload,
  schema: SchemaPayload,
  table: TablePayload,
  image: ImagePayload,
};

/** A card's payload read by its render's schema: the data to draw, or why there is no drawing; null for `code`. */
export function readPayload(card: Card): { data: unknown } | { absent: string } | null {
  const kind = card.render ?? 'code';
  const schema = PAYLOADS[kind];
  if (!schema) return null;
  const parsed = schema.safeParse(card.payload);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = ['payload', ...issue.path.map(String)].join('.');
  const problem = card.payload == null ? 'the card has no payload.' : `${where}: ${issue.message}.`;
  return { absent: `The ${kind} drawing is absent: ${problem} The diff below shows the change.` };
}

/** One thing wrong with a card that the reader sees in the viewer. */
export interface CardProblem {
  code: 'payload' | 'graph-dangling' | 'graph-duplicate' | 'table-ragged' | 'frames-outside' | 'no-answer';
  /** The viewer's sentence. */
  message: string;
}

/**
 * Everything the viewer reports about `card`'s drawing and question. `entries` are the
 * material entries the card names: their image sizes place the frames.
 */
export function cardProblems(card: Card, entries: MaterialEntry[]): CardProblem[] {
  const problems: CardProblem[] = [];
  if (card.question && card.question.answer == null) {
    problems.push({ code: 'no-answer', message: NO_ANSWER });
  }
  const read = readPayload(card);
  if (!read) return problems;
  if ('absent' in read) return [...problems, { code: 'payload', message: read.absent }];
  const add = (code: CardProblem['code'], message: string | null) => message && problems.push({ code, message });
  if (card.render === 'graph') {
    const { dangling, duplicates } = graphFaults((read.data as GraphPayload).graph);
    add('graph-dangling', danglingSentence(dangling));
    add('graph-duplicate', duplicateSentence(duplicates));
  }
  if (card.render === 'table') {
    const { columns, rows } = (read.data as TablePayload).table;
    add('table-ragged', raggedSentence(columns.length, raggedRows(columns.length, rows)));
  }
  if (card.render === 'image') {
    const frames = (read.data as ImagePayload)?.frames ?? [];
    for (const entry of entries.filter((e) => e.binary)) {
      const sizes = { before: entry.before_size ?? null, after: entry.size ?? null };
      const outside = framesOutside(frames, sizes);
      if (outside.length > 0) {
        add(
          'frames-outside',
          `${entry.ref}: ${outsideSentence(outside.length)} ${outside.map((o) => outsideItem(o, sizes)).join(' ')}`,
        );
      }
    }
  }
  return problems;
}

/** What the viewer shows in place of the agent's answer when the question has none. */
const NO_ANSWER = 'The question has no `answer`, so after the reader answers, “The agent’s answer” says “not stated”.';
