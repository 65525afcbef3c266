/**
 * The viewer bench's targets, its verdict on each (met or missed, with the figure and the
 * limit), and the lines `npm run bench` prints: a table of medians and spreads per case.
 */
import { median } from './measure';
import type { CaseResult, Figures, ViewerResult } from './viewer';

export const TARGETS = {
  firstReadableMs: 1000,
  jumpLastMs: 100,
  longestTaskMs: 200,
  peakMemoryMiB: 500,
  searchCountMs: 300,
  searchNextMs: 500,
  contextMs: 100,
  liveUpdateMs: 100,
  /** First Raw file readable over the static page's, on the bench round and on 10,021 files. */
  floorRatio: { bench: 2, '10k': 3 },
  /** The longest task during the load. */
  loadLongestTaskMs: { bench: 100, '10k': 200 },
  /** DOM nodes and JS heap after the load, 10,021 files over the bench round. */
  growthRatio: 1.5,
  /** Spawn to the first byte of `GET /`, over a bare Node server's. */
  startupRatio: 2,
  /** The server's peak resident set: at most max(100 MiB, this × material.json's size). */
  serverMinMiB: 100,
  serverPerMaterial: 2,
};

export const fmt = (ms: number) =>
  ms < 0 ? 'n/a' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
const mib = (n: number) => (n < 0 ? 'n/a' : `${n.toFixed(0)} MiB`);
export const mb = (bytes: number) => (bytes < 0 ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`);
const count = (n: number) => (n < 0 ? 'n/a' : Math.round(n).toLocaleString('en'));
const times = (ratio: number) => (Number.isFinite(ratio) && ratio >= 0 ? `${ratio.toFixed(2)}×` : 'n/a');

const title = (c: CaseResult) =>
  c.case.name === 'bench'
    ? `bench round (${c.material.entries.toLocaleString('en')} files)`
    : `${c.material.entries.toLocaleString('en')}-file round`;

/** A measured figure over a limit: n/a (-1, not measured) is never a pass. */
const within = (value: number, limit: number, strict = false) =>
  value >= 0 && (strict ? value < limit : value <= limit);

/** Met or missed, target by target, per case; the 10,021-file round's growth needs the bench round too. */
export function verdictsOf(cases: CaseResult[]): string[] {
  // null: the figure cannot be judged in this run (what it is compared with was not measured).
  const verdict = (ok: boolean | null, what: string) => `${ok === null ? 'N/A' : ok ? 'PASS' : 'MISS'}: ${what}`;
  const lines: string[] = [];
  const bench = cases.find((c) => c.case.name === 'bench');
  for (const c of cases) {
    const m = c.median;
    const name = title(c);
    const floorRatio = m.rawFirstMs / m.floorFirstMs;
    const floorLimit = TARGETS.floorRatio[c.case.name];
    const taskLimit = TARGETS.loadLongestTaskMs[c.case.name];
    if (c.case.full) {
      const first = Math.max(m.cardsFirstMs, m.rawFirstMs);
      lines.push(
        verdict(
          within(first, TARGETS.firstReadableMs, true),
          `${name}: first card readable ${fmt(m.cardsFirstMs)}, first Raw file readable ${fmt(m.rawFirstMs)} (target < ${fmt(TARGETS.firstReadableMs)})`,
        ),
      );
    }
    lines.push(
      verdict(
        within(floorRatio, floorLimit),
        `${name}: first Raw file readable ${fmt(m.rawFirstMs)}, ${times(floorRatio)} the static page's ${fmt(m.floorFirstMs)} (target ≤ ${floorLimit}×)`,
      ),
      verdict(
        within(m.loadLongestTaskMs, taskLimit),
        `${name}: longest task during the load ${fmt(m.loadLongestTaskMs)} (target ≤ ${fmt(taskLimit)})`,
      ),
    );
    if (c.case.full) {
      lines.push(
        verdict(
          within(m.jumpLastMs, TARGETS.jumpLastMs, true),
          `${name}: jump to the last file readable ${fmt(m.jumpLastMs)} (target < ${fmt(TARGETS.jumpLastMs)})`,
        ),
        verdict(
          within(m.longestTaskMs, TARGETS.longestTaskMs, true),
          `${name}: longest task with the 50,000-line file unfolded and scrolled ${fmt(m.longestTaskMs)} (target < ${fmt(TARGETS.longestTaskMs)})`,
        ),
        verdict(
          within(m.searchCountMs, TARGETS.searchCountMs) &&
            within(m.searchNextMs, TARGETS.searchNextMs) &&
            within(m.searchLongestTaskMs, TARGETS.longestTaskMs, true),
          `${name}: search for a word only in the last file: count shown ${fmt(m.searchCountMs)} after the last keystroke (target ≤ ${fmt(TARGETS.searchCountMs)}), ` +
            `the match on screen ${fmt(m.searchNextMs)} after next (target ≤ ${fmt(TARGETS.searchNextMs)}), longest task ${fmt(m.searchLongestTaskMs)} (target < ${fmt(TARGETS.longestTaskMs)})`,
        ),
        verdict(
          within(m.contextMs, TARGETS.contextMs),
          `${name}: whole-file context drawn ${fmt(m.contextMs)} after the click (target ≤ ${fmt(TARGETS.contextMs)})`,
        ),
        verdict(
          within(m.liveUpdateMs, TARGETS.liveUpdateMs),
          `${name}: cards.json rewritten to the renamed card on screen ${fmt(m.liveUpdateMs)} (target ≤ ${fmt(TARGETS.liveUpdateMs)})`,
        ),
        verdict(
          within(c.peaks.heapMiB, TARGETS.peakMemoryMiB, true),
          `${name}: peak JS heap ${mib(c.peaks.heapMiB)}, ${count(c.peaks.nodes)} DOM nodes (target < ${TARGETS.peakMemoryMiB} MB); ` +
            `for context, the page renderer's peak RSS ${mib(c.peaks.rendererRssMiB)} (private ${mib(c.peaks.rendererAnonMiB)}), ${mib(m.rendererRssAfterGcMiB)} after a GC`,
        ),
      );
    }
    if (!c.case.full) {
      const growth = (key: 'nodesAfterLoad' | 'heapAfterLoadMiB') => (bench ? m[key] / bench.median[key] : -1);
      const of = (key: 'nodesAfterLoad' | 'heapAfterLoadMiB', f: (n: number) => string) =>
        bench
          ? `${f(m[key])}, ${times(growth(key))} the bench round's ${f(bench.median[key])}`
          : `${f(m[key])}, the bench round not run (BENCH_VIEWER_CASE)`;
      lines.push(
        verdict(
          bench ? within(growth('nodesAfterLoad'), TARGETS.growthRatio) : null,
          `${name}: DOM nodes after the load ${of('nodesAfterLoad', count)} (target ≤ ${TARGETS.growthRatio}×)`,
        ),
        verdict(
          bench ? within(growth('heapAfterLoadMiB'), TARGETS.growthRatio) : null,
          `${name}: JS heap after the load ${of('heapAfterLoadMiB', mib)} (target ≤ ${TARGETS.growthRatio}×)`,
        ),
      );
    }
    const s = c.server;
    const encoding = s.compression?.encoding ?? 'n/a';
    lines.push(
      verdict(
        within(s.startup.ratio, TARGETS.startupRatio),
        `${name}: server spawn to the first byte of GET / ${fmt(median(s.startup.involutMs))}, ${times(s.startup.ratio)} a bare Node server's ${fmt(median(s.startup.bareMs))} (target ≤ ${TARGETS.startupRatio}×)`,
      ),
      verdict(
        within(s.peakMiB, s.limitMiB),
        `${name}: server peak RSS (VmHWM) ${mib(s.peakMiB)} for ${mb(c.material.bytes)} of material (target ≤ max(${TARGETS.serverMinMiB} MiB, ${TARGETS.serverPerMaterial}× material) = ${mib(s.limitMiB)})`,
      ),
      verdict(
        encoding === 'gzip' || encoding === 'br',
        s.compression
          ? `${name}: the largest /api/ answer asked with Accept-Encoding: gzip, br came with content-encoding ${encoding}, ${count(s.compression.wireBytes)} bytes (${count(s.compression.bytes)} decoded; ${s.compression.url.slice(0, 60)}, HTTP ${s.compression.status}) (target: gzip or br)`
          : `${name}: no /api/ answer during the load to ask compressed (target: gzip or br)`,
      ),
    );
  }
  return lines;
}

