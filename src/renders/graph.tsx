import { useMemo } from 'react';
import type { GraphPayload } from '../../schemas/renders/graph';
import { GraphCanvas } from './graph/GraphCanvas';
import { danglingSentence, duplicateSentence } from '../../schemas/drawing-faults';
import { checkGraph, MAX_NODES, STATE_SIGN, STATES, stateCounts, type CheckedGraph } from './graph/model';
import { useLayout } from './graph/useLayout';
import type { RenderProps } from './registry';

/**
 * `graph`: nodes and edges laid out left to right by ELK (in a worker), coloured and
 * signed by state; edges to unknown nodes and repeated ids are reported above it.
 */
export function GraphDraw({ data }: RenderProps<GraphPayload>) {
  // The payload is parsed again on every render of the card (a note typed, say): its text is
  // what identifies the graph, so the same graph keeps its check and its layout.
  const key = JSON.stringify(data.graph);
  const checked = useMemo(() => checkGraph(data.graph), [key]); // eslint-disable-line react-hooks/exhaustive-deps
  const layout = useLayout(checked);
  const problems = [danglingSentence(checked.dangling), duplicateSentence(checked.duplicates)].filter(
    (s) => s !== null,
  );
  const n = checked.nodes.length;
  return (
    <div
      className="inv-graph"
      data-phase={layout.phase}
      data-layout-ms={layout.phase === 'drawn' ? layout.ms : undefined}
    >
      {problems.map((problem) => (
        <p key={problem} className="inv-graph-problem" role="note">
          {problem}
        </p>
      ))}
      <Legend graph={checked} />
      {layout.phase === 'laying-out' && (
        <p className="inv-graph-status" role="status">
          Laying out {n} {n === 1 ? 'node' : 'nodes'}…
        </p>
      )}
      {layout.phase === 'empty' && <p className="inv-graph-status">The graph has no nodes to draw.</p>}
      {layout.phase === 'too-big' && (
        <p className="inv-render-absent" role="note">
          This graph has {n} nodes; drawings stop at {MAX_NODES}. The diff below shows the change.
        </p>
      )}
      {layout.phase === 'failed' && (
        <p className="inv-render-absent" role="note">
          The graph could not be laid out ({layout.message}). The diff below shows the change.
        </p>
      )}
      {layout.phase === 'drawn' && <GraphCanvas drawing={layout.drawing} />}
    </div>
  );
}

/** Counts per state with a sample of how each is drawn, so a state reads without its colour too. */
function Legend({ graph }: { graph: CheckedGraph }) {
  const counts = stateCounts(graph);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const parts = (c: { nodes: number; edges: number }) =>
    [c.nodes > 0 && plural(c.nodes, 'node'), c.edges > 0 && plural(c.edges, 'edge')].filter(Boolean).join(', ');
  const unchanged = {
    nodes: graph.nodes.filter((x) => !x.state).length,
    edges: graph.edges.filter((x) => !x.state).length,
  };
  const rows = [
    ...STATES.map((state) => ({ state, sign: STATE_SIGN[state], count: counts[state] })),
    { state: 'unchanged', sign: '', count: unchanged },
  ];
  return (
    <div className="inv-graph-legend">
      <span className="inv-graph-total">
        {plural(graph.nodes.length, 'node')} · {plural(graph.edges.length, 'edge')} · arrows point from left to right
      </span>
      <ul aria-label="Legend">
        {rows
          .filter((row) => row.count.nodes + row.count.edges > 0)
          .map((row) => (
            <li key={row.state} className={`inv-graph-${row.state}`} data-state={row.state}>
              <svg width="42" height="16" aria-hidden="true">
                <line className="inv-graph-edge" x1="1" y1="8" x2="13" y2="8" />
                <rect className="inv-graph-swatch" x="17" y="2" width="24" height="12" rx="3" />
              </svg>
              <span>
                <b>
                  {row.sign && `${row.sign} `}
                  {row.state}
                </b>
                : {parts(row.count)}
              </span>
            </li>
          ))}
      </ul>
    </div>
  );
}
