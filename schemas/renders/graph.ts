import { z } from 'zod';

/** What happened to a node or an edge in this change; absent or `null` means it is unchanged. */
export const GraphState = z.enum(['added', 'removed', 'changed']);

const GraphNode = z.looseObject({
  id: z.string().min(1),
  label: z.string().nullish().describe('Shown in the node; the id when absent.'),
  state: GraphState.nullish(),
});

export const GraphEdge = z.looseObject({
  from: z.string().min(1).describe('The id of the node the edge starts at (drawn on the left).'),
  to: z.string().min(1),
  label: z.string().nullish(),
  state: GraphState.nullish(),
});

/**
 * The `graph` render's payload: nodes and directed edges, laid out left to right.
 * Edges that name a node not in `nodes`, and repeated node ids, are reported on the
 * card rather than refused, so one slip does not cost the whole drawing.
 */
export const GraphPayload = z.looseObject({
  graph: z.looseObject({
    nodes: z.array(GraphNode),
    edges: z.array(GraphEdge).default([]),
  }),
});

export type GraphState = z.infer<typeof GraphState>;
type GraphNode = z.infer<typeof GraphNode>;
export type GraphEdge = z.infer<typeof GraphEdge>;
export type GraphPayload = z.infer<typeof GraphPayload>;
