/**
 * The viewer part of `npm run bench` (alone: `BENCH_ONLY=viewer npm run bench`): the built
 * viewer, served by the built CLI (`involut serve`) over a synthetic round, driven
 * in Debian's headless Chromium through playwright-core. DESIGN.md's targets:
 *
 * (a) navigation to the first card or file readable: under 1 s. From the navigation's start
 *     (the page's time origin) to the first animation frame where the first diff rows (for a
 *     card) or the first file's drawn body (in Raw: rows, or its images decoded) are in the
 *     viewport. Measured twice: with a cards.json (the viewer opens on the first card), and
 *     without one (it opens in Raw, on the first file of the tree).
 * (b) jumping to the last file readable: under 100 ms. In Raw, the tree's last file button is
 *     clicked (the viewer scrolls its section into view, as for any click); timed from just
 *     before the click to the first frame where that file's rows are drawn and on screen.
 * (c) the longest main-thread task while the 50,000-line file is unfolded and scrolled
 *     through: under 200 ms. The file is opened from the tree, its fold clicked, then it is
 *     scrolled a screen at a time for a while and then jumped through end to end, waiting at
 *     each stop for the rows on screen to be drawn. Figures: the longest `longtask` entry
 *     (PerformanceObserver) from the click on the fold to the end of the scroll, and, for
 *     context, the longest `long-animation-frame` (a frame's script plus its style, layout
 *     and paint).
 * (d) the page's peak memory: under 500 MB. CDP `Performance.getMetrics`' JSHeapUsedSize
 *     (the page's JavaScript heap; `measureUserAgentSpecificMemory` needs cross-origin
 *     isolation, which the viewer does not have) sampled at every stop of every phase,
 *     with the DOM node count beside it. For context: the page's renderer process (the
 *     largest renderer this process started) read from /proc every 100 ms, its resident set
 *     and the private part of it, and both again after a forced garbage collection at the
 *     end (what is still held, as against garbage not yet collected).
 * (e) search for a word only in the last file (from the query's last key, the field focused
 *     300 ms before, as a reader's is), and (f) a file's whole-file context, timed.
 *
 * Beside them, the targets of a round that need not wait for all of itself:
 * (g) the floor: the same first file on a static page (bench/viewer-floor.ts), measured the
 *     same way just before each Raw run; the viewer's first Raw file readable as a ratio to it.
 * (h) the load: from the navigation to the first file readable and then 1 s without a long
 *     task (10 s at most). Its longest task; the DOM nodes and JS heap at its end (after a
 *     forced GC); the `/api/` answers received by then (resource timing, whatever their
 *     paths: count, bytes, the largest), and the server's resident set.
 * (i) the server (bench/viewer-server.ts): spawn to the first byte of `GET /` against a bare
 *     Node server started the same way, alternately; its peak resident set (VmHWM) over the
 *     whole case; and whether the largest `/api/` answer comes compressed when asked.
 * (j) the live update: with cards, cards.json rewritten (tmp + rename) with the first card's
 *     title changed, to the first frame where the card under its new title is on screen.
 *
 * Two cases (BENCH_VIEWER_CASE picks one): `bench`, the bench round (2,021 files), with every
 * phase; `10k`, the same round with 10,000 text files (10,021 files), with the load and the
 * jump, its DOM and heap compared with the bench round's.
 *
 * Every run has a fresh browser context (empty storage), left to settle before the
 * navigation (see `settled`). Figures are medians of BENCH_VIEWER_RUNS runs (default 3);
 * peaks are the largest of any run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { loadavg, median, processes } from './measure';
import { resetRepo, type SynthRepo } from './synth-repo';
import { fmt, mb, TARGETS, verdictsOf } from './viewer-report';
import { bareFolder, floorFiles, startBare, type FloorEntry } from './viewer-floor';
import {
  API_ANSWERS,
  compression,
  processMemory,
  spawnServer,
  startup,
  type ApiAnswer,
  type Compression,
  type Served,
  type Startup,
} from './viewer-server';
import { findBrowser, launchOptions } from '../tests/helpers/find-browser';

const VIEWPORT = { width: 1280, height: 900 };
export const LARGE_REF = 'data/large-table.ts';

/** Where the bench repository is built and cached; BENCH_ROOT puts it elsewhere (a copy no other run touches). */
export const BENCH_ROOT = process.env.BENCH_ROOT
  ? path.resolve(process.env.BENCH_ROOT)
  : path.join(os.tmpdir(), 'involut-bench');

/** The built CLI; BENCH_CLI names another build (one made elsewhere for profiling, say). */
export const CLI = process.env.BENCH_CLI
  ? path.resolve(process.env.BENCH_CLI)
  : path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'dist', 'server', 'cli.js');

/** A round the viewer is measured on. */
export interface ViewerCase {
  name: 'bench' | '10k';
  /** Text files of the synthetic round (bench/synth-repo.ts), besides its large file and images. */
  textFiles: number;
  /** Every phase (cards, search, context, the 50,000-line file), or only the load and the jump. */
  full: boolean;
}

export const VIEWER_CASES: ViewerCase[] = [
  { name: 'bench', textFiles: 2_000, full: true },
  { name: '10k', textFiles: 10_000, full: false },
];