/** One case's table: median, min–max over the runs, target; rows of phases the case did not run are left out. */
function caseTable(c: CaseResult, bench: CaseResult | undefined): string[] {
  const m = c.median;
  const span = (key: keyof Figures, f = fmt) => {
    const values = c.runs.map((r) => r[key]);
    return `${f(Math.min(...values))}–${f(Math.max(...values))}`;
  };
  const row = (label: string, key: keyof Figures, f: (n: number) => string, target = ''): string[] | null =>
    m[key] < 0 ? null : [label, f(m[key]), span(key, f), target];
  const name = c.case.name;
  const ratioRow = (label: string, value: number, target: string): string[] => [label, times(value), '', target];
  const s = c.server;
  const rows = [
    ['viewer (headless Chromium)', 'median', 'min–max', 'target'],
    row('(a) first card readable (cards.json)', 'cardsFirstMs', fmt, `< ${fmt(TARGETS.firstReadableMs)}`),
    row('(j) cards.json rewritten to the card on screen', 'liveUpdateMs', fmt, `≤ ${fmt(TARGETS.liveUpdateMs)}`),
    row('(a) first Raw file readable (no cards.json)', 'rawFirstMs', fmt, `< ${fmt(TARGETS.firstReadableMs)}`),
    row('(g) the static page with the same file readable', 'floorFirstMs', fmt),
    ratioRow(
      '    first Raw file over the static page',
      m.rawFirstMs / m.floorFirstMs,
      `≤ ${TARGETS.floorRatio[name]}×`,
    ),
    row('(h) load over (first file, then 1 s with no long task)', 'loadEndMs', fmt),
    row('    longest task during the load', 'loadLongestTaskMs', fmt, `≤ ${fmt(TARGETS.loadLongestTaskMs[name])}`),
    row('    DOM nodes after the load (after a GC)', 'nodesAfterLoad', count),
    row('      elements in the document then', 'elementsAfterLoad', count),
    row('    JS heap after the load (after a GC)', 'heapAfterLoadMiB', mib),
    ...(bench && c !== bench
      ? [
          ratioRow(
            '    DOM nodes after the load over the bench round',
            m.nodesAfterLoad / bench.median.nodesAfterLoad,
            `≤ ${TARGETS.growthRatio}×`,
          ),
          ratioRow(
            '    JS heap after the load over the bench round',
            m.heapAfterLoadMiB / bench.median.heapAfterLoadMiB,
            `≤ ${TARGETS.growthRatio}×`,
          ),
        ]
      : []),
    row('    /api/ answers received during the load', 'apiAnswers', count),
    row('    their bytes (decoded)', 'apiBytes', mb),
    row('    their bytes on the wire', 'apiWireBytes', mb),
    row('    of them compressed (wire < decoded)', 'apiCompressed', count),
    row('    the largest /api/ answer (decoded)', 'largestApiBytes', mb),
    row('    its last byte (since the navigation)', 'largestApiEndMs', fmt),
    row('(b) jump to the last file, rows drawn', 'jumpLastMs', fmt, c.case.full ? `< ${fmt(TARGETS.jumpLastMs)}` : ''),
    row(
      '(c) longest task, 50,000-line file unfolded + scrolled',
      'longestTaskMs',
      fmt,
      `< ${fmt(TARGETS.longestTaskMs)}`,
    ),
    row('    longest animation frame (script + rendering)', 'longestFrameMs', fmt),
    row('    unfold click to its rows drawn', 'unfoldReadableMs', fmt),
    row('(e) search: last keystroke to the count shown', 'searchCountMs', fmt, `≤ ${fmt(TARGETS.searchCountMs)}`),
    row('    search: next to the match on screen', 'searchNextMs', fmt, `≤ ${fmt(TARGETS.searchNextMs)}`),
    row('    search: longest task', 'searchLongestTaskMs', fmt, `< ${fmt(TARGETS.longestTaskMs)}`),
    row('(f) whole-file context drawn after the click', 'contextMs', fmt, `≤ ${fmt(TARGETS.contextMs)}`),
    row(
      '(d) peak JS heap (CDP JSHeapUsedSize)',
      'heapPeakMiB',
      mib,
      c.case.full ? `< ${TARGETS.peakMemoryMiB} MB` : '',
    ),
    row('    peak DOM nodes (CDP Nodes)', 'nodesPeak', count),
    row('    after a forced GC: JS heap', 'heapAfterGcMiB', mib),
    row('    after a forced GC: DOM nodes', 'nodesAfterGc', count),
    row("    page renderer's peak RSS (/proc, every 100 ms)", 'rendererRssPeakMiB', mib),
    row('      of which private (RssAnon)', 'rendererAnonPeakMiB', mib),
    row("    page renderer's RSS after a forced GC", 'rendererRssAfterGcMiB', mib),
    [
      '(i) server: spawn to the first byte of GET /',
      fmt(median(s.startup.involutMs)),
      `${fmt(Math.min(...s.startup.involutMs))}–${fmt(Math.max(...s.startup.involutMs))}`,
      '',
    ],
    [
      '    a bare Node server, started the same way',
      fmt(median(s.startup.bareMs)),
      `${fmt(Math.min(...s.startup.bareMs))}–${fmt(Math.max(...s.startup.bareMs))}`,
      '',
    ],
    ratioRow('    involut serve over the bare server', s.startup.ratio, `≤ ${TARGETS.startupRatio}×`),
    ['    server peak RSS (VmHWM, whole case)', mib(s.peakMiB), '', `≤ ${mib(s.limitMiB)}`],
    row('    server RSS at the end of the load', 'serverRssAfterLoadMiB', mib),
    [
      '    largest /api/ answer, asked gzip, br: encoding',
      s.compression?.encoding ?? 'n/a',
      s.compression ? `${count(s.compression.wireBytes)} bytes` : '',
      'gzip or br',
    ],
  ].filter((r): r is string[] => r !== null);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   '),
  );
}

