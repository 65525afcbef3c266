import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { danglingSentence, duplicateSentence } from '../../schemas/drawing-faults';
import { GraphPayload } from '../../schemas/renders/graph';
import {
  centreOn,
  changeStops,
  checkGraph,
  drawingFrom,
  elkInput,
  fitView,
  MAX_ZOOM,
  MIN_ZOOM,
  panBy,
  stateCounts,
  viewportHeight,
  zoomAt,
  type Drawing,
  type ElkGraphJson,
  type Graph,
} from '../../src/renders/graph/model';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/render-graph');
const fixtureCard = (id: string) => {
  const cards = JSON.parse(readFileSync(path.join(FIXTURE, 'cards.json'), 'utf8')) as {
    cards: Array<{ id: string; payload: unknown }>;
  };
  return cards.cards.find((c) => c.id === id)!;
};
const graph = (nodes: Graph['nodes'], edges: Graph['edges'] = []): Graph => ({ nodes, edges });

describe('the graph payload schema', () => {
  it('accepts the fixture graphs, with or without labels and states', () => {
    expect(GraphPayload.safeParse(fixtureCard('c_modules').payload).success).toBe(true);
    expect(GraphPayload.safeParse(fixtureCard('c_dangling').payload).success).toBe(true);
    expect(GraphPayload.parse({ graph: { nodes: [{ id: 'a', label: null, state: null }] } }).graph.edges).toEqual([]);
  });

  it('refuses nodes written as bare strings, and states outside added · removed · changed', () => {
    const malformed = GraphPayload.safeParse(fixtureCard('c_malformed').payload);
    expect(malformed.success).toBe(false);
    expect(malformed.error!.issues[0]!.path).toEqual(['graph', 'nodes', 0]);
    expect(GraphPayload.safeParse({ graph: { nodes: [{ id: 'a', state: 'moved' }], edges: [] } }).success).toBe(false);
    expect(GraphPayload.safeParse({ graph: { nodes: [{ id: '' }] } }).success).toBe(false);
  });
});

describe('checkGraph', () => {
  it('keeps every edge between known nodes and labels nodes by id when they have no label', () => {
    const checked = checkGraph(
      graph([{ id: 'a' }, { id: 'b', label: 'Bee', state: 'added' }], [{ from: 'a', to: 'b', label: 'uses' }]),
    );
    expect(checked.nodes).toEqual([
      { id: 'a', label: 'a', state: null },
      { id: 'b', label: 'Bee', state: 'added' },
    ]);
    expect(checked.edges).toEqual([{ from: 'a', to: 'b', label: 'uses', state: null }]);
    expect(checked.dangling).toEqual([]);
    expect(checked.duplicates).toEqual([]);
  });

  it('sets aside edges that name an unknown node, at either end, in payload order', () => {
    const checked = checkGraph(
      graph(
        [{ id: 'a' }, { id: 'b' }],
        [
          { from: 'a', to: 'x' },
          { from: 'a', to: 'b' },
          { from: 'y', to: 'b' },
        ],
      ),
    );
    expect(checked.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['a>b']);
    expect(checked.dangling.map((e) => `${e.from}>${e.to}`)).toEqual(['a>x', 'y>b']);
  });

  it('draws a repeated id once, with the first label and state, and counts the repeats', () => {
    const checked = checkGraph(
      graph([{ id: 'q', label: 'first', state: 'added' }, { id: 'r' }, { id: 'q', label: 'second' }, { id: 'q' }]),
    );
    expect(checked.nodes).toEqual([
      { id: 'q', label: 'first', state: 'added' },
      { id: 'r', label: 'r', state: null },
    ]);
    expect(checked.duplicates).toEqual([{ id: 'q', count: 3 }]);
  });

  it('the fixture card with slips: two edges to unknown modules, one module listed twice', () => {
    const checked = checkGraph(GraphPayload.parse(fixtureCard('c_dangling').payload).graph);
    expect(danglingSentence(checked.dangling)).toBe(
      '2 edges name nodes that are not in the graph, so they are not drawn: src/notify/queue.ts → src/notify/redis.ts, src/workers/mail.ts → src/notify/queue.ts.',
    );
    expect(duplicateSentence(checked.duplicates)).toBe(
      "1 node id appears more than once: src/notify/queue.ts (2 times); each is drawn once, with the first one's label and state.",
    );
  });
});

