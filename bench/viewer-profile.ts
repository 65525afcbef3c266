/**
 * Where the viewer spends its time on the bench round: `npx tsx bench/viewer-profile.ts <scenario>`
 * (after `npm run build`; the bench repository is the one `npm run bench` caches). Scenarios:
 * `cards` (navigation with cards.json until the first card's rows are on screen), `raw` (the same
 * without cards.json), `jump` (Raw, then the tree's last file), `unfold` (Raw, the 50,000-line file
 * unfolded and scrolled a little), `context` (Raw, after the jump to the last file, the first
 * "whole file" button, as the bench clicks it). It records a Chromium trace of the scenario and
 * prints the main thread's long tasks (> 50 ms) with what filled them, the totals by kind of
 * work, and the JavaScript functions with the most self and inclusive time (CDP Profiler;
 * PROFILE_JS=0: off).
 * PROFILE_TRACE=file also writes the trace (for chrome://tracing or the Performance panel),
 * PROFILE_CPU=file the CPU profile (a .cpuprofile). BENCH_VIEWER_CASE=10k profiles the
 * 10,021-file round instead (the one `npm run bench` caches beside it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchOptions } from '../tests/helpers/find-browser';
import { chromium } from 'playwright-core';
import { loadavg } from './measure';
import { resetRepo, synthRepo } from './synth-repo';
import {
  BENCH_ROOT,
  benchCards,
  CLI,
  CONTEXT_RUN,
  FIRST_FILE_DRAWN,
  FRAME_UNTIL,
  fileRowsOnScreen,
  LARGE_REF,
  newPage,
  ROWS_ON_SCREEN,
  sectionOf,
  serve,
  revealInTree,
  treeButtonOf,
  treeOrderOf,
  VIEWER_CASES,
  WAIT_FRAME,
  waitFrame,
} from './viewer';

const scenario = process.argv[2] ?? 'cards';
/** PROFILE_JS=0 leaves the JavaScript sampling profiler off: the trace alone, with less overhead. */
const JS_PROFILE = process.env.PROFILE_JS !== '0';
if (!['cards', 'raw', 'jump', 'unfold', 'context'].includes(scenario)) throw new Error(`unknown scenario ${scenario}`);

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs: what the task cost whatever else the machine was running. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

