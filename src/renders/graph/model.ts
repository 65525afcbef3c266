/**
 * The graph render's pure logic: checking a payload, building ELK's input from it,
 * turning ELK's answer into something to draw, and the pan/zoom arithmetic.
 * Nothing here touches the DOM or imports elkjs; `elk.ts` does the layout.
 */
import { graphFaults } from '../../../schemas/drawing-faults';
import type { GraphEdge, GraphPayload, GraphState } from '../../../schemas/renders/graph';

export type Graph = GraphPayload['graph'];

/** A node as it will be drawn (the first of any nodes sharing its id). */
interface CheckedNode {
  id: string;
  label: string;
  state: GraphState | null;
}

interface CheckedEdge {
  from: string;
  to: string;
  label: string | null;
  state: GraphState | null;
}

/** The payload split into what can be drawn and what has to be reported. */
export interface CheckedGraph {
  nodes: CheckedNode[];
  edges: CheckedEdge[];
  /** Edges whose `from` or `to` names no node, in payload order. */
  dangling: GraphEdge[];
  /** Ids that appear on more than one node, with how many times. */
  duplicates: Array<{ id: string; count: number }>;
}

/** What to draw, and what to report (found as `involut check` finds it). */
export function checkGraph(graph: Graph): CheckedGraph {
  const { dangling, duplicates } = graphFaults(graph);
  const seen = new Set<string>();
  const nodes: CheckedNode[] = [];
  for (const node of graph.nodes) {
    if (!seen.has(node.id)) nodes.push({ id: node.id, label: node.label || node.id, state: node.state ?? null });
    seen.add(node.id);
  }
  const lost = new Set(dangling);
  const edges: CheckedEdge[] = graph.edges
    .filter((edge) => !lost.has(edge))
    .map((edge) => ({ from: edge.from, to: edge.to, label: edge.label || null, state: edge.state ?? null }));
  return { nodes, edges, dangling, duplicates };
}

export const STATES: GraphState[] = ['added', 'removed', 'changed'];

/** The sign drawn before a label, so a state reads without its colour. */
export const STATE_SIGN: Record<GraphState, string> = { added: '+', removed: '−', changed: '~' };

export type StateCounts = Record<GraphState, { nodes: number; edges: number }>;

export function stateCounts(graph: Pick<CheckedGraph, 'nodes' | 'edges'>): StateCounts {
  const counts = { added: { nodes: 0, edges: 0 }, removed: { nodes: 0, edges: 0 }, changed: { nodes: 0, edges: 0 } };
  for (const node of graph.nodes) if (node.state) counts[node.state].nodes++;
  for (const edge of graph.edges) if (edge.state) counts[edge.state].edges++;
  return counts;
}

/** Above this many nodes the drawing is not attempted: ELK needs seconds and the page thousands of elements. */
export const MAX_NODES = 2000;

// ELK's JSON graph, only the parts this render writes and reads.
interface ElkBox {
  x?: number;
  y?: number;
  width: number;
  height: number;
}
interface ElkLabelJson extends ElkBox {
  text: string;
}
interface ElkSection {
  startPoint: { x: number; y: number };
  endPoint: { x: number; y: number };
  bendPoints?: Array<{ x: number; y: number }>;
}
interface ElkNodeJson extends ElkBox {
  id: string;
}
interface ElkEdgeJson {
  id: string;
  sources: string[];
  targets: string[];
  labels?: ElkLabelJson[];
  sections?: ElkSection[];
}
export interface ElkGraphJson {
  id: string;
  layoutOptions: Record<string, string>;
  children: ElkNodeJson[];
  edges: ElkEdgeJson[];
  width?: number;
  height?: number;
}

/** Width of a text in pixels at the drawing's font; the viewer measures, tests estimate. */
export type Measure = (text: string) => number;
const estimateWidth: Measure = (text) => text.length * 7;

const NODE_HEIGHT = 30;
const NODE_PAD = 12;
const LABEL_HEIGHT = 16;
/** Longer labels are cut with an ellipsis; the whole one is in the node's tooltip. */
const MAX_LABEL = 48;