/** One run's figures; -1 for a phase the case does not run. */
interface ViewerRun {
  load: string;
  cardsFirstMs: number;
  /** (j) cards.json rewritten to the renamed card on screen. */
  liveUpdateMs: number;
  rawFirstMs: number;
  /** The static page with the same first file, measured just before this run. */
  floorFirstMs: number;
  /** (h) the load: its end (ms since the navigation), its longest task, what the page holds after it. */
  loadEndMs: number;
  loadLongestTaskMs: number;
  heapAfterLoadMiB: number;
  nodesAfterLoad: number;
  /** For context: the document's elements then (CDP's node count also has text and detached nodes). */
  elementsAfterLoad: number;
  /** The `/api/` answers received during the load: how many, their bytes decoded and on the wire, how many compressed. */
  apiAnswers: number;
  apiBytes: number;
  apiWireBytes: number;
  apiCompressed: number;
  /** The largest of them: its path and query, bytes, and when its last byte arrived (ms since the navigation). */
  largestApiUrl: string;
  largestApiBytes: number;
  largestApiEndMs: number;
  /** The server's resident set at the end of the load. */
  serverRssAfterLoadMiB: number;
  jumpLastMs: number;
  unfoldReadableMs: number;
  longestTaskMs: number;
  longestFrameMs: number;
  longTasks: number;
  heapPeakMiB: number;
  nodesPeak: number;
  /** The page's renderer process: peak resident set, and its private (anonymous) part. */
  rendererRssPeakMiB: number;
  rendererAnonPeakMiB: number;
  /** After the Raw run, a forced garbage collection: what the page still holds. */
  heapAfterGcMiB: number;
  nodesAfterGc: number;
  rendererRssAfterGcMiB: number;
  scrollStops: number;
  scrollMs: number;
  /** A search for text only in the last file's diff: last keystroke to the count shown, "next" to the line on screen, and the longest task between. */
  searchCountMs: number;
  searchNextMs: number;
  searchLongestTaskMs: number;
  /** A click on a file's "whole file" to its lines drawn (-1: no file of the round had context to show). */
  contextMs: number;
}

/** The figures of a run that are numbers (medians are taken of each). */
export type Figures = Omit<ViewerRun, 'load' | 'largestApiUrl'>;

export interface CaseResult {
  case: ViewerCase;
  runs: ViewerRun[];
  median: Figures;
  peaks: { heapMiB: number; nodes: number; rendererRssMiB: number; rendererAnonMiB: number };
  material: { bytes: number; entries: number };
  firstRef: string;
  lastRef: string;
  server: {
    startup: Startup;
    /** VmHWM over the whole case (warm-up and every run), and its limit. */
    peakMiB: number;
    limitMiB: number;
    /** The largest `/api/` answer of the last run's load, asked again with `Accept-Encoding: gzip, br`. */
    compression: Compression | null;
  };
}

export interface ViewerResult {
  date: string;
  cases: CaseResult[];
  targets: typeof TARGETS;
  verdicts: string[];
  machine: { cores: number; loadBefore: string; loadAfter: string; chromium: string };
}

/** The page's own instruments, installed before any of its scripts (a string: see STACK.md G5). */
const INSTRUMENTS = `
globalThis.__name = (f) => f;
globalThis.__bench = { longtasks: [], frames: [] };
// Every answer of a round of any size keeps its timing entry (the buffer holds 250 by default).
performance.setResourceTimingBufferSize(1000000);
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) globalThis.__bench.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
} catch {}
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) globalThis.__bench.frames.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'long-animation-frame', buffered: true });
} catch {}
`;

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The user's environment minus GIT_*, with a HOME and server state folder of its own. */
function serverEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    INVOLUT_STATE_DIR: path.join(home, 'state'),
  };
}

/** A few cards over the bench round: the first (risk, full detail) names two small files and marks a line. */
export function benchCards(material: {
  material: Array<{ ref: string; diff: string | null; binary: boolean }>;
}): unknown {
  const text = material.material
    .filter((e) => !e.binary && e.ref !== LARGE_REF)
    .map((e) => e.ref)
    .sort();
  const images = material.material.filter((e) => e.binary).map((e) => e.ref);
  const firstAdded = (ref: string) => {
    const diff = material.material.find((e) => e.ref === ref)?.diff ?? '';
    const line = diff.split('\n').find((l) => l.startsWith('+') && l.trim().length > 12);
    return line ? line.slice(1).trim() : 'export';
  };
  const card = (
    id: string,
    intent: string,
    title: string,
    refs: string[],
    marks: Array<{ ref: string; at: string; text: string }> = [],
  ) => ({
    id,
    title,
    intent,
    minutes: 2,
    refs,
    why: `Bench card ${id}.`,
    skipped: [],
    unsure: null,
    unrequested: null,
    might_break: [],
    render: 'code',
    continues: null,
    marks,
  });
  return {
    contract: 1,
    request: 'the bench round',
    cards: [
      card('c_risk', 'risk', 'The first two modules changed their lookups', text.slice(0, 2), [
        { ref: text[0]!, at: firstAdded(text[0]!), text: 'A mark on the first added line.' },
      ]),
      card('c_behavior', 'behavior', 'Three modules compute differently', text.slice(2, 5)),
      card('c_structure', 'structure', 'The large table was regenerated', [LARGE_REF]),
      card('c_cleanup', 'cleanup', 'Twenty modules tidied', text.slice(5, 25)),
      card('c_assets', 'assets', 'Sprites repainted', images),
    ],
  };
}

