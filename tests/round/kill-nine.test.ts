import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { CLI, cleanup, emit, lines, makeRepo, runCli, type TempRepo } from '../helpers/git-repo';
import { liveFetch, removeTempDirs, startLive } from '../helpers/server';

afterAll(() => {
  cleanup();
  removeTempDirs();
});

/** Every file under `dir`, relative, whose name ends in `.tmp`. */
function temporaries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.tmp'))
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

/** Checks `condition` until it holds or `stop` does; which one came first. */
async function whichFirst(condition: () => boolean, stop: () => boolean): Promise<'condition' | 'stop'> {
  for (;;) {
    if (condition()) return 'condition';
    if (stop()) return 'stop';
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * Where `involut rounds` is killed (kill -9 of its own process, as the OOM killer or a
 * user would), each seen from outside by a file that exists only in that step.
 */
const STOPS = [
  {
    step: 'while git add writes its temporary index',
    file: (repo: TempRepo, pid: number) => repo.path(`.git/involut-index.${pid}.lock`),
    // The git add it started runs on, orphaned: its lock goes once it is done.
    settled: (repo: TempRepo, pid: number) => !existsSync(repo.path(`.git/involut-index.${pid}.lock`)),
  },
  {
    step: 'while the material is written',
    file: (repo: TempRepo, pid: number) => repo.path(`.review/.material.json.${pid}.round.tmp`),
    settled: () => true,
  },
];

describe('a round killed with SIGKILL at any step', () => {
  for (const stop of STOPS) {
    it(`${stop.step}: the last round stays served whole, and the next round sweeps what it left`, async () => {
      const repo = makeRepo();
      repo.git(['config', 'gc.auto', '0']);
      for (let i = 0; i < 1500; i++) repo.write(`src/d${i % 20}/f${i}.txt`, `${lines(40, `file ${i}`)}\n`);
      repo.commit('initial');
      repo.write('src/d0/f0.txt', 'round 1\n');
      const first = await emit(repo.dir);
      expect(first.summary.round).toBe(1);
      const lastGood = readFileSync(repo.path('.review/material.json'));

      // A large round 2: every file changed, so each step lasts long enough to be seen.
      for (let i = 0; i < 1500; i++) repo.write(`src/d${i % 20}/f${i}.txt`, `${lines(60, `round 2 of ${i}`)}\n`);
      const child = spawn(process.execPath, [CLI, 'rounds', '--quiet'], { cwd: repo.dir, stdio: 'ignore' });
      const closed = new Promise((resolve) => child.once('close', resolve));
      const pid = child.pid!;
      const seen = await whichFirst(
        () => existsSync(stop.file(repo, pid)),
        () => child.exitCode !== null,
      );
      child.kill('SIGKILL');
      await closed;
      expect(seen, `the round ended before ${stop.file(repo, pid)} was seen`).toBe('condition');
      expect(
        await whichFirst(
          () => stop.settled(repo, pid),
          () => false,
        ),
      ).toBe('condition');

      // Nothing of round 2 is taken for a finished round: material.json is round 1, whole.
      expect(readFileSync(repo.path('.review/material.json')).equals(lastGood)).toBe(true);
      expect(existsSync(repo.path('.review/rounds/2/material.json'))).toBe(false);
      const server = await startLive(repo.dir);
      try {
        const answer = await liveFetch(server, '/api/round');
        expect(answer.status).toBe(200);
        const round = (await answer.json()) as { state: string; data: Material };
        expect(round.state).toBe('ok');
        expect(round.data.source.round).toBe(1);
        expect(round.data.material.map((e) => e.ref)).toEqual(['src/d0/f0.txt']);
      } finally {
        await server.stop();
      }

      // The next round sweeps what the killed one left, takes its number, and finishes.
      const next = await runCli(['rounds', '--json'], repo.dir);
      expect(next.code, next.stderr).toBe(0);
      expect((JSON.parse(next.stdout) as { round: number }).round).toBe(2);
      expect((JSON.parse(readFileSync(repo.path('.review/material.json'), 'utf8')) as Material).source.round).toBe(2);
      expect(readdirSync(repo.path('.review/rounds')).sort()).toEqual(['1', '2']);
      expect(temporaries(repo.path('.review'))).toEqual([]);
      expect(readdirSync(repo.path('.git')).filter((name) => name.startsWith('involut-index'))).toEqual([]);
      expect(
        repo.git(['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/']).trim().split('\n').sort(),
      ).toEqual(['refs/involut/rounds/1', 'refs/involut/rounds/2']);
    }, 120_000);
  }
});
