/**
 * The viewer bench's verdicts: a ratio over its limit is a miss, a figure that was not
 * measured (-1) is never a pass, and the 10,021-file round's growth is judged against the
 * bench round only when both ran.
 */
import { expect, it } from 'vitest';
import type { CaseResult, Figures, ViewerCase } from './viewer';
import { verdictsOf } from './viewer-report';

const ZERO: Figures = Object.fromEntries(
  (
    'cardsFirstMs liveUpdateMs rawFirstMs floorFirstMs loadEndMs loadLongestTaskMs heapAfterLoadMiB nodesAfterLoad elementsAfterLoad ' +
    'apiAnswers apiBytes apiWireBytes apiCompressed largestApiBytes largestApiEndMs serverRssAfterLoadMiB jumpLastMs ' +
    'unfoldReadableMs longestTaskMs longestFrameMs longTasks heapPeakMiB nodesPeak rendererRssPeakMiB rendererAnonPeakMiB ' +
    'heapAfterGcMiB nodesAfterGc rendererRssAfterGcMiB scrollStops scrollMs searchCountMs searchNextMs searchLongestTaskMs contextMs'
  )
    .split(' ')
    .map((key) => [key, 10]),
) as unknown as Figures;

function result(viewerCase: ViewerCase, figures: Partial<Figures>): CaseResult {
  const median = { ...ZERO, ...figures };
  return {
    case: viewerCase,
    runs: [{ ...median, load: '0 0 0', largestApiUrl: '/api/x' }],
    median,
    peaks: { heapMiB: 10, nodes: 10, rendererRssMiB: 10, rendererAnonMiB: 10 },
    material: { bytes: 1 << 20, entries: viewerCase.textFiles + 21 },
    firstRef: 'a',
    lastRef: 'z',
    server: {
      startup: { involutMs: [300], bareMs: [100], ratio: 3 },
      peakMiB: 90,
      limitMiB: 100,
      compression: { url: '/api/x', status: 200, encoding: 'br', wireBytes: 10, bytes: 100 },
    },
  };
}

const bench = { name: 'bench', textFiles: 2_000, full: true } as const;
const wide = { name: '10k', textFiles: 10_000, full: false } as const;
const line = (lines: string[], text: string) => lines.find((l) => l.includes(text)) ?? `no line with ${text}`;

it('misses a ratio over its limit and passes one within it', () => {
  const lines = verdictsOf([
    result(bench, { rawFirstMs: 300, floorFirstMs: 100 }),
    result(wide, { rawFirstMs: 300, floorFirstMs: 100, nodesAfterLoad: 20, heapAfterLoadMiB: 12 }),
  ]);
  expect(line(lines, 'bench round (2,021 files): first Raw file readable 300 ms')).toMatch(/^MISS: .*3\.00× .*≤ 2×/);
  expect(line(lines, '10,021-file round: first Raw file readable 300 ms')).toMatch(/^PASS: .*3\.00× .*≤ 3×/);
  expect(line(lines, '10,021-file round: DOM nodes after the load')).toMatch(/^MISS: .*2\.00× the bench round's/);
  expect(line(lines, '10,021-file round: JS heap after the load')).toMatch(/^PASS: .*1\.20× the bench round's/);
  expect(line(lines, 'bench round (2,021 files): server spawn')).toMatch(/^MISS: .*3\.00× a bare Node server's/);
  expect(line(lines, 'bench round (2,021 files): server peak RSS')).toMatch(/^PASS: /);
  expect(line(lines, 'bench round (2,021 files): the largest /api/ answer')).toMatch(/^PASS: .*content-encoding br/);
});

it('never passes a figure that was not measured, and leaves growth unjudged without the bench round', () => {
  const lines = verdictsOf([result(wide, { loadLongestTaskMs: -1 })]);
  expect(line(lines, 'longest task during the load')).toMatch(/^MISS: .*n\/a/);
  expect(line(lines, 'DOM nodes after the load')).toMatch(/^N\/A: .*bench round not run/);
});