/** The built CLI's `involut serve` over `repoDir`, its state under `home`. */
export async function serve(repoDir: string, home: string): Promise<Served> {
  const served = await spawnServer([CLI, 'serve', '--no-open', '--port', '0', '--repo', repoDir], serverEnv(home));
  if (!/#token=/.test(served.url)) {
    await served.stop();
    throw new Error(`the server's first line is not the viewer URL: ${served.url}`);
  }
  return served;
}

/** The page's renderer: the largest Chromium renderer this process started (one page at a time here). */
function pageRenderer(): { rssKiB: number; anonKiB: number } | null {
  const { list, descends } = processes();
  const renderers: Array<{ pid: number; rssKiB: number; anonKiB: number }> = [];
  for (const { pid, comm } of list) {
    if (!isChromium(comm) || !descends(pid, process.pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type=renderer')) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'latin1');
      const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      renderers.push({ pid, rssKiB: kib('VmRSS'), anonKiB: kib('RssAnon') });
    } catch {
      // gone meanwhile
    }
  }
  return renderers.sort((a, b) => b.rssKiB - a.rssKiB)[0] ?? null;
}

const isChromium = (comm: string) => comm.startsWith('chromium') || comm.startsWith('chrome');

/**
 * Samples the page's renderer every 100 ms: its peak resident set, and the private
 * (anonymous) part of it, without the shared libraries every Chromium process maps.
 */
function rendererSampler(): { stop: () => { rssMiB: number; anonMiB: number } } {
  let rss = 0;
  let anon = 0;
  const tick = () => {
    const now = pageRenderer();
    if (!now) return;
    rss = Math.max(rss, now.rssKiB);
    anon = Math.max(anon, now.anonKiB);
  };
  const timer = setInterval(tick, 100);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return { rssMiB: rss / 1024, anonMiB: anon / 1024 };
    },
  };
}

/** Keeps the largest JS heap and DOM node count seen through CDP. */
class MemoryProbe {
  heapPeak = 0;
  nodesPeak = 0;
  heap = 0;
  nodes = 0;
  constructor(private readonly cdp: CDPSession) {}
  /** Collects garbage (V8's heap and, through it, unreachable DOM), then samples what is left. */
  async afterGc(): Promise<void> {
    await this.cdp.send('HeapProfiler.collectGarbage');
    await this.sample();
  }
  static async start(page: Page): Promise<MemoryProbe> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    return new MemoryProbe(cdp);
  }
  async sample(): Promise<void> {
    const { metrics } = await this.cdp.send('Performance.getMetrics');
    const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    this.heap = value('JSHeapUsedSize');
    this.nodes = value('Nodes');
    this.heapPeak = Math.max(this.heapPeak, this.heap);
    this.nodesPeak = Math.max(this.nodesPeak, this.nodes);
  }
}

/** The page's memory at the end of a run: its peaks, then what a forced garbage collection leaves. */
async function memoryFigures(page: Page, probe: MemoryProbe, rss: ReturnType<typeof rendererSampler>) {
  const peak = rss.stop();
  await probe.afterGc();
  await page.waitForTimeout(500);
  return {
    heapPeakMiB: probe.heapPeak / 1024 / 1024,
    nodesPeak: probe.nodesPeak,
    rendererRssPeakMiB: peak.rssMiB,
    rendererAnonPeakMiB: peak.anonMiB,
    heapAfterGcMiB: probe.heap / 1024 / 1024,
    nodesAfterGc: probe.nodes,
    rendererRssAfterGcMiB: (pageRenderer()?.rssKiB ?? 0) / 1024,
  };
}

/**
 * In the page: waits (frame by frame) until `test` holds, and returns when the frame where
 * it first did has been rendered (a task queued from that frame's animation callbacks runs
 * after its style, layout and paint), on the page's clock (ms since the navigation
 * started); -1 after `timeout` ms.
 */
export const WAIT_FRAME = `(async ({ test, timeout }) => {
  const check = new Function('return (' + test + ')()');
  const limit = performance.now() + timeout;
  for (;;) {
    const seen = await new Promise((r) => requestAnimationFrame(() => {
      if (!check()) return r(false);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => r(true);
      channel.port2.postMessage(null);
    }));
    if (seen) return performance.now();
    if (performance.now() > limit) return -1;
  }
})`;

/** In the page: whether an element is at least partly inside the viewport (and laid out). */
const VISIBLE = `const visible = (el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.bottom > 45 && r.top < innerHeight; };`;

/** The first diff rows drawn in the viewport, under `main`. */
export const ROWS_ON_SCREEN = `() => { ${VISIBLE} const rows = document.querySelectorAll('main .d2h-diff-tbody > tr'); for (const r of rows) if (visible(r)) return true; return false; }`;

/** The first file of Raw drawn: its rows on screen, or its images decoded, or its message shown. */
export const FIRST_FILE_DRAWN = `() => { ${VISIBLE}
  const file = document.querySelector('main section.inv-file');
  if (!file || !visible(file)) return false;
  const imgs = [...file.querySelectorAll('img')];
  if (imgs.length) return imgs.every((i) => i.complete && i.naturalWidth > 0) && imgs.some(visible);
  if (file.querySelector('.inv-fold, .inv-file-message')) return true;
  return [...file.querySelectorAll('.d2h-diff-tbody > tr')].some(visible);
}`;