describe('the sentences', () => {
  it('say nothing when there is nothing to report', () => {
    expect(danglingSentence([])).toBeNull();
    expect(duplicateSentence([])).toBeNull();
  });

  it('are singular for one edge and list at most six, then count the rest', () => {
    expect(danglingSentence([{ from: 'a', to: 'x' }])).toBe(
      '1 edge names a node that is not in the graph, so it is not drawn: a → x.',
    );
    const many = Array.from({ length: 9 }, (_, i) => ({ from: `n${i}`, to: 'ghost' }));
    expect(danglingSentence(many)).toBe(
      '9 edges name nodes that are not in the graph, so they are not drawn: n0 → ghost, n1 → ghost, n2 → ghost, n3 → ghost, n4 → ghost, n5 → ghost and 3 more.',
    );
  });
});

describe('stateCounts', () => {
  it('counts nodes and edges per state, leaving unchanged ones out', () => {
    const checked = checkGraph(GraphPayload.parse(fixtureCard('c_modules').payload).graph);
    expect(stateCounts(checked)).toEqual({
      added: { nodes: 3, edges: 6 },
      removed: { nodes: 1, edges: 4 },
      changed: { nodes: 3, edges: 0 },
    });
  });
});

describe('elkInput', () => {
  it('names nodes and edges by position, so payload ids never collide with ELK ids', () => {
    const checked = checkGraph(
      graph([{ id: 'e0' }, { id: 'n0', state: 'removed' }], [{ from: 'e0', to: 'n0', label: 'calls', state: 'added' }]),
    );
    const input = elkInput(checked, (text) => text.length * 10);
    expect(input.children.map((c) => c.id)).toEqual(['n0', 'n1']);
    expect(input.edges).toEqual([
      { id: 'e0', sources: ['n0'], targets: ['n1'], labels: [{ text: 'calls', width: 76, height: 16 }] },
    ]);
    // The state's sign is part of the text, so the box is sized for it: "− n0" is 4 characters.
    expect(input.children[1]!.width).toBe(4 * 10 + 24);
    expect(input.layoutOptions['elk.algorithm']).toBe('layered');
    expect(input.layoutOptions['elk.direction']).toBe('RIGHT');
  });

  it('cuts very long labels with an ellipsis', () => {
    const input = elkInput(checkGraph(graph([{ id: 'x'.repeat(100) }])), (text) => text.length);
    expect(input.children[0]!.width).toBe(48 + 24);
  });

  it('lowers thoroughness for big graphs, where the default doubles the time', () => {
    const nodes = (n: number) => checkGraph(graph(Array.from({ length: n }, (_, i) => ({ id: `m${i}` }))));
    expect(elkInput(nodes(20)).layoutOptions['elk.layered.thoroughness']).toBe('7');
    expect(elkInput(nodes(340)).layoutOptions['elk.layered.thoroughness']).toBe('2');
  });
});

describe('drawingFrom, on a real ELK layout (elk.bundled.js in Node)', () => {
  it('puts sources on the left, routes every edge and places every edge label', async () => {
    const checked = checkGraph(GraphPayload.parse(fixtureCard('c_modules').payload).graph);
    const laid = (await new ELK().layout(elkInput(checked) as never)) as unknown as ElkGraphJson;
    const drawing = drawingFrom(checked, laid);
    const x = (id: string) => drawing.nodes.find((n) => n.id === id)!.x;
    expect(x('src/main.ts')).toBeLessThan(x('src/server.ts'));
    expect(x('src/server.ts')).toBeLessThan(x('src/routes/orders.ts'));
    expect(x('src/routes/orders.ts')).toBeLessThan(x('src/repo/orders.ts'));
    expect(x('src/repo/orders.ts')).toBeLessThan(x('src/db.ts'));
    expect(x('src/db.ts')).toBeLessThan(x('src/config.ts'));
    expect(drawing.edges).toHaveLength(15);
    for (const edge of drawing.edges) expect(edge.path).toMatch(/^M[\d.]+ [\d.]+( L[\d.]+ [\d.]+)+$/);
    expect(drawing.edges.filter((e) => e.labelBox).map((e) => e.labelBox!.text)).toContain('+ findUser');
    expect(drawing.nodes.find((n) => n.id === 'src/legacy/mailer.ts')!.text).toBe('− legacy/mailer.ts');
    expect(drawing.width).toBeGreaterThan(0);
    expect(drawing.height).toBeGreaterThan(0);
  });

  it('fails loudly when the layout left a node without a position', () => {
    const checked = checkGraph(graph([{ id: 'a' }]));
    expect(() => drawingFrom(checked, { ...elkInput(checked), children: [] })).toThrow(
      'the layout left node a without a position',
    );
  });
});

