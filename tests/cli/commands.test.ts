import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { Material } from '../../schemas/material';
import { assertBuilt, gitRepo, isolatedEnv, removeTemporaryFolders, runCli, temporaryFolder } from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

describe('help and version', () => {
  it.each([['--help'], ['-h'], ['help'], ['rounds', '--help'], ['rounds', '-h'], ['demo', '--help']])(
    'involut %s prints the usage and exits 0',
    async (...args: string[]) => {
      const result = await runCli(args, { cwd: await temporaryFolder() });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^involut \S+: /);
      expect(result.stdout).toContain('Usage:');
      expect(result.stdout).toContain('involut rounds');
      expect(result.stdout).toContain('--since-last');
    },
  );

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
    expect(Material.safeParse(JSON.parse(await readFile(path.join(dir, '.review', 'material.json'), 'utf8'))).success).toBe(true);
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
  it('--json builds a repository and reports one file of each status', async () => {
    // The demo repository goes into TMPDIR; point it at a folder this test removes.
    const tmp = await temporaryFolder('involut-demo-tmp-');
    const home = await temporaryFolder('involut-home-');
    const result = await runCli(['demo', '--json'], { cwd: tmp, env: isolatedEnv(home, { TMPDIR: tmp }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const summary = JSON.parse(result.stdout) as { repo: string; material: string; files: number; by_status: object };
    expect(summary.repo.startsWith(tmp)).toBe(true);
    expect(summary.files).toBe(4);
    expect(summary.by_status).toEqual({ added: 1, modified: 1, deleted: 1, renamed: 1 });
    expect(existsSync(summary.material)).toBe(true);
    const material = Material.parse(JSON.parse(await readFile(summary.material, 'utf8')));
    expect(material.material.map((m) => m.status).sort()).toEqual(['added', 'deleted', 'modified', 'renamed']);
  });
});
