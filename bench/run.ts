/**
 * `npm run bench`: `involut rounds` against git's own capture pipeline in three cases
 * (bench/rounds.ts), then the viewer on the bench round in headless Chromium
 * (bench/viewer.ts). Results go to bench/out/rounds.json and bench/out/viewer.json.
 *
 * Environment: BENCH_RUNS (runs per series, default 5), BENCH_ONLY=rounds|viewer (one part
 * only), BENCH_CASE (the rounds cases whose name starts with it), BENCH_VIEWER_RUNS (viewer
 * runs, default 3), BENCH_ROOT (where the repositories are cached, default
 * $TMPDIR/involut-bench), BENCH_CLI (another build of the CLI).
 * Exits 0 whatever the figures: it is a benchmark, not a test (1 only when a part broke).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRounds, roundsReport } from './rounds';
import { synthRepo } from './synth-repo';
import { BENCH_ROOT, benchViewer, viewerReport } from './viewer';

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
  const repo = synthRepo(BENCH_ROOT, log);
  const runs = Math.max(1, Number(process.env.BENCH_VIEWER_RUNS ?? 3));
  const result = await benchViewer(repo, runs);
  process.stdout.write(viewerReport(result).join('\n'));
  writeFileSync(path.join(OUT, 'viewer.json'), `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), path.join(OUT, 'viewer.json'))}`);
}

const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'rounds' && only !== 'viewer')
  throw new Error(`BENCH_ONLY is rounds or viewer, not ${only}`);
for (const [part, fn] of [
  ['rounds', run],
  ['viewer', runViewer],
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
