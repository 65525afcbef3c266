/**
 * `npm run bench`: `involut rounds` against git's own capture pipeline in three cases
 * (bench/rounds.ts), then the viewer on the bench round and on a 10,021-file round in
 * headless Chromium, with its server (bench/viewer.ts), then the card drawings' own work
 * (bench/renders.ts). Results go to bench/out/rounds.json, bench/out/viewer.json and
 * bench/out/renders.json.
 *
 * Environment:
 * - BENCH_RUNS: runs per series of the rounds and renders parts (default 5).
 * - BENCH_ONLY=rounds|viewer|renders: one part only.
 * - BENCH_CASE: the rounds cases whose name starts with it.
 * - BENCH_VIEWER_RUNS: viewer runs per case (default 3); the server's start-up is timed
 *   max(5, this) times against the bare server.
 * - BENCH_VIEWER_CASE=bench|10k: one viewer case only (the bench round of 2,021 files, or the
 *   10,021-file one); the 10,021-file round's growth over the bench round needs both.
 * - BENCH_ROOT: where the repositories are cached (default $TMPDIR/involut-bench); give a
 *   folder no other run uses, since a run resets the repositories it measures.
 * - BENCH_CLI: another build of the CLI (its viewer is the `web/` folder beside it).
 * Exits 0 whatever the figures: it is a benchmark, not a test (1 only when a part broke).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRenders, rendersReport } from './renders';
import { benchRounds, roundsReport } from './rounds';
import { synthRepo } from './synth-repo';
import { BENCH_ROOT, benchViewer, VIEWER_CASES } from './viewer';
import { viewerReport } from './viewer-report';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(PROJECT, 'bench', 'out');
const CLI = process.env.BENCH_CLI ?? path.join(PROJECT, 'dist', 'server', 'cli.js');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));

const log = (line: string) => process.stderr.write(`${line}\n`);

async function run(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm run bench does).`);
  mkdirSync(OUT, { recursive: true });
  // The repositories live outside the project: their thousands of files must never meet tsc, vitest or vite.
  const results = await benchRounds(BENCH_ROOT, CLI, RUNS, log);
  process.stdout.write(roundsReport(results, RUNS).join('\n'));
  writeFileSync(
    path.join(OUT, 'rounds.json'),
    `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, results }, null, 2)}\n`,
  );
  log(`wrote ${path.relative(process.cwd(), path.join(OUT, 'rounds.json'))}`);
}

/** The viewer part: its own capture of the round, served and read in headless Chromium. */
async function runViewer(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const only = process.env.BENCH_VIEWER_CASE;
  const cases = VIEWER_CASES.filter((c) => only === undefined || c.name === only);
  if (cases.length === 0)
    throw new Error(`BENCH_VIEWER_CASE is ${VIEWER_CASES.map((c) => c.name).join(' or ')}, not ${only}`);
  const runs = Math.max(1, Number(process.env.BENCH_VIEWER_RUNS ?? 3));
  const result = await benchViewer(
    cases.map((viewerCase) => ({ viewerCase, repo: synthRepo(BENCH_ROOT, log, viewerCase.textFiles) })),
    runs,
  );
  process.stdout.write(viewerReport(result).join('\n'));
  writeFileSync(path.join(OUT, 'viewer.json'), `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), path.join(OUT, 'viewer.json'))}`);
}

/** The renders part: the graph layout and the tree diff, timed in Node. */
async function runRenders(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const result = await benchRenders(RUNS);
  process.stdout.write(rendersReport(result).join('\n'));
  writeFileSync(
    path.join(OUT, 'renders.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`,
  );
  log(`wrote ${path.relative(process.cwd(), path.join(OUT, 'renders.json'))}`);
}

const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'rounds' && only !== 'viewer' && only !== 'renders')
  throw new Error(`BENCH_ONLY is rounds, viewer or renders, not ${only}`);
for (const [part, fn] of [
  ['rounds', run],
  ['viewer', runViewer],
  ['renders', runRenders],
] as const) {
  if (only !== undefined && only !== part) continue;
  try {
    await fn();
  } catch (error) {
    // A part that broke is reported and the other still runs; figures never fail the bench, a broken part does.
    process.stdout.write(
      `\nERROR: the ${part} part of the bench broke: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
