/**
 * The rounds part of `npm run bench`: `involut rounds` against git's own capture pipeline
 * on the same repository, in three cases (DESIGN.md's targets):
 * - the bench round: 2,000 changed files, one 50,000-line change, 20 PNGs (≤ 1.3×);
 * - a repository of 100,000 tracked files with 10 changed (≤ 1.5×);
 * - one changed file in a small repository (≤ 1.5× of `node -e 0` + the floor).
 * The floor is what a capture costs git alone: copy the index (timestamps kept), `git add
 * --all` into the copy with the bulk check-in settings, `git write-tree`, and the diff of
 * the base against that tree to /dev/null. The two series alternate after one warm-up of
 * each, and every run starts from the same object store (see `resetRepo`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BULK_ADD } from '../server/round/capture';
import { roundDiff } from '../server/git/diff';
import { NEUTRAL_CONFIG } from '../server/git/git';
import { loadavg, measure, median, type Sample } from './measure';
import { resetRepo, synthRepo, type SynthRepo } from './synth-repo';
import { manyFilesRepo, smallRepo } from './synth-cases';

const NEUTRAL = NEUTRAL_CONFIG.flatMap((c) => ['-c', c]);

interface Case {
  name: string;
  repo: () => SynthRepo;
  target: number;
  /** The small round's floor also pays for a Node start, as involut does. */
  withNode: boolean;
}

export interface CaseResult {
  name: string;
  floorMs: number;
  nodeMs: number | null;
  involutMs: number;
  ratio: number;
  target: number;
  involutRssKiB: number;
  involutTreeRssKiB: number;
  floorRssKiB: number;
  materialBytes: number;
  samples: { floor: number[]; involut: number[] };
}

export async function benchRounds(
  root: string,
  cli: string,
  runs: number,
  log: (line: string) => void,
): Promise<CaseResult[]> {
  const cases: Case[] = [
    {
      name: 'bench round (2,000 changed files, one 50,000-line change, 20 PNGs)',
      repo: () => synthRepo(root, log),
      target: 1.3,
      withNode: false,
    },
    { name: '100,000 tracked files, 10 changed', repo: () => manyFilesRepo(root, log), target: 1.5, withNode: false },
    { name: 'small round (1 changed file in 20)', repo: () => smallRepo(root, log), target: 1.5, withNode: true },
  ];
  const only = process.env.BENCH_CASE;
  const results: CaseResult[] = [];
  for (const c of cases) {
    if (only && !c.name.startsWith(only)) continue;
    results.push(await benchCase(c, cli, runs, log));
  }
  return results;
}

