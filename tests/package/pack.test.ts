import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Material } from '../../schemas/material';
import { assertBuilt, gitRepo, isolatedEnv, projectRoot, removeTemporaryFolders, temporaryFolder } from '../helpers/cli';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const big = { maxBuffer: 64 * 1024 * 1024 };

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

describe('the published package', { timeout: 300_000 }, () => {
  it('ships the built CLI and none of the sources', async () => {
    const { stdout } = await run(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: projectRoot, ...big });
    const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((f) => f.path);
    expect(files).toContain('dist/server/cli.js');
    expect(files).toContain('package.json');
    expect(files).toContain('schemas/json/material.schema.json');
    expect(files.filter((f) => /^(src|server|tests|node_modules|bench)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /^schemas\/[^/]+\.ts$/.test(f))).toEqual([]);
  });

  describe('installed from its tarball', () => {
    let bin = '';
    let home = '';

    beforeAll(async () => {
      const packDir = await temporaryFolder('involut-pack-');
      const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: projectRoot, ...big });
      const [pack] = JSON.parse(stdout) as Array<{ filename: string }>;
      const tarball = path.join(packDir, pack!.filename);
      expect(existsSync(tarball)).toBe(true);

      const installDir = await temporaryFolder('involut-install-');
      await writeFile(path.join(installDir, 'package.json'), '{ "name": "involut-pack-test", "private": true }\n');
      // The registry provides the runtime dependencies, as it would for a user.
      await run(npm, ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: installDir, ...big });
      bin = path.join(installDir, 'node_modules', '.bin', 'involut');
      home = await temporaryFolder('involut-home-');
    }, 240_000);

    it('involut --help prints the usage', async () => {
      const { stdout, stderr } = await run(bin, ['--help'], { env: isolatedEnv(home) });
      expect(stderr).toBe('');
      expect(stdout).toContain('Usage:');
      expect(stdout).toContain('involut rounds');
    });

    it('involut rounds captures a round into .review/material.json', async () => {
      const { dir } = await gitRepo();
      await writeFile(path.join(dir, 'added.txt'), 'added\n');
      const { stdout, stderr } = await run(bin, ['rounds'], { cwd: dir, env: isolatedEnv(home) });
      expect(stderr).toBe('');
      expect(stdout).toContain('Involut round 1');
      const material = Material.parse(JSON.parse(await readFile(path.join(dir, '.review', 'material.json'), 'utf8')));
      expect(material.material.map((m) => [m.ref, m.status])).toEqual([['added.txt', 'added']]);
    });

    it('involut demo finds its fixtures inside the package', async () => {
      const tmp = await temporaryFolder('involut-demo-tmp-');
      const { stdout } = await run(bin, ['demo', '--json'], { cwd: tmp, env: isolatedEnv(home, { TMPDIR: tmp }) });
      expect(JSON.parse(stdout)).toMatchObject({ files: 4, by_status: { added: 1, modified: 1, deleted: 1, renamed: 1 } });
    });
  });
});