function shortLabel(label: string): string {
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
}

/** The text a node shows: its state's sign, then its (possibly shortened) label. */
function nodeText(node: CheckedNode): string {
  return node.state ? `${STATE_SIGN[node.state]} ${shortLabel(node.label)}` : shortLabel(node.label);
}

/**
 * ELK options: layered, sources on the left. Thoroughness trades fewer crossings for
 * time: at 2,000 nodes the default (7) takes twice as long as 1 (STACK.md §8.4), so
 * big graphs get 2.
 */
function layoutOptions(nodeCount: number): Record<string, string> {
  return {
    'elk.algorithm': 'layered',
    'elk.direction': 'RIGHT',
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.layered.thoroughness': nodeCount > 300 ? '2' : '7',
    'elk.spacing.nodeNode': '14',
    'elk.layered.spacing.nodeNodeBetweenLayers': '32',
    'elk.spacing.edgeNode': '12',
    'elk.spacing.edgeEdge': '8',
    'elk.spacing.edgeLabel': '3',
    'elk.spacing.componentComponent': '28',
    'elk.layered.spacing.edgeNodeBetweenLayers': '10',
  };
}

/** ELK's input: nodes `n<i>` and edges `e<i>` by position, so no payload id can collide with another. */
export function elkInput(graph: CheckedGraph, measure: Measure = estimateWidth): ElkGraphJson {
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  return {
    id: 'root',
    layoutOptions: layoutOptions(graph.nodes.length),
    children: graph.nodes.map((node, i) => ({
      id: `n${i}`,
      width: Math.ceil(measure(nodeText(node))) + 2 * NODE_PAD,
      height: NODE_HEIGHT,
    })),
    edges: graph.edges.map((edge, i) => ({
      id: `e${i}`,
      sources: [`n${index.get(edge.from)}`],
      targets: [`n${index.get(edge.to)}`],
      ...(edge.label
        ? {
            labels: [
              { text: shortLabel(edge.label), width: Math.ceil(measure(edgeText(edge))) + 6, height: LABEL_HEIGHT },
            ],
          }
        : {}),
    })),
  };
}

function edgeText(edge: CheckedEdge): string {
  const label = shortLabel(edge.label ?? '');
  return edge.state ? `${STATE_SIGN[edge.state]} ${label}` : label;
}