describe('changeStops', () => {
  const node = (id: string, x: number, y: number, w: number, state: 'added' | 'removed' | 'changed' | null) =>
    ({ id, label: id, state, sign: '', short: id, text: id, x, y, w, h: 30 }) as Drawing['nodes'][number];
  const edge = (from: string, to: string, state: 'added' | null, path: string) => ({
    from,
    to,
    label: null,
    state,
    key: `${from}${to}`,
    path,
    labelBox: null,
  });

  it('walks marked nodes layer by layer, top to bottom, whatever their widths', () => {
    const drawing: Drawing = {
      width: 500,
      height: 200,
      nodes: [
        node('wide', 90, 100, 120, 'changed'),
        node('narrow', 130, 40, 40, 'added'),
        node('plain', 130, 0, 40, null),
        node('right', 300, 0, 40, 'removed'),
      ],
      edges: [],
    };
    expect(changeStops(drawing).map((s) => s.what)).toEqual(['narrow', 'wide', 'right']);
  });

  it('includes a marked edge only when neither of its ends is marked', () => {
    const drawing: Drawing = {
      width: 500,
      height: 200,
      nodes: [node('a', 0, 0, 40, null), node('b', 200, 0, 40, null), node('c', 400, 0, 40, 'added')],
      edges: [edge('a', 'b', 'added', 'M40 15 L120 15 L120 60 L200 60'), edge('b', 'c', 'added', 'M240 15 L400 15')],
    };
    expect(changeStops(drawing)).toEqual([
      { x: 40, y: 15, w: 160, h: 45, what: '+ a → b' },
      { x: 400, y: 0, w: 40, h: 30, what: 'c' },
    ]);
  });

  it('centres a stop in the viewport', () => {
    expect(centreOn({ x: 100, y: 50, w: 40, h: 30 }, { width: 800, height: 400 }, 2)).toEqual({
      k: 2,
      x: 400 - 240,
      y: 200 - 130,
    });
  });
});

describe('pan and zoom', () => {
  it('fits a big drawing inside the viewport, centred', () => {
    const view = fitView({ width: 2000, height: 1000 }, { width: 1032, height: 532 });
    expect(view.k).toBeCloseTo(0.5);
    expect(view.x).toBeCloseTo(16);
    expect(view.y).toBeCloseTo(16);
  });

  it('never enlarges a small drawing past its natural size', () => {
    expect(fitView({ width: 100, height: 50 }, { width: 800, height: 400 })).toEqual({ k: 1, x: 350, y: 175 });
  });

  it('zooms around a point, which stays over the same spot of the drawing', () => {
    const view = zoomAt({ x: 10, y: 20, k: 1 }, 2, { x: 110, y: 120 });
    expect(view).toEqual({ k: 2, x: -90, y: -80 });
    // Drawing point (100, 100) was under (110, 120) and still is.
    expect(100 * view.k + view.x).toBe(110);
    expect(100 * view.k + view.y).toBe(120);
  });

  it('clamps the zoom', () => {
    expect(zoomAt({ x: 0, y: 0, k: 1 }, 1000, { x: 0, y: 0 }).k).toBe(MAX_ZOOM);
    expect(zoomAt({ x: 0, y: 0, k: 1 }, 0.0001, { x: 0, y: 0 }).k).toBe(MIN_ZOOM);
  });

  it('pans by the pointer movement', () => {
    expect(panBy({ x: 1, y: 2, k: 3 }, 10, -5)).toEqual({ x: 11, y: -3, k: 3 });
  });

  it('sizes the viewport to the drawing as fitted to the width, within bounds', () => {
    expect(viewportHeight({ width: 500, height: 200 }, 932)).toBe(232);
    expect(viewportHeight({ width: 1800, height: 400 }, 932)).toBe(200 + 32);
    expect(viewportHeight({ width: 500, height: 20 }, 932)).toBe(140);
    expect(viewportHeight({ width: 500, height: 5000 }, 932)).toBe(600);
  });
});
