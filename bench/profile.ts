/**
 * Where one `involut rounds` spends its time: `npx tsx bench/profile.ts` (after
 * `npm run bench` has built the repository and `npm run build` the CLI) runs one fresh
 * capture of the bench repository and prints, for every git child, when it was
 * spawned and when it ended, relative to the start of the node process, then the
 * node process's own wall, CPU and peak RSS. PROFILE_RUNS=n repeats it; PROFILE_CLI=path
 * profiles another build of the CLI, PROFILE_BENCH_ROOT=dir a copy of the bench repository
 * kept there (so a run elsewhere does not reset it under this one).
 *
 * The timeline comes from a preload (`node --import`) that wraps child_process.spawn;
 * it adds well under a millisecond per child.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from './measure';
import { resetRepo, synthRepo } from './synth-repo';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = process.env.PROFILE_CLI ?? path.join(PROJECT, 'dist', 'server', 'cli.js');

const TRACER = `
import cp from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
const children = [];
const spawn = cp.spawn;
cp.spawn = function (command, args, ...rest) {
  const called = performance.now();
  const child = spawn.call(this, command, args, ...rest);
  const spawned = performance.now();
  const shown = (Array.isArray(args) ? args : []).filter((a, i, all) => a !== '-c' && all[i - 1] !== '-c');
  const record = { what: (spawned - called).toFixed(1).padStart(5) + '  ' + [command, ...shown].join(' ').slice(0, 80), spawn: spawned, close: NaN };
  children.push(record);
  child.once('close', () => (record.close = performance.now()));
  return child;
};
syncBuiltinESMExports();
process.once('exit', () => {
  const ms = (n) => n.toFixed(0).padStart(6);
  const lines = children.map((c) => ms(c.spawn) + ms(c.close) + ms(c.close - c.spawn) + '  ' + c.what);
  lines.push(ms(0) + ms(performance.now()) + ms(performance.now()) + '  node exits');
  process.stderr.write('\\n  spawn  close   took  call (ms from node start; call: the spawn call itself, which blocks node)\\n' + lines.join('\\n') + '\\n');
});
`;

const scratch = mkdtempSync(path.join(os.tmpdir(), 'involut-profile-'));
const tracer = path.join(scratch, 'trace-children.mjs');
writeFileSync(tracer, TRACER);
const repo = synthRepo(process.env.PROFILE_BENCH_ROOT ?? path.join(os.tmpdir(), 'involut-bench'), (line) => process.stderr.write(`${line}\n`));
const env: NodeJS.ProcessEnv = {};
for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;

for (let i = 0; i < Math.max(1, Number(process.env.PROFILE_RUNS ?? 1)); i++) {
  resetRepo(repo, env);
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'node process: %e s wall, %U s user, %S s system, peak RSS %M KiB', process.execPath, '--import', tracer, CLI, 'rounds', '--base', repo.base, '--quiet'],
    { cwd: repo.dir, env, encoding: 'utf8' },
  );
  process.stdout.write(`${result.stderr.trim()}\nload ${loadavg()}\n`);
}
resetRepo(repo, env);
rmSync(scratch, { recursive: true, force: true });
