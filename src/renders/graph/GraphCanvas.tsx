import { memo, useId, useMemo, useRef, useState } from 'react';
import type { GraphState } from '../../../schemas/renders/graph';
import { changeStops, type Drawing } from './model';
import { usePanZoom } from './usePanZoom';

const KINDS = ['unchanged', 'added', 'removed', 'changed'] as const;
const kind = (state: GraphState | null) => state ?? 'unchanged';

/** The laid-out graph as SVG, with zoom buttons and a walk through its changes. */
export function GraphCanvas({ drawing }: { drawing: Drawing }) {
  const viewport = useRef<HTMLDivElement>(null);
  const { view, height, fit, zoomIn, zoomOut, centre, bind } = usePanZoom(viewport, drawing);
  const stops = useMemo(() => changeStops(drawing), [drawing]);
  const [at, setAt] = useState<number | null>(null);
  const arrows = `inv-graph-${useId().replace(/[^\w-]/g, '')}`;
  const go = (step: 1 | -1) => {
    const next = at === null ? (step === 1 ? 0 : stops.length - 1) : (at + step + stops.length) % stops.length;
    setAt(next);
    centre(stops[next]!);
  };
  const stop = at === null ? null : stops[at];
  return (
    <div className="inv-graph-frame">
      <div className="inv-graph-tools" role="toolbar" aria-label="Move around the graph">
        <button type="button" className="inv-icon-button" aria-label="Zoom in" title="Zoom in (+)" onClick={zoomIn}>
          +
        </button>
        <button type="button" className="inv-icon-button" aria-label="Zoom out" title="Zoom out (−)" onClick={zoomOut}>
          −
        </button>
        <button type="button" title="Show the whole graph (0)" onClick={fit}>
          Fit
        </button>
        <span className="inv-graph-zoom">{Math.round(view.k * 100)}%</span>
        {stops.length > 0 && (
          <span className="inv-graph-walk">
            <button type="button" className="inv-icon-button" aria-label="Previous change" onClick={() => go(-1)}>
              ‹
            </button>
            <span aria-live="polite">
              {stop
                ? `change ${at! + 1} of ${stops.length}: ${stop.what}`
                : `${stops.length} ${stops.length === 1 ? 'change' : 'changes'}`}
            </span>
            <button type="button" className="inv-icon-button" aria-label="Next change" onClick={() => go(1)}>
              ›
            </button>
          </span>
        )}
        <span className="inv-muted inv-graph-hint">Drag to move · Ctrl + wheel to zoom</span>
      </div>
      <div
        ref={viewport}
        className="inv-graph-viewport"
        tabIndex={0}
        role="group"
        aria-label="Graph drawing: arrow keys move it, + and − zoom, 0 fits it"
        style={{ height }}
        {...bind}
      >
        <svg width="100%" height="100%">
          <defs>
            {KINDS.map((k) => (
              <marker
                key={k}
                id={`${arrows}-${k}`}
                className={`inv-graph-arrow inv-graph-${k}`}
                viewBox="0 0 10 10"
                refX="10"
                refY="5"
                markerWidth="9"
                markerHeight="9"
                markerUnits="userSpaceOnUse"
                orient="auto"
              >
                <path d="M0 0 L10 5 L0 10 z" />
              </marker>
            ))}
          </defs>
          <g
            className="inv-graph-world"
            transform={`translate(${round(view.x)} ${round(view.y)}) scale(${round(view.k, 1000)})`}
          >
            <Scene drawing={drawing} arrows={arrows} />
            {stop && (
              <rect
                className="inv-graph-focus"
                x={stop.x - 6}
                y={stop.y - 6}
                width={stop.w + 12}
                height={stop.h + 12}
                rx={8}
              />
            )}
          </g>
        </svg>
      </div>
    </div>
  );
}

const round = (n: number, by = 10) => Math.round(n * by) / by;

/** Everything inside the pan/zoom group; memoised so a drag re-renders one attribute, not the graph. */
const Scene = memo(function Scene({ drawing, arrows }: { drawing: Drawing; arrows: string }) {
  return (
    <>
      {drawing.edges.map((edge) => (
        <path
          key={edge.key}
          className={`inv-graph-edge inv-graph-${kind(edge.state)}`}
          data-state={kind(edge.state)}
          d={edge.path}
          markerEnd={`url(#${arrows}-${kind(edge.state)})`}
        />
      ))}
      {drawing.nodes.map((node) => (
        <g
          key={node.id}
          className={`inv-graph-node inv-graph-${kind(node.state)}`}
          data-state={kind(node.state)}
          transform={`translate(${node.x} ${node.y})`}
        >
          <title>{`${node.id}${node.label !== node.id ? ` “${node.label}”` : ''}${node.state ? ` (${node.state})` : ''}`}</title>
          <rect width={node.w} height={node.h} rx={5} />
          <text x={node.w / 2} y={node.h / 2} textAnchor="middle" dominantBaseline="central">
            {node.sign && <tspan className="inv-graph-sign">{node.sign} </tspan>}
            {node.short}
          </text>
        </g>
      ))}
      {drawing.edges.map(
        (edge) =>
          edge.labelBox && (
            <g
              key={edge.key}
              className={`inv-graph-edge-label inv-graph-${kind(edge.state)}`}
              data-state={kind(edge.state)}
              transform={`translate(${edge.labelBox.x} ${edge.labelBox.y})`}
            >
              <rect width={edge.labelBox.w} height={edge.labelBox.h} rx={3} />
              <text x={edge.labelBox.w / 2} y={edge.labelBox.h / 2} textAnchor="middle" dominantBaseline="central">
                {edge.labelBox.text}
              </text>
            </g>
          ),
      )}
    </>
  );
});