interface DrawnNode extends CheckedNode {
  /** The state's sign ('' when unchanged), then the label as shown (shortened), then both. */
  sign: string;
  short: string;
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

interface DrawnEdge extends CheckedEdge {
  key: string;
  /** SVG path data through ELK's sections, in drawing coordinates. */
  path: string;
  /** Where the label box sits (top-left corner and size), when there is a label. */
  labelBox: { x: number; y: number; w: number; h: number; text: string } | null;
}

export interface Drawing {
  width: number;
  height: number;
  nodes: DrawnNode[];
  edges: DrawnEdge[];
}

/** ELK's answer as drawable shapes; fails loudly if ELK left something without a position. */
export function drawingFrom(graph: CheckedGraph, laid: ElkGraphJson): Drawing {
  const nodes = graph.nodes.map((node, i) => {
    const box = laid.children[i];
    if (!box || box.id !== `n${i}` || box.x === undefined || box.y === undefined)
      throw new Error(`the layout left node ${node.id} without a position`);
    const sign = node.state ? STATE_SIGN[node.state] : '';
    return {
      ...node,
      sign,
      short: shortLabel(node.label),
      text: nodeText(node),
      x: box.x,
      y: box.y,
      w: box.width,
      h: box.height,
    };
  });
  const edges = graph.edges.map((edge, i) => {
    const laidEdge = laid.edges[i];
    const sections = laidEdge?.sections ?? [];
    if (sections.length === 0) throw new Error(`the layout left the edge ${edge.from} → ${edge.to} without a route`);
    const label = laidEdge?.labels?.[0];
    return {
      ...edge,
      key: `e${i}`,
      path: sections.map(sectionPath).join(' '),
      labelBox:
        label && edge.label
          ? { x: label.x ?? 0, y: label.y ?? 0, w: label.width, h: label.height, text: edgeText(edge) }
          : null,
    };
  });
  return { width: laid.width ?? 0, height: laid.height ?? 0, nodes, edges };
}

function sectionPath(section: ElkSection): string {
  const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)} ${round(p.y)}`).join(' ');
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A pan and zoom: drawing point p shows at (p.x * k + x, p.y * k + y). */
export interface View {
  x: number;
  y: number;
  k: number;
}

export const MIN_ZOOM = 0.02;
export const MAX_ZOOM = 4;
const FIT_MARGIN = 16;

/** The whole drawing centred in the viewport, never enlarged past its natural size. */
export function fitView(drawing: { width: number; height: number }, viewport: { width: number; height: number }): View {
  const room = (size: number) => Math.max(1, size - 2 * FIT_MARGIN);
  const k = clamp(
    Math.min(1, room(viewport.width) / Math.max(1, drawing.width), room(viewport.height) / Math.max(1, drawing.height)),
    MIN_ZOOM,
    MAX_ZOOM,
  );
  return { k, x: (viewport.width - drawing.width * k) / 2, y: (viewport.height - drawing.height * k) / 2 };
}

/** Zooms by `factor` keeping the viewport point `at` over the same drawing point. */
export function zoomAt(view: View, factor: number, at: { x: number; y: number }): View {
  const k = clamp(view.k * factor, MIN_ZOOM, MAX_ZOOM);
  const ratio = k / view.k;
  return { k, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio };
}

export function panBy(view: View, dx: number, dy: number): View {
  return { ...view, x: view.x + dx, y: view.y + dy };
}

/**
 * How tall the viewport is: as tall as the drawing once fitted to `width` (a small
 * graph gets no empty band), within bounds so a huge one does not take the page.
 */
export function viewportHeight(drawing: { width: number; height: number }, width: number): number {
  const k = Math.min(1, Math.max(1, width - 2 * FIT_MARGIN) / Math.max(1, drawing.width));
  return clamp(Math.ceil(drawing.height * k) + 2 * FIT_MARGIN, 140, 600);
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A place the reader can jump to: a node with a state, or a marked edge between two unmarked nodes. */
export interface Stop extends Box {
  what: string;
}

/**
 * Every change in reading order (layer by layer from the left, top to bottom in each),
 * so a big graph can be walked change by change. An edge counts only when neither end
 * is marked already. ELK centres the nodes of a layer on one line, hence the centres.
 */
export function changeStops(drawing: Drawing): Stop[] {
  const stops: Stop[] = drawing.nodes
    .filter((n) => n.state)
    .map((n) => ({ x: n.x, y: n.y, w: n.w, h: n.h, what: n.text }));
  const marked = new Set(drawing.nodes.filter((n) => n.state).map((n) => n.id));
  for (const edge of drawing.edges) {
    if (!edge.state || marked.has(edge.from) || marked.has(edge.to)) continue;
    stops.push({ ...pathBox(edge.path), what: `${STATE_SIGN[edge.state]} ${edge.from} → ${edge.to}` });
  }
  const column = (stop: Stop) => Math.round((stop.x + stop.w / 2) / 8);
  return stops.sort((a, b) => column(a) - column(b) || a.y - b.y);
}

function pathBox(path: string): Box {
  const numbers = path.match(/-?[\d.]+/g)!.map(Number);
  const xs = numbers.filter((_, i) => i % 2 === 0);
  const ys = numbers.filter((_, i) => i % 2 === 1);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** `box` centred in the viewport at zoom `k`. */
export function centreOn(box: Box, viewport: { width: number; height: number }, k: number): View {
  return { k, x: viewport.width / 2 - (box.x + box.w / 2) * k, y: viewport.height / 2 - (box.y + box.h / 2) * k };
}

function clamp(n: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, n));
}