const viewerCase = VIEWER_CASES.find((c) => c.name === (process.env.BENCH_VIEWER_CASE ?? 'bench'));
if (!viewerCase) throw new Error(`unknown BENCH_VIEWER_CASE ${process.env.BENCH_VIEWER_CASE}`);
const repo = synthRepo(BENCH_ROOT, (l) => process.stderr.write(`${l}\n`), viewerCase.textFiles);
const env: NodeJS.ProcessEnv = {};
for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
const cli = CLI;
resetRepo(repo, env);
execFileSync(process.execPath, [cli, 'rounds', '--base', repo.base, '--quiet'], {
  cwd: repo.dir,
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
const material = JSON.parse(readFileSync(path.join(repo.dir, '.review', 'material.json'), 'utf8')) as {
  material: Array<{ ref: string; diff: string | null; binary: boolean }>;
};
const cardsFile = path.join(repo.dir, '.review', 'cards.json');
if (scenario === 'cards') writeFileSync(cardsFile, JSON.stringify(benchCards(material)));
const refs = treeOrderOf(material.material.map((e) => e.ref));

const home = mkdtempSync(path.join(os.tmpdir(), 'involut-profile-home-'));
const server = await serve(repo.dir, home);
const browser = await chromium.launch(launchOptions());
try {
  const { page, close } = await newPage(browser);
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const traced = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });

  const record = async (what: () => Promise<void>) => {
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: {
        includedCategories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8',
          'v8.execute',
          'blink.user_timing',
          'toplevel',
        ],
      },
    });
    if (JS_PROFILE) await cdp.send('Profiler.start');
    await what();
    const profile = JS_PROFILE ? (await cdp.send('Profiler.stop')).profile : null;
    await cdp.send('Tracing.end');
    await traced;
    return profile;
  };

  let profile;
  if (scenario === 'cards' || scenario === 'raw') {
    profile = await record(async () => {
      await page.goto(server.url, { waitUntil: 'commit' });
      const t = await waitFrame(page, scenario === 'cards' ? ROWS_ON_SCREEN : FIRST_FILE_DRAWN);
      process.stdout.write(`readable at ${t.toFixed(0)} ms after navigation\n`);
      await page.waitForTimeout(500);
    });
  } else {
    await page.goto(server.url, { waitUntil: 'commit' });
    await waitFrame(page, FIRST_FILE_DRAWN);
    await page.waitForTimeout(1500);
    if (scenario === 'jump') {
      const last = refs[refs.length - 1]!;
      await page.evaluate(revealInTree(last));
      profile = await record(async () => {
        const ms =
          await page.evaluate(`(async () => { const s = performance.now(); document.querySelector(${treeButtonOf(last)}).click();
          const t = await ${WAIT_FRAME}({ test: ${JSON.stringify(fileRowsOnScreen(last))}, timeout: 30000 }); return t - s; })()`);
        process.stdout.write(`jump to ${last}: ${(ms as number).toFixed(0)} ms\n`);
        await page.waitForTimeout(500);
      });
    } else if (scenario === 'context') {
      // As in the bench: after the jump to the last file, whose neighbours have context to show.
      const last = refs[refs.length - 1]!;
      await page.evaluate(revealInTree(last));
      await page.evaluate(`document.querySelector(${treeButtonOf(last)}).click()`);
      await page.waitForTimeout(1000);
      profile = await record(async () => {
        const ms = await page.evaluate(`${CONTEXT_RUN}({ wait: ${FRAME_UNTIL} })`);
        process.stdout.write(`whole file shown: ${(ms as number).toFixed(0)} ms\n`);
        await page.waitForTimeout(500);
      });
    } else {
      await page.evaluate(revealInTree(LARGE_REF));
      await page.evaluate(`document.querySelector(${treeButtonOf(LARGE_REF)}).click()`);
      await page.waitForTimeout(500);
      profile = await record(async () => {
        const ms =
          await page.evaluate(`(async () => { const s = performance.now(); document.querySelector(${sectionOf(LARGE_REF)}).querySelector('.inv-fold').click();
          const t = await ${WAIT_FRAME}({ test: ${JSON.stringify(fileRowsOnScreen(LARGE_REF))}, timeout: 30000 }); return t - s; })()`);
        process.stdout.write(`unfold to rows: ${(ms as number).toFixed(0)} ms\n`);
        for (let i = 0; i < 15; i++) {
          await page.evaluate(
            `(async () => { window.scrollBy(0, ${i < 10 ? 800 : 300000}); await ${WAIT_FRAME}({ test: ${JSON.stringify(fileRowsOnScreen(LARGE_REF))}, timeout: 10000 }); })()`,
          );
        }
        await page.waitForTimeout(800);
      });
    }
  }
  if (process.env.PROFILE_TRACE) writeFileSync(process.env.PROFILE_TRACE, JSON.stringify({ traceEvents: events }));
  summarize(events);
  if (profile) hotFunctions(profile as Profile);
  if (profile && process.env.PROFILE_CPU) writeFileSync(process.env.PROFILE_CPU, JSON.stringify(profile));
  await close();
} finally {
  await browser.close();
  await server.stop();
  rmSync(home, { recursive: true, force: true });
  if (existsSync(cardsFile)) renameSync(cardsFile, `${cardsFile}.profiled`);
  resetRepo(repo, env);
  process.stdout.write(`load ${loadavg()}\n`);
}

