/**
 * `npm run bench`: how long `involut rounds` takes, and how much memory, next to git
 * producing the same diffs (`git diff --binary <base>` + `git status --porcelain`) on
 * a synthetic repository of 2,000 changed files, one 50,000-line change and 20 PNGs.
 * DESIGN.md's target: involut within 1.5× git's wall time (goal 1.2×), memory bounded.
 *
 * Three series alternate (git floor, git pipeline, involut, git floor, …) after one
 * warm-up of each, so drift in the machine's load hits all of them alike:
 * - git floor: `git diff --binary <base>` then `git status --porcelain`, the figure the
 *   target is set against;
 * - git pipeline (for context, not part of the ratio): the same job by git alone (`add`
 *   into a temporary index, `write-tree`, one `diff --raw -p -z -M`), i.e. what a capture
 *   and its patches cost git without Node (involut stages plain files itself instead of
 *   git add, see server/git/direct-add.ts);
 * - involut: `node dist/server/cli.js rounds --base <base> --quiet`.
 * Before every run `.review/`, the pinned `refs/involut/*` and every object earlier
 * captures stored (loose files, and packs other than the base's) are removed, so each
 * run stores its round from scratch, as a round of new work does. The loose-object
 * folders (`.git/objects/xx/`) are kept, as in any repository in use.
 *
 * Then the viewer on the same round (bench/viewer.ts): the built CLI serves it, Debian's
 * headless Chromium reads it; first card or file readable, jump to the last file, longest
 * task with the 50,000-line file unfolded, peak memory. Written to bench/out/viewer.json.
 *
 * Environment: BENCH_RUNS (runs per series, default 5), BENCH_KEEP_OBJECTS=1 (keep what
 * earlier captures stored, i.e. measure a capture whose blobs are already stored),
 * BENCH_ONLY=rounds|viewer (one part only), BENCH_VIEWER_RUNS (viewer runs, default 3),
 * BENCH_ROOT (where the repository is cached, default $TMPDIR/involut-bench), BENCH_CLI (another
 * build of the CLI for the viewer part).
 * Exits 0 whatever the figures: it is a benchmark, not a test (1 only when a part broke).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg, measure, median, type Sample } from './measure';
import { resetRepo, SHAPE, synthRepo } from './synth-repo';
import { BENCH_ROOT, benchViewer, viewerReport } from './viewer';
import { NEUTRAL_CONFIG } from '../server/git/git';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(PROJECT, 'bench', 'out');
const CLI = path.join(PROJECT, 'dist', 'server', 'cli.js');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const KEEP_OBJECTS = process.env.BENCH_KEEP_OBJECTS === '1';
const TARGET = 1.5;
const GOAL = 1.2;

/** The emitter's own neutral settings, so git's floor prints and stores as the emitter's git does. */
const NEUTRAL = NEUTRAL_CONFIG.flatMap((c) => ['-c', c]);
/** What server/git/capture.ts adds to its `git add`. */
const BULK_ADD = ['-c', 'core.bigFileThreshold=1', '-c', 'pack.compression=0'];
/** server/git/git.ts's DIFF_FLAGS and WITHOUT_REVIEW. */
const DIFF_FLAGS = ['-O/dev/null', '--no-ext-diff', '--no-textconv', '--no-color', '--ignore-submodules=none', '--submodule=short'];
const WITHOUT_REVIEW = ['--', '.', ':(top,exclude).review'];

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The user's environment minus GIT_* variables and pagers: what involut gives its own git children. */
function runEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') && !['EDITOR', 'VISUAL', 'PAGER'].includes(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

interface Floor {
  total: Sample;
  diff: Sample;
  status: Sample;
}
interface Pipeline {
  total: Sample;
  add: Sample;
  writeTree: Sample;
  diff: Sample;
}

/** Adds up commands run one after the other: wall times summed, peaks the largest. */
function sequential(samples: Sample[], sampleTree: boolean): Sample {
  return {
    ms: samples.reduce((sum, s) => sum + s.ms, 0),
    maxRssKiB: Math.max(...samples.map((s) => s.maxRssKiB)),
    ...(sampleTree ? { treeRssKiB: Math.max(...samples.map((s) => s.treeRssKiB ?? 0)) } : {}),
  };
}