/** A JS string literal: the selector of a file's section, or of its button in the tree. */
export const sectionOf = (ref: string) => JSON.stringify(`section.inv-file[data-ref="${ref}"]`);
export const treeButtonOf = (ref: string) => JSON.stringify(`nav .inv-tree-file[title="${ref}"]`);

/** Scrolls the tree (untimed) until a file's row is drawn: the tree draws only the rows in its view. */
export const revealInTree = (ref: string) => `(async () => {
  const tree = document.querySelector('nav.inv-tree');
  for (let top = 0; tree && !document.querySelector(${treeButtonOf(ref)}) && top <= tree.scrollHeight; top += tree.clientHeight / 2) {
    tree.scrollTop = top;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }
})()`;

export const fileRowsOnScreen = (ref: string) =>
  `() => { ${VISIBLE} const f = document.querySelector(${sectionOf(ref)}); if (!f) return false; for (const r of f.querySelectorAll('.d2h-diff-tbody > tr')) if (visible(r)) return true; return false; }`;

export async function waitFrame(page: Page, test: string, timeout = 60_000): Promise<number> {
  return page.evaluate(`${WAIT_FRAME}(${JSON.stringify({ test, timeout })})`) as Promise<number>;
}

export async function newPage(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await page.addInitScript({ content: INSTRUMENTS });
  page.on('pageerror', (error) => log(`  page error: ${error.message}`));
  await settled();
  return { page, close: () => context.close() };
}

/** CPU time (ms) used so far by this process's Chromium processes. */
function chromiumCpuMs(): number {
  const { list, descends } = processes();
  let ms = 0;
  for (const { pid, comm, fields } of list)
    if (isChromium(comm) && descends(pid, process.pid)) ms += (Number(fields[11]) + Number(fields[12])) * 10;
  return ms;
}

/**
 * Waits until Chromium is quiet: a new context opens a window whose own WebUI renderer
 * (`--top-chrome-webui`, the omnibox popup) burns about 0.6 s of CPU, and the browser
 * process as much again, right when the page is made. A reader's browser did that long
 * before they opened the viewer; on two cores, measuring through it would count it as
 * the viewer's. Quiet: under 20 ms of CPU in 300 ms; at most 8 s.
 */
async function settled(): Promise<void> {
  const until = Date.now() + 8_000;
  let last = chromiumCpuMs();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 300));
    const now = chromiumCpuMs();
    if (now - last < 20) return;
    last = now;
  }
}

/**
 * Navigation to `test` holding: (a) with cards, the first card's rows on screen (the default);
 * (g) on the static page, its file drawn; (warm-up) any of them, unmeasured.
 */
async function firstReadable(
  browser: Browser,
  url: string,
  test = ROWS_ON_SCREEN,
  /** A further phase on the loaded page (the live update), its figure returned as `then`. */
  then?: (page: Page) => Promise<number>,
): Promise<{ ms: number; heap: number; nodes: number; rssMiB: number; anonMiB: number; then: number }> {
  const { page, close } = await newPage(browser);
  const rss = rendererSampler();
  try {
    const probe = await MemoryProbe.start(page);
    await page.goto(url, { waitUntil: 'commit' });
    const ms = await waitFrame(page, test);
    if (ms < 0) throw new Error(`${new URL(url).pathname}: nothing readable within 60 s`);
    await page.waitForTimeout(1000);
    await probe.sample();
    const after = then ? await then(page) : -1;
    return { ms, heap: probe.heapPeak, nodes: probe.nodesPeak, ...rss.stop(), then: after };
  } finally {
    rss.stop();
    await close();
  }
}

/**
 * (j) the live update: cards.json rewritten as the agent writes it (a temporary file, then a
 * rename) with the first card's title changed, to the first frame where the card under that
 * title is on screen. Both ends are read on the machine's wall clock (the page's
 * `timeOrigin + now()`, and this process's), so the two clocks are the same clock.
 */