/** Long tasks of the renderer's main thread, and what kind of work filled them. */
function summarize(events: TraceEvent[]): void {
  const threadName = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const main = [...threadName.entries()].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k);
  const onMain = events.filter((e) => main.includes(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts);
  const t0 = tasks[0]?.ts ?? 0;
  const kinds = [
    'FunctionCall',
    'EvaluateScript',
    'v8.compile',
    'TimerFire',
    'FireAnimationFrame',
    'EventDispatch',
    'ParseHTML',
    'UpdateLayoutTree',
    'Layout',
    'PrePaint',
    'Paint',
    'Layerize',
    'IntersectionObserverController::computeIntersections',
    'MinorGC',
    'MajorGC',
    'V8.GC_MC_BACKGROUND',
    'ResourceReceivedData',
    'HitTest',
    'UpdateLayer',
    'CompositeLayers',
    'ScheduleStyleRecalculation',
  ];
  const within = (task: TraceEvent, name: string) =>
    onMain
      .filter((e) => e.name === name && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur!)
      .reduce((n, e) => n + (e.dur ?? 0), 0) / 1000;
  process.stdout.write(
    '\nmain-thread tasks over 50 ms (start ms, duration ms, CPU ms, inclusive time of the work inside):\n',
  );
  for (const task of tasks.filter((t) => t.dur! > 50_000 || (t.tdur ?? 0) > 30_000)) {
    const parts = kinds
      .map((k) => [k, within(task, k)] as const)
      .filter(([, ms]) => ms >= 2)
      .map(([k, ms]) => `${k} ${ms.toFixed(0)}`);
    const inside = onMain.filter(
      (e) =>
        e !== task &&
        e.ts >= task.ts &&
        e.ts + e.dur! <= task.ts + task.dur! &&
        e.dur! >= 10_000 &&
        e.name !== 'ThreadControllerImpl::RunTask' &&
        e.name !== 'RunTask',
    );
    const named = inside
      .slice(0, 6)
      .map(
        (e) =>
          `${e.name}${(e.args?.data as { url?: string; functionName?: string } | undefined)?.functionName ? `(${(e.args!.data as { functionName: string }).functionName})` : ''} ${(e.dur! / 1000).toFixed(0)}`,
      );
    process.stdout.write(
      `  ${((task.ts - t0) / 1000).toFixed(0).padStart(6)} ${(task.dur! / 1000).toFixed(0).padStart(6)} ${((task.tdur ?? 0) / 1000).toFixed(0).padStart(6)}  ${parts.join(', ')}  [${named.join('; ')}]\n`,
    );
  }
  // Self time by event name (the trace's nesting on the main thread).
  const selfByName = new Map<string, number>();
  const sorted = [...onMain].sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: Array<{ e: TraceEvent; child: number }> = [];
  const pop = () => {
    const top = stack.pop()!;
    selfByName.set(top.e.name, (selfByName.get(top.e.name) ?? 0) + (top.e.dur! - top.child) / 1000);
  };
  for (const e of sorted) {
    while (stack.length && stack[stack.length - 1]!.e.ts + stack[stack.length - 1]!.e.dur! <= e.ts) pop();
    if (stack.length) stack[stack.length - 1]!.child += e.dur!;
    stack.push({ e, child: 0 });
  }
  while (stack.length) pop();
  const topSelf = [...selfByName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
  process.stdout.write(
    `self time on the main thread by trace event (ms): ${topSelf.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')}\n`,
  );
  // The network and the page's milestones, on the same clock.
  const ids = new Map<string, string>();
  for (const e of events) {
    const data = e.args?.data as { requestId?: string; url?: string } | undefined;
    if (e.name === 'ResourceSendRequest' && data?.requestId && data.url)
      ids.set(data.requestId, new URL(data.url).pathname.slice(0, 40));
  }
  const milestones = events
    .filter((e) =>
      [
        'ResourceSendRequest',
        'ResourceReceiveResponse',
        'ResourceFinish',
        'MarkDOMContent',
        'MarkLoad',
        'firstContentfulPaint',
        'navigationStart',
      ].includes(e.name),
    )
    .map((e) => {
      const data = e.args?.data as { requestId?: string } | undefined;
      return `${((e.ts - t0) / 1000).toFixed(0)} ${e.name.replace('Resource', '')}${data?.requestId ? ` ${ids.get(data.requestId) ?? ''}` : ''}`;
    });
  process.stdout.write(`milestones (ms): ${milestones.join(' · ')}\n`);
  const totals = kinds
    .map((k) => [k, onMain.filter((e) => e.name === k).reduce((n, e) => n + (e.dur ?? 0), 0) / 1000] as const)
    .filter(([, ms]) => ms >= 5);
  process.stdout.write(
    `totals on the main thread (inclusive, nested kinds overlap): ${totals.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')}\n`,
  );
  process.stdout.write(
    `tasks: ${tasks.length}, busy ${(tasks.reduce((n, t) => n + t.dur!, 0) / 1000).toFixed(0)} ms (CPU ${(tasks.reduce((n, t) => n + (t.tdur ?? 0), 0) / 1000).toFixed(0)} ms), ` +
      `longest ${(Math.max(0, ...tasks.map((t) => t.dur!)) / 1000).toFixed(0)} ms (CPU ${(Math.max(0, ...tasks.map((t) => t.tdur ?? 0)) / 1000).toFixed(0)} ms)\n`,
  );
}

interface Profile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time by function, from the CPU profile. */
function hotFunctions(profile: Profile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  // Inclusive time of the viewer's own functions (a function inside itself counted once).
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const inclusive = new Map<string, number>();
  const walk = (id: number, open: Set<string>): number => {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    const nested = open.has(name);
    if (!nested) open.add(name);
    let total = selfMs.get(id) ?? 0;
    for (const child of node.children ?? []) total += walk(child, open);
    if (!nested) {
      open.delete(name);
      if (
        /^[A-Z]/.test(name) ||
        [
          'countLines',
          'diffLines',
          'groupDiff',
          'groupRows',
          'groupChunks',
          'drawChunk',
          'highlightChunk',
          'parseDiff',
          'chunkDiff',
          'nearNow',
          'fileTree',
          'treeOrder',
          'parse',
        ].includes(name)
      ) {
        inclusive.set(name, (inclusive.get(name) ?? 0) + total);
      }
    }
    return total;
  };
  const root = profile.nodes.find((n) => !profile.nodes.some((m) => m.children?.includes(n.id)));
  if (root) walk(root.id, new Set());
  const topInclusive = [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  process.stdout.write(
    `\ninclusive ms of named functions: ${topInclusive.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')}\n`,
  );
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  process.stdout.write('\nJS self time (ms), top 25:\n');
  for (const [key, ms] of top) process.stdout.write(`  ${ms.toFixed(0).padStart(6)}  ${key}\n`);
}
