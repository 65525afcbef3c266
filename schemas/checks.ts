/**
 * The checks of a card's drawing and question that the viewer shows and `involut check`
 * reports, in the same words: one module, so a card `check` calls clean draws without a
 * complaint, and every complaint the viewer makes is one `check` makes first.
 */
import type { z } from 'zod';
import type { Card, RenderKind } from './cards';
import type { MaterialEntry } from './material';
import { GraphPayload, type GraphEdge } from './renders/graph';
import { ImagePayload, type ImageFrame } from './renders/image';
import { SchemaPayload } from './renders/schema';
import { TablePayload, type TableCell } from './renders/table';
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
export const NO_ANSWER =
  'The question has no `answer`, so after the reader answers, “The agent’s answer” says “not stated”.';

type Graph = GraphPayload['graph'];

/** Edges whose `from` or `to` names no node, in payload order, and the ids given to more than one node. */
export function graphFaults(graph: Graph): {
  dangling: GraphEdge[];
  duplicates: Array<{ id: string; count: number }>;
} {
  const seen = new Map<string, number>();
  for (const node of graph.nodes) seen.set(node.id, (seen.get(node.id) ?? 0) + 1);
  return {
    dangling: graph.edges.filter((edge) => !seen.has(edge.from) || !seen.has(edge.to)),
    duplicates: [...seen].filter(([, count]) => count > 1).map(([id, count]) => ({ id, count })),
  };
}

const LISTED = 6;

function listed<T>(items: T[], show: (item: T) => string): string {
  const shown = items.slice(0, LISTED).map(show).join(', ');
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}

/** "2 edges name nodes that are not in the graph: a → x, y → b." or null when every edge lands. */
export function danglingSentence(dangling: GraphEdge[]): string | null {
  if (dangling.length === 0) return null;
  const subject =
    dangling.length === 1 ? '1 edge names a node that is' : `${dangling.length} edges name nodes that are`;
  return `${subject} not in the graph, so ${dangling.length === 1 ? 'it is' : 'they are'} not drawn: ${listed(dangling, (e) => `${e.from} → ${e.to}`)}.`;
}

/** "2 node ids appear more than once: a (3 times), b (2 times); each is drawn once." or null. */
export function duplicateSentence(duplicates: Array<{ id: string; count: number }>): string | null {
  if (duplicates.length === 0) return null;
  const subject = duplicates.length === 1 ? '1 node id appears' : `${duplicates.length} node ids appear`;
  return `${subject} more than once: ${listed(duplicates, (d) => `${d.id} (${d.count} times)`)}; each is drawn once, with the first one's label and state.`;
}

export interface Ragged {
  row: number;
  cells: number;
}

/** Rows whose cell count differs from the column count, numbered from 1 as the drawing numbers them. */
export function raggedRows(columns: number, rows: TableCell[][]): Ragged[] {
  return rows.flatMap((row, i) => (row.length === columns ? [] : [{ row: i + 1, cells: row.length }]));
}

/** "2 rows do not have 10 cells, one per column: row 6 has 11 (1 extra, …)." or null when no row is ragged. */
export function raggedSentence(columns: number, ragged: Ragged[]): string | null {
  if (ragged.length === 0) return null;
  const shown = ragged.slice(0, 8);
  const says = (r: Ragged) =>
    r.cells < columns
      ? `row ${r.row} has ${r.cells} (${columns - r.cells} missing, marked “no cell”)`
      : `row ${r.row} has ${r.cells} (${r.cells - columns} extra, shown under “extra”)`;
  const more = ragged.length > shown.length ? `; and ${ragged.length - shown.length} more rows` : '';
  return `${ragged.length === 1 ? 'One row does' : `${ragged.length} rows do`} not have ${columns} ${columns === 1 ? 'cell' : 'cells'}, one per column: ${shown.map(says).join('; ')}${more}.`;
}

export interface Size {
  w: number;
  h: number;
}

export type Side = 'before' | 'after';

/** A frame that fits none of the images: it cannot be compared, only reported. */
export interface FrameOutside<F> {
  frame: F;
  sides: Side[];
}

/** Whether `rect` lies wholly inside an image of `size`. */
export function fits(rect: Size & { x: number; y: number }, size: Size): boolean {
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.w <= size.w && rect.y + rect.h <= size.h;
}

/** The frames that fit none of the images there are (an absent side, `null`, is not one). */
export function framesOutside<F extends ImageFrame>(
  frames: F[],
  sizes: { before: Size | null; after: Size | null },
): FrameOutside<F>[] {
  const sides = (['before', 'after'] as const).filter((side) => sizes[side] !== null);
  if (sides.length === 0) return [];
  return frames.flatMap((frame) =>
    sides.every((side) => !fits(frame, sizes[side]!)) ? [{ frame, sides: [...sides] }] : [],
  );
}

/** "1 frame lies outside the image and could not be compared:" */
export function outsideSentence(count: number): string {
  return `${count} ${count === 1 ? 'frame lies' : 'frames lie'} outside the image and could not be compared:`;
}

/** "ghost (x 128, y 96, 32×32) is outside the before image (128×128) and the after image (128×128)." */
export function outsideItem(
  { frame, sides }: FrameOutside<ImageFrame>,
  sizes: Record<Side, Size | null | undefined>,
): string {
  const images = sides.map((s) => `${s} image (${sizeText(sizes[s])})`).join(' and the ');
  return `${frame.name} (${rectText(frame)}) is outside the ${images}.`;
}

export function sizeText(size: Size | null | undefined): string {
  return size ? `${size.w}×${size.h}` : 'size unknown';
}

export function rectText(frame: ImageFrame): string {
  return `x ${frame.x}, y ${frame.y}, ${frame.w}×${frame.h}`;
}