async function run(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm run bench does).`);
  mkdirSync(OUT, { recursive: true });
  const loadBefore = loadavg();
  const buildStart = Date.now();
  // The repository lives outside the project: its thousands of .ts files must never meet tsc, vitest or vite.
  const repo = synthRepo(BENCH_ROOT, log);
  if (repo.built) log(`built in ${((Date.now() - buildStart) / 1000).toFixed(1)} s`);
  else log(`using the cached repository ${repo.dir} (${repo.version})`);

  const env = runEnv();
  const git = (args: string[]) => execFileSync('git', args, { cwd: repo.dir, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'involut-bench-index-'));
  const tempIndex = path.join(scratch, 'index');

  const reset = () => resetRepo(repo, env, KEEP_OBJECTS);

  const floorDiffArgs = ['git', ...NEUTRAL, 'diff', '--no-ext-diff', '--no-textconv', '--no-color', '--binary', repo.base];
  const statusArgs = ['git', ...NEUTRAL, 'status', '--porcelain'];
  const involutArgs = [process.execPath, CLI, 'rounds', '--base', repo.base, '--quiet'];

  const gitFloor = async (sampleTree = false): Promise<Floor> => {
    reset();
    const diff = await measure(floorDiffArgs, { cwd: repo.dir, env, stdout: 'devnull', sampleTree });
    const status = await measure(statusArgs, { cwd: repo.dir, env, stdout: 'devnull', sampleTree });
    return { total: sequential([diff, status], sampleTree), diff, status };
  };

  const gitPipeline = async (sampleTree = false): Promise<Pipeline> => {
    reset();
    // As server/git/capture.ts seeds it: a copy of the real index with its timestamps (not timed: ~1 ms).
    const real = path.join(repo.dir, '.git', 'index');
    copyFileSync(real, tempIndex);
    const info = statSync(real);
    utimesSync(tempIndex, info.atime, info.mtime);
    const indexEnv = runEnv({ GIT_INDEX_FILE: tempIndex });
    const add = await measure(['git', ...NEUTRAL, ...BULK_ADD, 'add', '--all'], { cwd: repo.dir, env: indexEnv, stdout: 'devnull', sampleTree });
    const writeTree = await measure(['git', ...NEUTRAL, 'write-tree'], { cwd: repo.dir, env: indexEnv, stdout: 'count', sampleTree });
    const tree = execFileSync('git', ['write-tree'], { cwd: repo.dir, env: indexEnv, encoding: 'utf8' }).trim(); // already stored: ~2 ms, not timed
    const diff = await measure(['git', ...NEUTRAL, 'diff', ...DIFF_FLAGS, '--raw', '-p', '-z', '-M', '--no-abbrev', repo.base, tree, ...WITHOUT_REVIEW], {
      cwd: repo.dir,
      env,
      stdout: 'devnull',
      sampleTree,
    });
    return { total: sequential([add, writeTree, diff], sampleTree), add, writeTree, diff };
  };

  const involut = async (sampleTree = false): Promise<Sample> => {
    reset();
    return measure(involutArgs, { cwd: repo.dir, env, stdout: 'devnull', sampleTree });
  };

  // What git's floor produces, counted once (through a pipe, so not timed).
  reset();
  const diffBytes = (await measure(floorDiffArgs, { cwd: repo.dir, env, stdout: 'count' })).stdoutBytes ?? 0;
  const statusLines = git(['status', '--porcelain']).split('\n').filter(Boolean).length;

  log('warm-up: git floor, git pipeline, involut');
  await gitFloor();
  await gitPipeline();
  await involut();

  const floors: Floor[] = [];
  const pipelines: Pipeline[] = [];
  const involuts: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const floor = await gitFloor();
    floors.push(floor);
    const pipeline = await gitPipeline();
    pipelines.push(pipeline);
    const mine = await involut();
    involuts.push(mine);
    log(
      `run ${i + 1}/${RUNS}: git floor ${fmtMs(floor.total.ms)} (diff ${fmtMs(floor.diff.ms)} + status ${fmtMs(floor.status.ms)}), ` +
        `git pipeline ${fmtMs(pipeline.total.ms)} (add ${fmtMs(pipeline.add.ms)} + write-tree ${fmtMs(pipeline.writeTree.ms)} + diff ${fmtMs(pipeline.diff.ms)}), ` +
        `involut ${fmtMs(mine.ms)}   load ${loadavg()}`,
    );
  }

  // The material of the last run: its size and a sanity check that it holds the whole round.
  const materialFile = path.join(repo.dir, '.review', 'material.json');
  const materialBytes = statSync(materialFile).size;
  const material = JSON.parse(readFileSync(materialFile, 'utf8')) as { material: Array<{ additions: number | null; binary: boolean }> };
  const entries = material.material.length;
  const additions = material.material.reduce((sum, e) => sum + (e.additions ?? 0), 0);
  const binaries = material.material.filter((e) => e.binary).length;
  const expectedEntries = SHAPE.files + 1 + SHAPE.images;
  const expectedAdditions = SHAPE.files * SHAPE.changedPerFile + SHAPE.largeChanged;

  // One more run of each, sampling the whole process tree's memory (node and its git children at once).
  log('memory pass: process-tree RSS sampled through /proc');
  const floorTree = (await gitFloor(true)).total.treeRssKiB ?? 0;
  const pipelineTree = (await gitPipeline(true)).total.treeRssKiB ?? 0;
  const involutTree = (await involut(true)).treeRssKiB ?? 0;
  reset();
  rmSync(scratch, { recursive: true, force: true });
  const loadAfter = loadavg();

  const med = (values: number[]) => median(values);
  const gitMs = med(floors.map((f) => f.total.ms));
  const pipelineMs = med(pipelines.map((p) => p.total.ms));
  const involutMs = med(involuts.map((s) => s.ms));
  const ratio = involutMs / gitMs;
  const gitRss = med(floors.map((f) => f.total.maxRssKiB));
  const pipelineRss = med(pipelines.map((p) => p.total.maxRssKiB));
  const involutRss = med(involuts.map((s) => s.maxRssKiB));
  const verdict =
    ratio <= GOAL
      ? `PASS: involut takes ${ratio.toFixed(2)}× git's time, within the ${GOAL}× goal`
      : ratio <= TARGET
        ? `PASS: involut takes ${ratio.toFixed(2)}× git's time, within the ${TARGET}× target (goal ${GOAL}×)`
        : `MISS: involut takes ${ratio.toFixed(2)}× git's time, above the ${TARGET}× target`;

  const span = (values: number[]) => `${fmtMs(Math.min(...values))}–${fmtMs(Math.max(...values))}`;
  const rows: string[][] = [
    ['', 'median wall', 'min–max wall', 'peak RSS (%M)', 'peak tree RSS'],
    ['git floor: diff --binary + status', fmtMs(gitMs), span(floors.map((f) => f.total.ms)), fmtMiB(gitRss), fmtMiB(floorTree)],
    ['  git diff --binary <base>', fmtMs(med(floors.map((f) => f.diff.ms))), '', fmtMiB(med(floors.map((f) => f.diff.maxRssKiB))), ''],
    ['  git status --porcelain', fmtMs(med(floors.map((f) => f.status.ms))), '', fmtMiB(med(floors.map((f) => f.status.maxRssKiB))), ''],
    ['involut rounds', fmtMs(involutMs), span(involuts.map((s) => s.ms)), fmtMiB(involutRss), fmtMiB(involutTree)],
    ['context: the same job by git alone', fmtMs(pipelineMs), span(pipelines.map((p) => p.total.ms)), fmtMiB(pipelineRss), fmtMiB(pipelineTree)],
    ['  git add --all (temporary index)', fmtMs(med(pipelines.map((p) => p.add.ms))), '', fmtMiB(med(pipelines.map((p) => p.add.maxRssKiB))), ''],
    ['  git write-tree', fmtMs(med(pipelines.map((p) => p.writeTree.ms))), '', fmtMiB(med(pipelines.map((p) => p.writeTree.maxRssKiB))), ''],
    ['  git diff --raw -p -z -M <base> <tree>', fmtMs(med(pipelines.map((p) => p.diff.ms))), '', fmtMiB(med(pipelines.map((p) => p.diff.maxRssKiB))), ''],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('   '));

  const lines = [
    '',
    `involut rounds vs git, ${RUNS} alternating runs of each series after one warm-up (${KEEP_OBJECTS ? 'objects of earlier captures kept' : 'every run stores its round afresh'})`,
    `repository: ${SHAPE.files} files × ${SHAPE.changedPerFile} changed lines, 1 file of ${repo.stats.largeLines.toLocaleString('en')} lines ` +
      `with ${SHAPE.largeChanged.toLocaleString('en')} changed, ${SHAPE.images} PNGs (${fmtKiB(repo.stats.imageBytes.min)}–${fmtKiB(repo.stats.imageBytes.max)}); ` +
      `git diff --binary prints ${fmtMiB(diffBytes / 1024)}, git status lists ${statusLines} paths`,
    '',
    ...table,
    '',
    `ratio of medians involut/git floor: ${ratio.toFixed(2)}× (target ≤ ${TARGET}×, goal ${GOAL}×); involut/the same job by git alone: ${(involutMs / pipelineMs).toFixed(2)}×`,
    `material.json: ${fmtMiB(materialBytes / 1024)} (${materialBytes.toLocaleString('en')} bytes), ${entries} entries (expected ${expectedEntries}), ` +
      `+${additions.toLocaleString('en')} lines (expected ${expectedAdditions.toLocaleString('en')}), ${binaries} binaries`,
    `machine: ${os.cpus().length} cores, load ${loadBefore} before, ${loadAfter} after; git ${git(['--version']).trim().replace('git version ', '')}, node ${process.version}`,
    "peak RSS (%M) is GNU time's: the largest single process of the command (for a sequence, of any of its commands);",
    'peak tree RSS sums the processes alive together (node and its git children), sampled every 5 ms in one extra run.',
    '',
    verdict,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  if (entries !== expectedEntries || additions !== expectedAdditions) {
    process.stdout.write('WARNING: the material does not hold the round the repository was built with; the figures are suspect.\n');
  }

  const round = (n: number, digits = 1) => Number(n.toFixed(digits));
  const result = {
    version: repo.version,
    date: new Date().toISOString(),
    runs: RUNS,
    objects: KEEP_OBJECTS ? 'kept' : 'fresh',
    machine: { cores: os.cpus().length, loadBefore, loadAfter, node: process.version, git: git(['--version']).trim() },
    repository: { dir: repo.dir, base: repo.base, shape: SHAPE, stats: repo.stats, gitDiffBytes: diffBytes, statusPaths: statusLines },
    git: {
      medianMs: round(gitMs),
      medianMaxRssKiB: gitRss,
      treeRssKiB: floorTree,
      diffMedianMs: round(med(floors.map((f) => f.diff.ms))),
      statusMedianMs: round(med(floors.map((f) => f.status.ms))),
      samples: floors.map((f) => ({ ms: round(f.total.ms), diffMs: round(f.diff.ms), statusMs: round(f.status.ms), maxRssKiB: f.total.maxRssKiB })),
    },
    involut: {
      medianMs: round(involutMs),
      medianMaxRssKiB: involutRss,
      treeRssKiB: involutTree,
      samples: involuts.map((s) => ({ ms: round(s.ms), maxRssKiB: s.maxRssKiB })),
    },
    gitPipeline: {
      medianMs: round(pipelineMs),
      medianMaxRssKiB: pipelineRss,
      treeRssKiB: pipelineTree,
      samples: pipelines.map((p) => ({ ms: round(p.total.ms), addMs: round(p.add.ms), writeTreeMs: round(p.writeTree.ms), diffMs: round(p.diff.ms), maxRssKiB: p.total.maxRssKiB })),
    },
    ratio: round(ratio, 3),
    ratioToGitPipeline: round(involutMs / pipelineMs, 3),
    target: TARGET,
    goal: GOAL,
    material: { bytes: materialBytes, entries, additions, binaries },
    verdict,
  };
  writeFileSync(path.join(OUT, 'rounds.json'), `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), path.join(OUT, 'rounds.json'))}`);
}

const fmtMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const fmtMiB = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
const fmtKiB = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

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
if (only !== undefined && only !== 'rounds' && only !== 'viewer') throw new Error(`BENCH_ONLY is rounds or viewer, not ${only}`);
for (const [part, fn] of [['rounds', run], ['viewer', runViewer]] as const) {
  if (only !== undefined && only !== part) continue;
  try {
    await fn();
  } catch (error) {
    // A part that broke is reported and the other still runs; figures never fail the bench, a broken part does.
    process.stdout.write(`\nERROR: the ${part} part of the bench broke: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  }
}
