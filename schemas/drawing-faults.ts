/**
 * What can be wrong with a drawing that its schema accepts, found and told in the words the
 * viewer and `involut check` share (see checks.ts): a graph's dangling edges and repeated
 * ids, a table's ragged rows, an image's frames outside it. Types only from the schemas,
 * so the viewer draws with these without loading zod.
 */
import type { GraphEdge, GraphPayload } from './renders/graph';
import type { ImageFrame } from './renders/image';
import type { TableCell } from './renders/table';

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
