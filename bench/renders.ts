/**
 * The renders part of `npm run bench` (alone: `BENCH_ONLY=renders npm run bench`): how long the
 * card drawings' own work takes, in Node, on the inputs the render tests use. The tests assert
 * what the reader sees (the layout runs in a worker, the rows are right); these are the figures.
 *
 * - graph: ELK's layered layout of fixtures/render-graph/big-graph.json (314 nodes, 497 edges),
 *   what the page's layout worker computes before the drawing shows.
 * - tree: `diffTrees` of a 5,000-entry folder tree with a folder moved to the end, as in
 *   tests/model/tree-diff.test.ts (it ran on the page's thread; a second would be felt).
 *
 * Figures are medians of BENCH_RUNS runs (default 5), after one run to warm up.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ELK, { type ElkNode } from 'elkjs/lib/elk.bundled.js';
import { checkGraph, elkInput, type Graph } from '../src/renders/graph/model';
import { diffTrees } from '../src/model/tree-diff';
import { median } from './measure';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RendersResult {
  runs: number;
  /** ms per layout of the 314-node graph, in run order. */
  graphLayoutMs: number[];
  /** ms per diff of the 5,000-entry trees, in run order. */
  treeDiffMs: number[];
}

async function timed(runs: number, work: () => unknown): Promise<number[]> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

export async function benchRenders(runs: number): Promise<RendersResult> {
  const { graph } = JSON.parse(readFileSync(path.join(PROJECT, 'fixtures/render-graph/big-graph.json'), 'utf8')) as {
    graph: Graph;
  };
  const input = elkInput(checkGraph(graph));
  const elk = new ELK();
  const graphLayoutMs = await timed(runs, () => elk.layout(structuredClone(input) as unknown as ElkNode));

  const folder = (name: string, depth: number) => [
    { name, depth },
    ...Array.from({ length: 49 }, (_, i) => ({ name: `file${i}.ts`, depth: depth + 1 })),
  ];
  const before = Array.from({ length: 100 }, (_, f) => folder(`dir${f}`, 0)).flat();
  const after = [...Array.from({ length: 99 }, (_, f) => folder(`dir${f + 1}`, 0)).flat(), ...folder('dir0', 1)];
  const treeDiffMs = await timed(runs, () => diffTrees(before, after));
  return { runs, graphLayoutMs, treeDiffMs };
}

export function rendersReport(result: RendersResult): string[] {
  const ms = (values: number[]) =>
    `${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;
  return [
    '',
    'Renders (median of the runs, in Node)',
    `  graph: layout of 314 nodes and 497 edges   ${ms(result.graphLayoutMs)}`,
    `  tree: diff of two 5,000-entry trees         ${ms(result.treeDiffMs)}`,
    '',
  ];
}
