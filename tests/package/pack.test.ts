import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Material } from '../../schemas/material';
import {
  assertBuilt,
  gitRepo,
  isolatedEnv,
  projectRoot,
  removeTemporaryFolders,
  temporaryFolder,
} from '../helpers/cli';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const big = { maxBuffer: 64 * 1024 * 1024 };

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

/** The npm packages named by the `import` statements and `import()` calls of the built JavaScript in `dir`. */
async function importedPackages(dir: string): Promise<Set<string>> {
  const names = new Set<string>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const code = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
    for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)"([^"./][^"]*)"/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return names;
}

describe('the published package', { timeout: 300_000 }, () => {
  it('ships the built CLI and none of the sources', async () => {
    const { stdout } = await run(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: projectRoot,
      ...big,
    });
    const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((f) => f.path);
    expect(files).toContain('dist/server/cli.js');
    expect(files).toContain('package.json');
    expect(files).toContain('schemas/json/material.schema.json');
    expect(files.filter((f) => /^(src|server|tests|node_modules|bench)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /^schemas\/[^/]+\.ts$/.test(f))).toEqual([]);
    // The demo's fixture, whole (its PNGs included), and no other fixture.
    for (const file of [
      'recipe.json',
      'cards.json',
      'base/assets/hero-sheet.png',
      'working/assets/hero-sheet.png',
      'committed/db/schema.sql',
    ]) {
      expect(files).toContain(`fixtures/demo-repo/${file}`);
    }
    expect(files.filter((f) => f.startsWith('fixtures/') && !f.startsWith('fixtures/demo-repo/'))).toEqual([]);
  });

  it('depends on exactly the packages its built CLI imports; bundled ones are not dependencies', async () => {
    const manifest = JSON.parse(await readFile(path.join(projectRoot, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = await importedPackages(path.join(projectRoot, 'dist', 'server'));
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
    for (const bundled of ['picomatch', 'image-size']) expect(manifest.dependencies).not.toHaveProperty(bundled);
  });

  describe('installed from its tarball', () => {
    let bin = '';
    let home = '';

    beforeAll(async () => {
      const packDir = await temporaryFolder('involut-pack-');
      const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
        cwd: projectRoot,
        ...big,
      });
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

    it('involut demo finds its fixtures inside the package, serves them, and cleans up on SIGTERM', async () => {
      const tmp = await temporaryFolder('involut-demo-tmp-');
      const child = spawn(bin, ['demo', '--json', '--no-open', '--port', '0'], {
        cwd: tmp,
        env: isolatedEnv(home, { TMPDIR: tmp }),
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stdout = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no JSON from the demo within 60 s: ${stdout}`)), 60_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (/^\}$/m.test(stdout)) {
            clearTimeout(timer);
            resolve();
          }
        });
        void exited.then(() => reject(new Error(`the demo exited before printing: ${stdout}`)));
      });
      const facts = JSON.parse(stdout) as { url: string; folder: string; cards: string };
      expect(facts).toMatchObject({
        files: 18,
        by_status: { added: 8, modified: 7, deleted: 2, renamed: 1 },
        cards_count: 7,
      });
      expect(existsSync(facts.cards)).toBe(true);
      // The built viewer ships too: the page the URL names is served.
      expect((await fetch(facts.url)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(facts.folder)).toBe(false);
    });
  });
});
