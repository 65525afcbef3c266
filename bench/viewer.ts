/**
 * The viewer part of `npm run bench` (alone: `BENCH_ONLY=viewer npm run bench`): the built
 * viewer, served by the built CLI (`involut serve`) over the bench repository's round, driven
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
 *
 * Every run has a fresh browser context (empty storage), left to settle before the
 * navigation (see `settled`). Figures are medians of BENCH_VIEWER_RUNS runs (default 3);
 * peaks are the largest of any run.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { loadavg, median, processes } from './measure';
import { resetRepo, type SynthRepo } from './synth-repo';
import { findBrowser, launchOptions } from '../tests/helpers/find-browser';

export const VIEWPORT = { width: 1280, height: 900 };
export const LARGE_REF = 'data/large-table.ts';

/** Where the bench repository is built and cached; BENCH_ROOT puts it elsewhere (a copy no other run touches). */
export const BENCH_ROOT = process.env.BENCH_ROOT
  ? path.resolve(process.env.BENCH_ROOT)
  : path.join(os.tmpdir(), 'involut-bench');

/** The built CLI; BENCH_CLI names another build (one made elsewhere for profiling, say). */
export const CLI = process.env.BENCH_CLI
  ? path.resolve(process.env.BENCH_CLI)
  : path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'dist', 'server', 'cli.js');

export const TARGETS = {
  firstReadableMs: 1000,
  jumpLastMs: 100,
  longestTaskMs: 200,
  peakMemoryMiB: 500,
  searchCountMs: 300,
  searchNextMs: 500,
  contextMs: 100,
};

