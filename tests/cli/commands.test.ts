import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { Cards } from '../../schemas/cards';
import { Material } from '../../schemas/material';
import {
  assertBuilt,
  cliPath,
  gitRepo,
  isolatedEnv,
  removeTemporaryFolders,
  runCli,
  temporaryFolder,
} from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

describe('help and version', () => {
  it.each([['--help'], ['-h'], ['help']])('involut %s prints the usage and exits 0', async (...args: string[]) => {
    const result = await runCli(args, { cwd: await temporaryFolder() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^involut \S+: /);
    expect(result.stdout).toContain('Usage:');
    expect(result.stdout).toContain('involut rounds');
    expect(result.stdout).toContain('--since-last');
    expect(result.stdout).toContain('Exit codes: 0');
  });

  it.each([
    ['rounds', '--since-last'],
    ['serve', '--no-open'],
    ['demo', '--keep'],
    ['check', '--strict'],
    ['notes', '--all'],
    ['skill', '--install'],
  ])("involut %s --help prints that command's flags and an example", async (name, flag) => {
    for (const args of [
      [name, '--help'],
      ['-h', name],
      ['help', name],
    ]) {
      const result = await runCli(args, { cwd: await temporaryFolder() });
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^involut ${name} `));
      expect(result.stdout).toContain(flag);
      expect(result.stdout).toMatch(new RegExp(`\nExample: involut( ${name})? `));
      expect(result.stdout).not.toContain('Usage:');
    }
  });

  it("--version prints package.json's version", async () => {
    const result = await runCli(['--version'], { cwd: await temporaryFolder() });
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('involut rounds on success', () => {
  async function repoWithChanges() {
    const repo = await gitRepo();
    await writeFile(path.join(repo.dir, 'README.md'), '# test\n\nchanged\n');
    await writeFile(path.join(repo.dir, 'new.txt'), 'new\n');
    return repo;
  }

  it('prints a summary naming the round, the base and what it wrote', async () => {
    const { dir } = await repoWithChanges();
    const result = await runCli(['rounds'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Involut round 1 of ${dir}`);
    expect(result.stdout).toMatch(/files\s+2: 1 added, 1 modified/);
    expect(result.stdout).toContain('material.json');
  });

  it('--quiet prints nothing and still writes material.json', async () => {
    const { dir } = await repoWithChanges();
    const result = await runCli(['rounds', '--quiet'], { cwd: dir });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(
      Material.safeParse(JSON.parse(await readFile(path.join(dir, '.review', 'material.json'), 'utf8'))).success,
    ).toBe(true);
  });

  it('--json prints the summary as data; material.json agrees with it', async () => {
    const { dir, git } = await repoWithChanges();
    const head = git('rev-parse', 'HEAD').trim();
    const result = await runCli(['rounds', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      round: 1,
      base: head,
      base_reason: 'HEAD (on the default branch main)',
      files: 2,
      by_status: { added: 1, modified: 1, deleted: 0, renamed: 0 },
    });

    const material = Material.parse(JSON.parse(await readFile(path.join(dir, '.review', 'material.json'), 'utf8')));
    expect(material.source).toMatchObject({ kind: 'git', request: null, base: head, round: 1 });
    expect(material.material.map((m) => [m.ref, m.status]).sort()).toEqual([
      ['README.md', 'modified'],
      ['new.txt', 'added'],
    ]);
  });

  it('--since-last after a round compares with the tree that round captured', async () => {
    const { dir } = await repoWithChanges();
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    await writeFile(path.join(dir, 'later.txt'), 'later\n');
    const result = await runCli(['rounds', '--since-last', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      round: 2,
      base_reason: '--since-last: the tree captured by round 1',
      files: 1,
      by_status: { added: 1, modified: 0, deleted: 0, renamed: 0 },
    });
  });
});

describe('involut demo', () => {
  /**
   * Starts `involut demo --no-open --port 0 …` with TMPDIR in a folder of the test's (where
   * the demo builds its repository) and waits for `ready` to accept what it printed.
   */
  async function startDemo(args: string[], ready: (stdout: string) => boolean) {
    const tmp = await temporaryFolder('involut-demo-tmp-');
    const home = await temporaryFolder('involut-home-');
    const child = spawn(process.execPath, [cliPath, 'demo', '--no-open', '--port', '0', ...args], {
      cwd: tmp,
      env: isolatedEnv(home, { TMPDIR: tmp, INVOLUT_STATE_DIR: path.join(home, 'state') }),
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the demo was not ready within 60 s: ${stdout} ${stderr}`)),
        60_000,
      );
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (ready(stdout)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => reject(new Error(`the demo exited before it was ready: ${stderr}`)));
    });
    const folders = () =>
      readdirSync(tmp)
        .filter((name) => name.startsWith('involut-demo-'))
        .map((name) => path.join(tmp, name));
    return {
      tmp,
      folders,
      stdout: () => stdout,
      stderr: () => stderr,
      /** SIGTERM, as a service manager would stop it; resolves with the exit code. */
      stop: async () => {
        child.kill('SIGTERM');
        return exited;
      },
    };
  }

  it('--json prints the URL, the repository and the round as data, serves until SIGTERM, then removes its folder', async () => {
    const demo = await startDemo(['--json'], (out) => /^\}$/m.test(out));
    const facts = JSON.parse(demo.stdout()) as {
      url: string;
      repo: string;
      folder: string;
      kept: boolean;
      material: string;
      cards: string;
      cards_count: number;
      unclaimed: string[];
      files: number;
      by_status: object;
    };
    expect(facts.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=/);
    expect(facts.folder.startsWith(demo.tmp)).toBe(true);
    expect(facts.repo).toBe(path.join(facts.folder, 'dungeon-dash'));
    expect(facts.kept).toBe(false);
    expect(facts.files).toBe(18);
    expect(facts.by_status).toEqual({ added: 8, modified: 7, deleted: 2, renamed: 1 });
    expect(facts.unclaimed).toEqual(['scratch/expire-now.ts']);
    expect(facts.cards_count).toBe(7);
    const material = Material.parse(JSON.parse(await readFile(facts.material, 'utf8')));
    expect(new Set(material.material.map((m) => m.status))).toEqual(
      new Set(['added', 'deleted', 'modified', 'renamed']),
    );
    expect(Cards.parse(JSON.parse(await readFile(facts.cards, 'utf8'))).cards).toHaveLength(7);

    // It serves the round it built, like `involut serve`.
    const token = new URL(facts.url).hash.replace('#token=', '');
    const served = await fetch(new URL('/api/cards', facts.url), { headers: { 'X-Involut-Token': token } });
    expect(served.status).toBe(200);

    expect(demo.folders()).toEqual([facts.folder]);
    expect(await demo.stop()).toBe(0);
    expect(demo.stderr()).toBe('');
    expect(demo.folders()).toEqual([]);
  });

  it('prints the URL first, then what it built; --keep leaves the repository when it stops', async () => {
    const demo = await startDemo(['--keep'], (out) => out.includes('\n'));
    const [url] = demo.stdout().split('\n');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+$/);
    expect(await demo.stop()).toBe(0);
    expect(demo.stderr()).toContain('Involut demo: Dungeon Dash');
    expect(demo.stderr()).toMatch(/files\s+18: 8 added, 7 modified, 2 deleted, 1 renamed/);
    expect(demo.stderr()).toContain('stays when the server stops (--keep)');
    const [folder] = demo.folders();
    const repo = path.join(folder!, 'dungeon-dash');
    expect(demo.stderr()).toContain(`Kept the demo repository in ${repo}`);
    expect(existsSync(path.join(repo, '.review', 'cards.json'))).toBe(true);
    // `involut check` finds no error in the demo's cards, and only the two slips made on purpose.
    const check = await runCli(['check', '--json', '--repo', repo], { cwd: demo.tmp });
    expect(check.code).toBe(0);
    const report = JSON.parse(check.stdout) as { errors: number; findings: Array<{ code: string; card?: string }> };
    expect(report.errors).toBe(0);
    expect(report.findings.map((f) => [f.code, f.card ?? null])).toEqual([
      ['mark-unmatched', 'c_idle'],
      ['unclaimed', null],
    ]);
  });

  it('SIGTERM while it is still building serves nothing and still removes its folder', async () => {
    const tmp = await temporaryFolder('involut-demo-tmp-');
    const home = await temporaryFolder('involut-home-');
    const child = spawn(process.execPath, [cliPath, 'demo', '--no-open', '--port', '0'], {
      cwd: tmp,
      env: isolatedEnv(home, { TMPDIR: tmp }),
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const building = () => readdirSync(tmp).some((name) => name.startsWith('involut-demo-'));
    while (!building()) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(readdirSync(tmp).filter((name) => name.startsWith('involut-demo-'))).toEqual([]);
    // Either it stopped before serving, or the URL went out just as the signal came: then it stopped serving.
    expect(stdout === '' || /^http:\/\/127\.0\.0\.1:\d+\/#token=/.test(stdout)).toBe(true);
  });

  it('takes no --repo: it builds its own', async () => {
    const result = await runCli(['demo', '--repo', '.'], { cwd: await temporaryFolder() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--repo'");
  });
});