/** The lines `npm run bench` prints for the viewer. */
export function viewerReport(result: ViewerResult): string[] {
  const bench = result.cases.find((c) => c.case.name === 'bench');
  const lines: string[] = [''];
  for (const c of result.cases) {
    const m = c.median;
    lines.push(
      `viewer on the ${title(c)}: material.json ${mb(c.material.bytes)}, ${c.material.entries.toLocaleString('en')} entries; ` +
        `${c.runs.length} runs, each in a fresh browser context; ${result.machine.chromium}`,
      `first file of Raw ${c.firstRef}, last ${c.lastRef}; the largest /api/ answer of the last run: ${c.runs[c.runs.length - 1]?.largestApiUrl || 'none'}`,
      '',
      ...caseTable(c, bench),
      '',
    );
    if (c.case.full)
      lines.push(
        `(c) scrolled ${m.scrollStops} stops (40 screens, then 60 jumps end to end) in ${fmt(m.scrollMs)}, ${m.longTasks} long tasks (> 50 ms) in the phase`,
      );
    lines.push(
      `(i) spawn to first byte, in run order: involut ${c.server.startup.involutMs.map(fmt).join(', ')}; bare ${c.server.startup.bareMs.map(fmt).join(', ')}`,
      `load per run: ${c.runs.map((r) => r.load).join(' | ')}`,
      '',
    );
  }
  lines.push(
    `load before ${result.machine.loadBefore}, after ${result.machine.loadAfter} (${result.machine.cores} cores)`,
    '',
    ...result.verdicts,
    '',
  );
  return lines;
}