async function liveUpdate(page: Page, cardsFile: string, cards: unknown, title: string): Promise<number> {
  const selector = JSON.stringify(`main article.inv-card[aria-label=${JSON.stringify(`Card ${title}`)}]`);
  const test = `() => { ${VISIBLE} const card = document.querySelector(${selector}); return !!card && visible(card); }`;
  // Started, not awaited: the frames are watched from before the write.
  await page.evaluate(
    `(() => { globalThis.__live = ${WAIT_FRAME}({ test: ${JSON.stringify(test)}, timeout: 10000 }).then((t) => (t < 0 ? -1 : performance.timeOrigin + t)); })()`,
  );
  const next = structuredClone(cards) as { cards: Array<{ title: string }> };
  next.cards[0]!.title = title;
  const tmp = `${cardsFile}.bench-tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(tmp, cardsFile);
  const written = performance.timeOrigin + performance.now();
  const seen = (await page.evaluate('globalThis.__live')) as number;
  return seen < 0 ? -1 : seen - written;
}

/**
 * A word of the last file's diff that no other diff or path of the round holds, for the
 * search target ("a string that occurs only in the last file's diff"); null if there is none.
 */
function onlyInLast(material: { material: Array<{ ref: string; diff: string | null }> }, last: string): string | null {
  const entry = material.material.find((e) => e.ref === last);
  const rest = material.material
    .filter((e) => e.ref !== last)
    .map((e) => `${e.ref}\n${e.diff ?? ''}`)
    .join('\n')
    .toLowerCase();
  for (const word of new Set(entry?.diff?.match(/[A-Za-z_][A-Za-z0-9_]{5,}/g) ?? [])) {
    if (!rest.includes(word.toLowerCase()) && !last.toLowerCase().includes(word.toLowerCase())) return word;
  }
  return null;
}

/**
 * In the page: as WAIT_FRAME, with the test a function (the page's CSP refuses to compile a
 * string, which WAIT_FRAME's top-level call gets away with but a nested one does not).
 */
export const FRAME_UNTIL = `(async ({ test, timeout }) => {
  const limit = performance.now() + timeout;
  for (;;) {
    const seen = await new Promise((r) => requestAnimationFrame(() => {
      if (!test()) return r(false);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => r(true);
      channel.port2.postMessage(null);
    }));
    if (seen) return performance.now();
    if (performance.now() > limit) return -1;
  }
})`;

/** In the page: the search field focused, 300 ms later set to `query` at once (the last keystroke), then the count and "next", timed. */
const SEARCH_RUN = `(async ({ query, wait }) => {
  const input = document.querySelector('.inv-search-input');
  if (!input) return { count: -2, next: -2, start: 0 };
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  // As a reader does: the field takes the focus, and the query's last key comes a moment later.
  input.focus();
  await new Promise((r) => setTimeout(r, 300));
  const start = performance.now();
  setValue.call(input, query);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const counted = await wait({ test: () => /^1 match in 1 file$/.test(document.querySelector('.inv-search-count')?.textContent ?? ''), timeout: 30000 });
  if (counted < 0) return { count: -1, next: -1, start };
  const nextStart = performance.now();
  document.querySelector('button[aria-label="Next match"]').click();
  const shown = await wait({ test: () => { const r = document.querySelector('tr.inv-hit')?.getBoundingClientRect(); return !!r && r.top >= 45 && r.bottom <= innerHeight; }, timeout: 30000 });
  return { count: counted - start, next: shown < 0 ? -1 : shown - nextStart, start };
})`;

/**
 * In the page: "show the whole file" on the files that offer it, one after another, timed
 * from the click to its rows growing on screen; the first file with lines in no hunk counts
 * (a file whose hunks cover it all has nothing to add).
 */
export const CONTEXT_RUN = `(async ({ wait }) => {
  const buttons = [...document.querySelectorAll('.inv-context-bar button')].filter((b) => b.textContent.includes('whole file')).slice(0, 10);
  for (const button of buttons) {
    const section = button.closest('section.inv-file');
    section.scrollIntoView({ block: 'start' });
    // The files the scroll brought near are drawn and laid out before the click, as when a reader
    // reads a file before widening it; the click comes in a task of its own, as a reader's does.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await new Promise((r) => setTimeout(r, 400));
    const rows = section.querySelectorAll('.d2h-diff-tbody > tr').length;
    const start = performance.now();
    button.click();
    const t = await wait({ test: () => section.querySelectorAll('.d2h-diff-tbody > tr').length > rows, timeout: 2000 });
    if (t >= 0) return t - start;
  }
  return -2;
})`;

/**
 * In the page: waits from `readable` (ms on the page's clock) until 1 s has passed without a
 * long task, 10 s at most, and returns that moment: the end of the load.
 */
const LOAD_END = `(async (readable) => {
  const quietSince = () => Math.max(readable, ...globalThis.__bench.longtasks.map((e) => e.start + e.duration));
  while (performance.now() < Math.min(readable + 10000, quietSince() + 1000)) await new Promise((r) => setTimeout(r, 100));
  return performance.now();
})`;

/** (h) what the load cost: its longest task, what is left after it, the `/api/` answers it took. */
async function loadFigures(page: Page, probe: MemoryProbe, rawFirstMs: number, serverPid: number) {
  const loadEndMs = (await page.evaluate(`${LOAD_END}(${rawFirstMs})`)) as number;
  const serverRssAfterLoadMiB = processMemory(serverPid)?.rssMiB ?? -1;
  await probe.sample();
  await probe.afterGc();
  const longtasks = (await page.evaluate('globalThis.__bench.longtasks')) as Array<{ start: number; duration: number }>;
  const answers = (await page.evaluate(API_ANSWERS(loadEndMs))) as ApiAnswer[];
  const largest = answers.reduce<ApiAnswer | null>((a, b) => (a && a.bytes >= b.bytes ? a : b), null);
  return {
    loadEndMs,
    loadLongestTaskMs: Math.max(0, ...longtasks.filter((e) => e.start < loadEndMs).map((e) => e.duration)),
    heapAfterLoadMiB: probe.heap / 1024 / 1024,
    nodesAfterLoad: probe.nodes,
    elementsAfterLoad: (await page.evaluate('document.getElementsByTagName("*").length')) as number,
    apiAnswers: answers.length,
    apiBytes: answers.reduce((n, a) => n + a.bytes, 0),
    apiWireBytes: answers.reduce((n, a) => n + a.wireBytes, 0),
    apiCompressed: answers.filter((a) => a.wireBytes < a.bytes).length,
    largestApiUrl: largest?.url ?? '',
    largestApiBytes: largest?.bytes ?? -1,
    largestApiEndMs: largest?.endMs ?? -1,
    serverRssAfterLoadMiB,
  };
}

/** The figures of the phases a light case does not run. */
const NOT_RUN = {
  unfoldReadableMs: -1,
  longestTaskMs: -1,
  longestFrameMs: -1,
  longTasks: -1,
  scrollStops: -1,
  scrollMs: -1,
  searchCountMs: -1,
  searchNextMs: -1,
  searchLongestTaskMs: -1,
  contextMs: -1,
};

async function rawRun(
  browser: Browser,
  url: string,
  options: { refs: string[]; query: string | null; full: boolean; serverPid: number },
): Promise<Omit<ViewerRun, 'load' | 'cardsFirstMs' | 'liveUpdateMs' | 'floorFirstMs'>> {
  const { page, close } = await newPage(browser);
  const rss = rendererSampler();
  try {
    const probe = await MemoryProbe.start(page);
    await page.goto(url, { waitUntil: 'commit' });
    const rawFirstMs = await waitFrame(page, FIRST_FILE_DRAWN);
    if (rawFirstMs < 0) throw new Error('Raw: the first file was not drawn within 60 s');
    const load = await loadFigures(page, probe, rawFirstMs, options.serverPid);

    // (b) the last file of the tree, as a click on it does.
    const last = options.refs[options.refs.length - 1]!;
    await page.evaluate(revealInTree(last));
    const jumpLastMs = (await page.evaluate(
      `(async () => {
        const button = document.querySelector(${treeButtonOf(last)});
        if (!button) return -2;
        const start = performance.now();
        button.click();
        const t = await ${WAIT_FRAME}({ test: ${JSON.stringify(fileRowsOnScreen(last))}, timeout: 30000 });
        return t < 0 ? -1 : t - start;
      })()`,
    )) as number;
    if (jumpLastMs < 0) throw new Error(`Raw: jumping to ${last} did not draw its rows (${jumpLastMs})`);
    await page.waitForTimeout(500);
    await probe.sample();
    if (!options.full) {
      return { rawFirstMs, ...load, jumpLastMs, ...NOT_RUN, ...(await memoryFigures(page, probe, rss)) };
    }

    // Search for a word only the last file's diff holds, from the top of the round.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(300);
    const search = options.query
      ? ((await page.evaluate(`${SEARCH_RUN}({ query: ${JSON.stringify(options.query)}, wait: ${FRAME_UNTIL} })`)) as {
          count: number;
          next: number;
          start: number;
        })
      : { count: -1, next: -1, start: Infinity };
    const searchTasks = (
      (await page.evaluate('globalThis.__bench.longtasks')) as Array<{ start: number; duration: number }>
    ).filter((e) => e.start >= search.start);
    const searchLongestTaskMs = Math.max(0, ...searchTasks.map((e) => e.duration));
    await page.waitForTimeout(300);
    const contextMs = (await page.evaluate(`${CONTEXT_RUN}({ wait: ${FRAME_UNTIL} })`)) as number;
    await page.waitForTimeout(300);

    // (c) the 50,000-line file: to it, unfold, scroll through.
    await page.evaluate(revealInTree(LARGE_REF));
    await page.evaluate(`document.querySelector(${treeButtonOf(LARGE_REF)}).click()`);
    await page.waitForTimeout(500);
    const phaseStart = (await page.evaluate('performance.now()')) as number;
    const unfoldReadableMs = (await page.evaluate(
      `(async () => {
        const fold = document.querySelector(${sectionOf(LARGE_REF)}).querySelector('.inv-fold');
        if (!fold) return -2;
        const start = performance.now();
        fold.click();
        const t = await ${WAIT_FRAME}({ test: ${JSON.stringify(fileRowsOnScreen(LARGE_REF))}, timeout: 60000 });
        return t < 0 ? -1 : t - start;
      })()`,
    )) as number;
    if (unfoldReadableMs < 0)
      throw new Error(`Raw: unfolding ${LARGE_REF} did not draw its rows (${unfoldReadableMs})`);
    await probe.sample();
    const scrollStart = Date.now();
    const extent = (await page.evaluate(
      `(() => { const f = document.querySelector(${sectionOf(LARGE_REF)}); const r = f.getBoundingClientRect(); return { top: r.top + scrollY, height: r.height }; })()`,
    )) as { top: number; height: number };
    // A screen at a time for 40 screens (reading), then 60 jumps spread over the whole file.
    const stops: number[] = [];
    for (let i = 1; i <= 40; i++) stops.push(extent.top + i * (VIEWPORT.height - 100));
    for (let i = 1; i <= 60; i++) stops.push(extent.top + (extent.height - VIEWPORT.height) * (i / 60));
    for (const [i, y] of stops.entries()) {
      await page.evaluate(
        `(async () => { window.scrollTo(0, ${Math.round(y)}); await ${WAIT_FRAME}({ test: ${JSON.stringify(fileRowsOnScreen(LARGE_REF))}, timeout: 10000 }); await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); })()`,
      );
      if (i % 10 === 9) await probe.sample();
    }
    // Let the idle highlighting of what is on screen finish inside the measured phase.
    await page.waitForTimeout(1000);
    await probe.sample();
    const scrollMs = Date.now() - scrollStart;
    const { longtasks, frames } = (await page.evaluate('globalThis.__bench')) as {
      longtasks: Array<{ start: number; duration: number }>;
      frames: Array<{ start: number; duration: number }>;
    };
    const inPhase = (list: Array<{ start: number; duration: number }>) => list.filter((e) => e.start >= phaseStart);
    const longestTaskMs = Math.max(0, ...inPhase(longtasks).map((e) => e.duration));
    const longestFrameMs = Math.max(0, ...inPhase(frames).map((e) => e.duration));
    const memory = await memoryFigures(page, probe, rss);
    return {
      rawFirstMs,
      ...load,
      jumpLastMs,
      unfoldReadableMs,
      longestTaskMs,
      longestFrameMs,
      longTasks: inPhase(longtasks).length,
      ...memory,
      scrollStops: stops.length,
      scrollMs,
      searchCountMs: search.count,
      searchNextMs: search.next,
      searchLongestTaskMs,
      contextMs,
    };
  } finally {
    rss.stop();
    await close();
  }
}

/** Measures the viewer on each case's round, `runs` times each, and judges the figures. */
export async function benchViewer(
  cases: Array<{ viewerCase: ViewerCase; repo: SynthRepo }>,
  runs: number,
): Promise<ViewerResult> {
  const webRoot = path.resolve(path.dirname(CLI), '..', 'web');
  for (const file of [CLI, path.join(webRoot, 'index.html')])
    if (!existsSync(file)) throw new Error(`${file} is missing (npm run bench builds the CLI and viewer first)`);
  const loadBefore = loadavg();
  const results: CaseResult[] = [];
  for (const { viewerCase, repo } of cases) results.push(await benchCase(viewerCase, repo, runs, webRoot));
  return {
    date: new Date().toISOString(),
    cases: results,
    targets: TARGETS,
    verdicts: verdictsOf(results),
    machine: { cores: os.cpus().length, loadBefore, loadAfter: loadavg(), chromium: browserVersion() },
  };
}

/** Captures the case's round (and, for a full case, writes cards.json), serves it, and measures it. */
async function benchCase(viewerCase: ViewerCase, repo: SynthRepo, runs: number, webRoot: string): Promise<CaseResult> {
  const name = `viewer ${viewerCase.name}`;
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  resetRepo(repo, env);
  log(`${name}: capturing the round (involut rounds)`);
  execFileSync(process.execPath, [CLI, 'rounds', '--base', repo.base, '--quiet'], {
    cwd: repo.dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const materialFile = path.join(repo.dir, '.review', 'material.json');
  const materialBytes = readFileSync(materialFile).length;
  const material = JSON.parse(readFileSync(materialFile, 'utf8')) as { material: FloorEntry[] };
  const cardsFile = path.join(repo.dir, '.review', 'cards.json');
  const aside = path.join(repo.dir, '.review', 'cards.json.bench-aside');
  const cards = benchCards(material);
  if (viewerCase.full) writeFileSync(cardsFile, `${JSON.stringify(cards, null, 2)}\n`);
  // The tree's order (folders first, then files, by name): its first file opens Raw, its last is the jump's.
  const refs = treeOrderOf(material.material.map((e) => e.ref));
  const query = viewerCase.full ? onlyInLast(material, refs[refs.length - 1]!) : null;
  if (viewerCase.full && !query) log(`${name}: no word is only in the last file, so search is not measured`);
  const floorDir = bareFolder(
    floorFiles(
      material.material.find((e) => e.ref === refs[0])!,
      repo.dir,
      webRoot,
    ),
  );
  const bareDir = bareFolder({ 'index.html': '<!doctype html><title>bare</title><p>A bare Node server.</p>\n' });
  const home = mkdtempSync(path.join(os.tmpdir(), 'involut-bench-home-'));
  const startupHome = mkdtempSync(path.join(os.tmpdir(), 'involut-bench-home-'));
  for (const dir of [home, startupHome]) mkdirSync(path.join(dir, 'state'), { recursive: true });

  const results: ViewerRun[] = [];
  let started: Startup;
  let peakMiB = -1;
  let compressed: Compression | null = null;
  const opened: Array<{ stop: () => Promise<void> }> = [];
  try {
    log(`${name}: spawn to the first byte of GET /, involut serve and a bare Node server in turn`);
    started = await startup(
      () => serve(repo.dir, startupHome),
      () => startBare(bareDir, env),
      Math.max(5, runs),
    );
    const floor = await startBare(floorDir, env);
    opened.push(floor);
    const server = await serve(repo.dir, home);
    opened.push(server);
    const browser = await chromium.launch(launchOptions());
    opened.push({ stop: () => browser.close() });
    // One unmeasured visit of each page first, so the first run does not pay for a cold disk cache or a cold server.
    log(`${name}: warm-up visits`);
    await firstReadable(browser, floor.url, FIRST_FILE_DRAWN);
    await firstReadable(browser, server.url, viewerCase.full ? ROWS_ON_SCREEN : FIRST_FILE_DRAWN);
    const cardsRuns: Array<Awaited<ReturnType<typeof firstReadable>>> = [];
    if (viewerCase.full) {
      for (let i = 0; i < runs; i++) {
        const live = (page: Page) => liveUpdate(page, cardsFile, cards, `Live update ${i + 1}`);
        cardsRuns.push(await firstReadable(browser, server.url, ROWS_ON_SCREEN, live));
        log(
          `${name} cards run ${i + 1}/${runs}: first card readable ${fmt(cardsRuns[i]!.ms)}, live update ${fmt(cardsRuns[i]!.then)}   load ${loadavg()}`,
        );
      }
      // Without cards.json the viewer opens in Raw.
      renameSync(cardsFile, aside);
      await new Promise((r) => setTimeout(r, 300));
    }
    for (let i = 0; i < runs; i++) {
      const floorRun = await firstReadable(browser, floor.url, FIRST_FILE_DRAWN);
      const raw = await rawRun(browser, server.url, { refs, query, full: viewerCase.full, serverPid: server.pid });
      const cardsRun = cardsRuns[i];
      const run: ViewerRun = {
        load: loadavg(),
        cardsFirstMs: cardsRun?.ms ?? -1,
        liveUpdateMs: cardsRun?.then ?? -1,
        floorFirstMs: floorRun.ms,
        ...raw,
        heapPeakMiB: Math.max(raw.heapPeakMiB, (cardsRun?.heap ?? 0) / 1024 / 1024),
        nodesPeak: Math.max(raw.nodesPeak, cardsRun?.nodes ?? 0),
        rendererRssPeakMiB: Math.max(raw.rendererRssPeakMiB, cardsRun?.rssMiB ?? 0),
        rendererAnonPeakMiB: Math.max(raw.rendererAnonPeakMiB, cardsRun?.anonMiB ?? 0),
      };
      results.push(run);
      log(
        `${name} raw run ${i + 1}/${runs}: first file ${fmt(run.rawFirstMs)} (static page ${fmt(run.floorFirstMs)}; ` +
          `${run.apiAnswers} /api/ answers, ${mb(run.apiBytes)} by the end of the load at ${fmt(run.loadEndMs)}, the largest ${run.largestApiUrl} ${mb(run.largestApiBytes)} at ${fmt(run.largestApiEndMs)}), ` +
          `load's longest task ${fmt(run.loadLongestTaskMs)}, after it ${run.nodesAfterLoad} nodes (${run.elementsAfterLoad} elements) and ${run.heapAfterLoadMiB.toFixed(0)} MiB heap, ` +
          `last file ${fmt(run.jumpLastMs)}, unfold ${fmt(run.unfoldReadableMs)}, longest task ${fmt(run.longestTaskMs)} (frame ${fmt(run.longestFrameMs)}, ${run.longTasks} long tasks), ` +
          `heap ${run.heapPeakMiB.toFixed(0)} MiB, ${run.nodesPeak} nodes, page renderer RSS ${run.rendererRssPeakMiB.toFixed(0)} MiB ` +
          `(private ${run.rendererAnonPeakMiB.toFixed(0)} MiB; ${run.rendererRssAfterGcMiB.toFixed(0)} MiB after GC), ` +
          `search count ${fmt(run.searchCountMs)}, next ${fmt(run.searchNextMs)} (longest task ${fmt(run.searchLongestTaskMs)}), context ${fmt(run.contextMs)}, ` +
          `server RSS ${run.serverRssAfterLoadMiB.toFixed(0)} MiB   load ${run.load}`,
      );
    }
    peakMiB = processMemory(server.pid)?.peakMiB ?? -1;
    const largest = results[results.length - 1]!.largestApiUrl;
    if (largest) compressed = await compression(server.url, largest);
  } finally {
    for (const open of opened.reverse()) await open.stop();
    if (existsSync(aside)) renameSync(aside, cardsFile);
    for (const dir of [home, startupHome, floorDir, bareDir]) rmSync(dir, { recursive: true, force: true });
    resetRepo(repo, env);
  }

  const figures = Object.keys(results[0]!).filter(
    (key) => typeof results[0]![key as keyof ViewerRun] === 'number',
  ) as Array<keyof Figures>;
  const m = Object.fromEntries(figures.map((key) => [key, median(results.map((r) => r[key]))])) as unknown as Figures;
  return {
    case: viewerCase,
    runs: results,
    median: m,
    peaks: {
      heapMiB: Math.max(...results.map((r) => r.heapPeakMiB)),
      nodes: Math.max(...results.map((r) => r.nodesPeak)),
      rendererRssMiB: Math.max(...results.map((r) => r.rendererRssPeakMiB)),
      rendererAnonMiB: Math.max(...results.map((r) => r.rendererAnonPeakMiB)),
    },
    material: { bytes: materialBytes, entries: material.material.length },
    firstRef: refs[0]!,
    lastRef: refs[refs.length - 1]!,
    server: {
      startup: started,
      peakMiB,
      limitMiB: Math.max(TARGETS.serverMinMiB, (TARGETS.serverPerMaterial * materialBytes) / 1024 / 1024),
      compression: compressed,
    },
  };
}

/** Folders first, then files, by name, as the viewer's file tree orders them. */
export function treeOrderOf(refs: string[]): string[] {
  interface Folder {
    folders: Map<string, Folder>;
    files: string[];
  }
  const root: Folder = { folders: new Map(), files: [] };
  for (const ref of refs) {
    const parts = ref.split('/');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.folders.has(part)) node.folders.set(part, { folders: new Map(), files: [] });
      node = node.folders.get(part)!;
    }
    node.files.push(ref);
  }
  const walk = (node: Folder): string[] => [
    ...[...node.folders.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([, f]) => walk(f)),
    ...node.files.sort((a, b) => a.split('/').pop()!.localeCompare(b.split('/').pop()!)),
  ];
  return walk(root);
}

function browserVersion(): string {
  try {
    return execFileSync(findBrowser().executablePath, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}