async function benchCase(
  { name, repo: build, target, withNode }: Case,
  cli: string,
  runs: number,
  log: (line: string) => void,
): Promise<CaseResult> {
  const repo = build();
  const env = runEnv();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'involut-bench-index-'));
  const index = path.join(scratch, 'index');
  const indexEnv = runEnv({ GIT_INDEX_FILE: index });
  const reset = () => resetRepo(repo, env);
  const at = { cwd: repo.dir, env, stdout: 'devnull' as const };

  const floor = async (sampleTree = false): Promise<Sample> => {
    reset();
    const steps = [
      await measure(['cp', '--preserve=timestamps', path.join(repo.dir, '.git', 'index'), index], {
        ...at,
        sampleTree,
      }),
      await measure(['git', ...NEUTRAL, ...BULK_ADD.flatMap((c) => ['-c', c]), 'add', '--all'], {
        ...at,
        env: indexEnv,
        sampleTree,
      }),
    ];
    const written = await measure(['git', ...NEUTRAL, 'write-tree'], {
      ...at,
      env: indexEnv,
      stdout: 'count',
      sampleTree,
    });
    const tree = execFileSync('git', ['write-tree'], { cwd: repo.dir, env: indexEnv, encoding: 'utf8' }).trim(); // stored already: not timed
    const diff = ['git', ...NEUTRAL, ...roundDiff(repo.base, tree)];
    steps.push(written, await measure(diff, { ...at, sampleTree }));
    rmSync(index, { force: true });
    return {
      ms: steps.reduce((sum, s) => sum + s.ms, 0),
      maxRssKiB: Math.max(...steps.map((s) => s.maxRssKiB)),
      treeRssKiB: Math.max(...steps.map((s) => s.treeRssKiB ?? 0)),
    };
  };
  const node = () => measure([process.execPath, '-e', '0'], at);
  const involut = (sampleTree = false) => {
    reset();
    return measure([process.execPath, cli, 'rounds', '--base', repo.base, '--quiet'], { ...at, sampleTree });
  };

  log(`${name}: warm-up`);
  await floor();
  await involut();
  if (withNode) await node();
  const floors: Sample[] = [];
  const nodes: Sample[] = [];
  const involuts: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    floors.push(await floor());
    if (withNode) nodes.push(await node());
    involuts.push(await involut());
    const nodeText = withNode ? ` + node -e 0 ${fmtMs(nodes[i]!.ms)}` : '';
    log(
      `  run ${i + 1}/${runs}: floor ${fmtMs(floors[i]!.ms)}${nodeText}, involut ${fmtMs(involuts[i]!.ms)}   load ${loadavg()}`,
    );
  }
  const materialBytes = statSync(path.join(repo.dir, '.review', 'material.json')).size;
  const involutTree = (await involut(true)).treeRssKiB ?? 0;
  reset();
  rmSync(scratch, { recursive: true, force: true });

  const floorMs = median(floors.map((s) => s.ms));
  const nodeMs = withNode ? median(nodes.map((s) => s.ms)) : null;
  const involutMs = median(involuts.map((s) => s.ms));
  return {
    name,
    floorMs,
    nodeMs,
    involutMs,
    ratio: involutMs / (floorMs + (nodeMs ?? 0)),
    target,
    involutRssKiB: median(involuts.map((s) => s.maxRssKiB)),
    involutTreeRssKiB: involutTree,
    floorRssKiB: median(floors.map((s) => s.maxRssKiB)),
    materialBytes,
    samples: { floor: floors.map((s) => s.ms), involut: involuts.map((s) => s.ms) },
  };
}

/** The results as the table `npm run bench` prints. */
export function roundsReport(results: CaseResult[], runs: number): string[] {
  const lines = [
    '',
    `involut rounds vs git's own capture pipeline, ${runs} alternating runs of each after one warm-up (ratio of medians)`,
    '',
  ];
  for (const r of results) {
    const floor = r.nodeMs === null ? fmtMs(r.floorMs) : `${fmtMs(r.nodeMs)} node -e 0 + ${fmtMs(r.floorMs)}`;
    const verdict = r.ratio <= r.target ? 'PASS' : 'MISS';
    lines.push(
      `${r.name}`,
      `  floor ${floor}, involut ${fmtMs(r.involutMs)} (${fmtMs(Math.min(...r.samples.involut))}–${fmtMs(Math.max(...r.samples.involut))}): ` +
        `${r.ratio.toFixed(2)}× (target ≤ ${r.target}×) ${verdict}`,
      `  peak RSS: involut ${fmtMiB(r.involutRssKiB)} (node and its gits together ${fmtMiB(r.involutTreeRssKiB)}), floor ${fmtMiB(r.floorRssKiB)}; material.json ${fmtMiB(r.materialBytes / 1024)}`,
      '',
    );
  }
  return lines;
}

/** The user's environment minus GIT_* variables and pagers: what involut gives its own git children. */
function runEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') && !['EDITOR', 'VISUAL', 'PAGER'].includes(key)) env[key] = value;
  }
  return { ...env, GIT_OPTIONAL_LOCKS: '0', ...extra };
}

const fmtMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const fmtMiB = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