export interface ViewerRun {
  load: string;
  cardsFirstMs: number;
  rawFirstMs: number;
  materialFetchMs: number;
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

export interface ViewerResult {
  date: string;
  runs: ViewerRun[];
  median: Omit<ViewerRun, 'load'>;
  peaks: { heapMiB: number; nodes: number; rendererRssMiB: number; rendererAnonMiB: number };
  targets: typeof TARGETS;
  verdicts: string[];
  machine: { cores: number; loadBefore: string; loadAfter: string; chromium: string };
  material: { bytes: number; entries: number };
}

/** The page's own instruments, installed before any of its scripts (a string: see STACK.md G5). */
const INSTRUMENTS = `
globalThis.__name = (f) => f;
globalThis.__bench = { longtasks: [], frames: [] };
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

interface Served {
  url: string;
  stop: () => Promise<void>;
}

export async function serve(repoDir: string, home: string): Promise<Served> {
  const cli = CLI;
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [cli, 'serve', '--no-open', '--port', '0', '--repo', repoDir],
    { env: serverEnv(home) },
  );
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server printed no URL within 30 s: ${err}`)), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n', 1)[0]!.trim());
      }
    });
    void exited.then(() => reject(new Error(`the server exited before printing its URL: ${err}`)));
  });
  if (!/#token=/.test(url)) throw new Error(`the server's first line is not the viewer URL: ${url}`);
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
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

/** (a) with cards: navigation to the first card's first rows on screen. */
async function cardsFirst(
  browser: Browser,
  url: string,
): Promise<{ ms: number; heap: number; nodes: number; rssMiB: number; anonMiB: number }> {
  const { page, close } = await newPage(browser);
  const rss = rendererSampler();
  try {
    const probe = await MemoryProbe.start(page);
    await page.goto(url, { waitUntil: 'commit' });
    const ms = await waitFrame(page, ROWS_ON_SCREEN);
    await page.waitForTimeout(1000);
    await probe.sample();
    return { ms, heap: probe.heapPeak, nodes: probe.nodesPeak, ...rss.stop() };
  } finally {
    rss.stop();
    await close();
  }
}

/**
 * A word of the last file's diff that no other diff or path of the round holds, for the
 * search target ("a string that occurs only in the last file's diff"); null if there is none.
 */
export function onlyInLast(
  material: { material: Array<{ ref: string; diff: string | null }> },
  last: string,
): string | null {
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
const FRAME_UNTIL = `(async ({ test, timeout }) => {
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

/** In the page: the search field set to `query` at once (the last keystroke), then the count and "next", timed. */
const SEARCH_RUN = `(async ({ query, wait }) => {
  const input = document.querySelector('.inv-search-input');
  if (!input) return { count: -2, next: -2, start: 0 };
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
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
const CONTEXT_RUN = `(async ({ wait }) => {
  const buttons = [...document.querySelectorAll('.inv-context-bar button')].filter((b) => b.textContent.includes('whole file')).slice(0, 10);
  for (const button of buttons) {
    const section = button.closest('section.inv-file');
    section.scrollIntoView({ block: 'start' });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const rows = section.querySelectorAll('.d2h-diff-tbody > tr').length;
    const start = performance.now();
    button.click();
    const t = await wait({ test: () => section.querySelectorAll('.d2h-diff-tbody > tr').length > rows, timeout: 2000 });
    if (t >= 0) return t - start;
  }
  return -2;
})`;

async function rawRun(
  browser: Browser,
  url: string,
  material: { refs: string[]; query: string | null },
): Promise<Omit<ViewerRun, 'load' | 'cardsFirstMs'>> {
  const { page, close } = await newPage(browser);
  const rss = rendererSampler();
  try {
    const probe = await MemoryProbe.start(page);
    await page.goto(url, { waitUntil: 'commit' });
    const rawFirstMs = await waitFrame(page, FIRST_FILE_DRAWN);
    if (rawFirstMs < 0) throw new Error('Raw: the first file was not drawn within 60 s');
    const materialFetchMs = (await page.evaluate(
      `(() => { const e = performance.getEntriesByType('resource').find((r) => r.name.includes('/api/material')); return e ? e.responseEnd - e.startTime : -1; })()`,
    )) as number;
    await page.waitForTimeout(1000);
    await probe.sample();

    // (b) the last file of the tree, as a click on it does.
    const last = material.refs[material.refs.length - 1]!;
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

    // Search for a word only the last file's diff holds, from the top of the round.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(300);
    const search = material.query
      ? ((await page.evaluate(`${SEARCH_RUN}({ query: ${JSON.stringify(material.query)}, wait: ${FRAME_UNTIL} })`)) as {
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
    const peak = rss.stop();
    await probe.afterGc();
    await page.waitForTimeout(500);
    const afterGc = pageRenderer();
    return {
      rawFirstMs,
      materialFetchMs,
      jumpLastMs,
      unfoldReadableMs,
      longestTaskMs,
      longestFrameMs,
      longTasks: inPhase(longtasks).length,
      heapPeakMiB: probe.heapPeak / 1024 / 1024,
      nodesPeak: probe.nodesPeak,
      rendererRssPeakMiB: peak.rssMiB,
      rendererAnonPeakMiB: peak.anonMiB,
      heapAfterGcMiB: probe.heap / 1024 / 1024,
      nodesAfterGc: probe.nodes,
      rendererRssAfterGcMiB: (afterGc?.rssKiB ?? 0) / 1024,
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

/** Captures the round, writes cards.json, serves it, and measures the viewer RUNS times. */
export async function benchViewer(repo: SynthRepo, runs: number): Promise<ViewerResult> {
  const cli = CLI;
  const webIndex = path.resolve(path.dirname(cli), '..', 'web', 'index.html');
  for (const file of [cli, webIndex])
    if (!existsSync(file)) throw new Error(`${file} is missing (npm run bench builds the CLI and viewer first)`);
  const loadBefore = loadavg();
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  resetRepo(repo, env);
  log('viewer: capturing the round (involut rounds)');
  execFileSync(process.execPath, [cli, 'rounds', '--base', repo.base, '--quiet'], {
    cwd: repo.dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const materialFile = path.join(repo.dir, '.review', 'material.json');
  const materialBytes = readFileSync(materialFile).length;
  const material = JSON.parse(readFileSync(materialFile, 'utf8')) as {
    material: Array<{ ref: string; diff: string | null; binary: boolean }>;
  };
  const cardsFile = path.join(repo.dir, '.review', 'cards.json');
  const aside = path.join(repo.dir, '.review', 'cards.json.bench-aside');
  writeFileSync(cardsFile, `${JSON.stringify(benchCards(material), null, 2)}\n`);
  // The tree's order (folders first, then files, by name): its last file is the last of Raw.
  const refs = treeOrderOf(material.material.map((e) => e.ref));
  const query = onlyInLast(material, refs[refs.length - 1]!);
  if (!query) log('viewer: no word is only in the last file, so search is not measured');

  const home = mkdtempSync(path.join(os.tmpdir(), 'involut-bench-home-'));
  mkdirSync(path.join(home, 'state'), { recursive: true });
  const server = await serve(repo.dir, home);
  const browser = await chromium.launch(launchOptions());
  const results: ViewerRun[] = [];
  try {
    // One unmeasured visit first, so the first run does not pay for a cold disk cache or a cold server.
    log('viewer: warm-up visit');
    await cardsFirst(browser, server.url);
    const cardsRuns: Array<Awaited<ReturnType<typeof cardsFirst>>> = [];
    for (let i = 0; i < runs; i++) {
      cardsRuns.push(await cardsFirst(browser, server.url));
      log(`viewer cards run ${i + 1}/${runs}: first card readable ${fmt(cardsRuns[i]!.ms)}   load ${loadavg()}`);
    }
    // Without cards.json the viewer opens in Raw.
    renameSync(cardsFile, aside);
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < runs; i++) {
      const raw = await rawRun(browser, server.url, { refs, query });
      const cards = cardsRuns[i]!;
      const run: ViewerRun = {
        load: loadavg(),
        cardsFirstMs: cards.ms,
        ...raw,
        heapPeakMiB: Math.max(raw.heapPeakMiB, cards.heap / 1024 / 1024),
        nodesPeak: Math.max(raw.nodesPeak, cards.nodes),
        rendererRssPeakMiB: Math.max(raw.rendererRssPeakMiB, cards.rssMiB),
        rendererAnonPeakMiB: Math.max(raw.rendererAnonPeakMiB, cards.anonMiB),
      };
      results.push(run);
      log(
        `viewer raw run ${i + 1}/${runs}: first file ${fmt(run.rawFirstMs)} (material fetch ${fmt(run.materialFetchMs)}), last file ${fmt(run.jumpLastMs)}, ` +
          `unfold ${fmt(run.unfoldReadableMs)}, longest task ${fmt(run.longestTaskMs)} (frame ${fmt(run.longestFrameMs)}, ${run.longTasks} long tasks), ` +
          `heap ${run.heapPeakMiB.toFixed(0)} MiB, ${run.nodesPeak} nodes, page renderer RSS ${run.rendererRssPeakMiB.toFixed(0)} MiB ` +
          `(private ${run.rendererAnonPeakMiB.toFixed(0)} MiB; ${run.rendererRssAfterGcMiB.toFixed(0)} MiB after GC), ` +
          `search count ${fmt(run.searchCountMs)}, next ${fmt(run.searchNextMs)} (longest task ${fmt(run.searchLongestTaskMs)}), context ${fmt(run.contextMs)}   load ${run.load}`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    if (existsSync(aside)) renameSync(aside, cardsFile);
    rmSync(home, { recursive: true, force: true });
    resetRepo(repo, env);
  }

  const med = (key: keyof Omit<ViewerRun, 'load'>) => median(results.map((r) => r[key]));
  const m = {
    cardsFirstMs: med('cardsFirstMs'),
    rawFirstMs: med('rawFirstMs'),
    materialFetchMs: med('materialFetchMs'),
    jumpLastMs: med('jumpLastMs'),
    unfoldReadableMs: med('unfoldReadableMs'),
    longestTaskMs: med('longestTaskMs'),
    longestFrameMs: med('longestFrameMs'),
    longTasks: med('longTasks'),
    heapPeakMiB: med('heapPeakMiB'),
    nodesPeak: med('nodesPeak'),
    rendererRssPeakMiB: med('rendererRssPeakMiB'),
    rendererAnonPeakMiB: med('rendererAnonPeakMiB'),
    heapAfterGcMiB: med('heapAfterGcMiB'),
    nodesAfterGc: med('nodesAfterGc'),
    rendererRssAfterGcMiB: med('rendererRssAfterGcMiB'),
    scrollStops: med('scrollStops'),
    scrollMs: med('scrollMs'),
    searchCountMs: med('searchCountMs'),
    searchNextMs: med('searchNextMs'),
    searchLongestTaskMs: med('searchLongestTaskMs'),
    contextMs: med('contextMs'),
  };
  const peaks = {
    heapMiB: Math.max(...results.map((r) => r.heapPeakMiB)),
    nodes: Math.max(...results.map((r) => r.nodesPeak)),
    rendererRssMiB: Math.max(...results.map((r) => r.rendererRssPeakMiB)),
    rendererAnonMiB: Math.max(...results.map((r) => r.rendererAnonPeakMiB)),
  };
  const verdict = (ok: boolean, what: string) => `${ok ? 'PASS' : 'MISS'}: ${what}`;
  const first = Math.max(m.cardsFirstMs, m.rawFirstMs);
  const verdicts = [
    verdict(
      first < TARGETS.firstReadableMs,
      `first card readable ${fmt(m.cardsFirstMs)}, first Raw file readable ${fmt(m.rawFirstMs)} (target < ${fmt(TARGETS.firstReadableMs)})`,
    ),
    verdict(
      m.jumpLastMs < TARGETS.jumpLastMs,
      `jump to the last file readable ${fmt(m.jumpLastMs)} (target < ${fmt(TARGETS.jumpLastMs)})`,
    ),
    verdict(
      m.longestTaskMs < TARGETS.longestTaskMs,
      `longest task with the 50,000-line file unfolded and scrolled ${fmt(m.longestTaskMs)} (target < ${fmt(TARGETS.longestTaskMs)})`,
    ),
    verdict(
      m.searchCountMs >= 0 &&
        m.searchCountMs <= TARGETS.searchCountMs &&
        m.searchNextMs >= 0 &&
        m.searchNextMs <= TARGETS.searchNextMs &&
        m.searchLongestTaskMs < TARGETS.longestTaskMs,
      `search for a word only in the last file: count shown ${fmt(m.searchCountMs)} after the last keystroke (target ≤ ${fmt(TARGETS.searchCountMs)}), ` +
        `the match on screen ${fmt(m.searchNextMs)} after next (target ≤ ${fmt(TARGETS.searchNextMs)}), longest task ${fmt(m.searchLongestTaskMs)} (target < ${fmt(TARGETS.longestTaskMs)})`,
    ),
    verdict(
      m.contextMs >= 0 && m.contextMs <= TARGETS.contextMs,
      `whole-file context drawn ${fmt(m.contextMs)} after the click (target ≤ ${fmt(TARGETS.contextMs)})`,
    ),
    verdict(
      peaks.heapMiB < TARGETS.peakMemoryMiB,
      `peak JS heap ${peaks.heapMiB.toFixed(0)} MiB, ${peaks.nodes.toLocaleString('en')} DOM nodes (target < ${TARGETS.peakMemoryMiB} MB); ` +
        `for context, the page renderer's peak RSS ${peaks.rendererRssMiB.toFixed(0)} MiB (private ${peaks.rendererAnonMiB.toFixed(0)} MiB), ${m.rendererRssAfterGcMiB.toFixed(0)} MiB after a GC`,
    ),
  ];
  return {
    date: new Date().toISOString(),
    runs: results,
    median: m,
    peaks,
    targets: TARGETS,
    verdicts,
    machine: { cores: os.cpus().length, loadBefore, loadAfter: loadavg(), chromium: browserVersion() },
    material: { bytes: materialBytes, entries: material.material.length },
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

export const fmt = (ms: number) =>
  ms < 0 ? 'n/a' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;

/** The lines `npm run bench` prints for the viewer. */
export function viewerReport(result: ViewerResult): string[] {
  const m = result.median;
  const span = (key: keyof Omit<ViewerRun, 'load'>, f = fmt) => {
    const values = result.runs.map((r) => r[key]);
    return `${f(Math.min(...values))}–${f(Math.max(...values))}`;
  };
  const mib = (n: number) => `${n.toFixed(0)} MiB`;
  const rows: string[][] = [
    ['viewer (headless Chromium)', 'median', 'min–max', 'target'],
    [
      '(a) first card readable (cards.json)',
      fmt(m.cardsFirstMs),
      span('cardsFirstMs'),
      `< ${fmt(TARGETS.firstReadableMs)}`,
    ],
    [
      '(a) first Raw file readable (no cards.json)',
      fmt(m.rawFirstMs),
      span('rawFirstMs'),
      `< ${fmt(TARGETS.firstReadableMs)}`,
    ],
    ['    /api/material fetched (resource timing)', fmt(m.materialFetchMs), span('materialFetchMs'), ''],
    ['(b) jump to the last file, rows drawn', fmt(m.jumpLastMs), span('jumpLastMs'), `< ${fmt(TARGETS.jumpLastMs)}`],
    [
      '(c) longest task, 50,000-line file unfolded + scrolled',
      fmt(m.longestTaskMs),
      span('longestTaskMs'),
      `< ${fmt(TARGETS.longestTaskMs)}`,
    ],
    ['    longest animation frame (script + rendering)', fmt(m.longestFrameMs), span('longestFrameMs'), ''],
    ['    unfold click to its rows drawn', fmt(m.unfoldReadableMs), span('unfoldReadableMs'), ''],
    [
      '(e) search: last keystroke to the count shown',
      fmt(m.searchCountMs),
      span('searchCountMs'),
      `≤ ${fmt(TARGETS.searchCountMs)}`,
    ],
    [
      '    search: next to the match on screen',
      fmt(m.searchNextMs),
      span('searchNextMs'),
      `≤ ${fmt(TARGETS.searchNextMs)}`,
    ],
    [
      '    search: longest task',
      fmt(m.searchLongestTaskMs),
      span('searchLongestTaskMs'),
      `< ${fmt(TARGETS.longestTaskMs)}`,
    ],
    [
      '(f) whole-file context drawn after the click',
      fmt(m.contextMs),
      span('contextMs'),
      `≤ ${fmt(TARGETS.contextMs)}`,
    ],
    [
      '(d) peak JS heap (CDP JSHeapUsedSize)',
      mib(m.heapPeakMiB),
      span('heapPeakMiB', mib),
      `< ${TARGETS.peakMemoryMiB} MB`,
    ],
    [
      '    peak DOM nodes (CDP Nodes)',
      m.nodesPeak.toLocaleString('en'),
      span('nodesPeak', (n) => n.toLocaleString('en')),
      '',
    ],
    ['    after a forced GC: JS heap', mib(m.heapAfterGcMiB), span('heapAfterGcMiB', mib), ''],
    [
      '    after a forced GC: DOM nodes',
      m.nodesAfterGc.toLocaleString('en'),
      span('nodesAfterGc', (n) => n.toLocaleString('en')),
      '',
    ],
    [
      "    page renderer's peak RSS (/proc, every 100 ms)",
      mib(m.rendererRssPeakMiB),
      span('rendererRssPeakMiB', mib),
      '',
    ],
    ['      of which private (RssAnon)', mib(m.rendererAnonPeakMiB), span('rendererAnonPeakMiB', mib), ''],
    ["    page renderer's RSS after a forced GC", mib(m.rendererRssAfterGcMiB), span('rendererRssAfterGcMiB', mib), ''],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('   '),
  );
  return [
    '',
    `viewer on the same round: material.json ${(result.material.bytes / 1024 / 1024).toFixed(1)} MiB, ${result.material.entries} entries; ` +
      `${result.runs.length} runs, each in a fresh browser context; ${result.machine.chromium}`,
    '',
    ...table,
    '',
    `(c) scrolled ${m.scrollStops} stops (40 screens, then 60 jumps end to end) in ${fmt(m.scrollMs)}, ${m.longTasks} long tasks (> 50 ms) in the phase`,
    `load per run: ${result.runs.map((r) => r.load).join(' | ')}; before ${result.machine.loadBefore}, after ${result.machine.loadAfter}`,
    '',
    ...result.verdicts,
    '',
  ];
}
