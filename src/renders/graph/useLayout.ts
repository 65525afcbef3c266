import { useEffect, useState } from 'react';
import { startLayouter } from './elk';
import { drawingFrom, elkInput, MAX_NODES, type CheckedGraph, type Drawing, type Measure } from './model';

export type LayoutState =
  | { phase: 'empty' }
  | { phase: 'too-big' }
  | { phase: 'laying-out' }
  | { phase: 'drawn'; drawing: Drawing; ms: number }
  | { phase: 'failed'; message: string };

/** The SVG text's font (see `.inv-graph` in styles.css), so ELK sizes nodes to fit their labels. */
const GRAPH_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

let canvas: CanvasRenderingContext2D | null | undefined;
const measure: Measure = (text) => {
  if (canvas === undefined) {
    canvas = document.createElement('canvas').getContext('2d');
    if (canvas) canvas.font = GRAPH_FONT;
  }
  return canvas ? canvas.measureText(text).width : text.length * 7;
};

function before(graph: CheckedGraph): LayoutState {
  if (graph.nodes.length === 0) return { phase: 'empty' };
  if (graph.nodes.length > MAX_NODES) return { phase: 'too-big' };
  return { phase: 'laying-out' };
}

/**
 * Lays `graph` out in a worker of its own, started when the graph changes (keep the
 * object stable for the same graph) and terminated as soon as the layout is done or
 * the card goes away.
 */
export function useLayout(graph: CheckedGraph): LayoutState {
  const [state, setState] = useState<LayoutState>(() => before(graph));
  useEffect(() => {
    const first = before(graph);
    setState(first);
    if (first.phase !== 'laying-out') return;
    let live = true;
    const started = performance.now();
    const layouter = startLayouter();
    layouter
      .layout(elkInput(graph, measure))
      .then((laid) => {
        if (live)
          setState({ phase: 'drawn', drawing: drawingFrom(graph, laid), ms: Math.round(performance.now() - started) });
      })
      .catch((error: unknown) => {
        if (live) setState({ phase: 'failed', message: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => layouter.dispose());
    return () => {
      live = false;
      layouter.dispose();
    };
  }, [graph]);
  return state;
}
