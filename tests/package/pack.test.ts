import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { Material } from '../../schemas/material';
import {
  assertBuilt,
  gitRepo,
  isolatedEnv,
  projectRoot,
  removeTemporaryFolders,
  temporaryFolder,
} from '../helpers/cli';
import { png } from '../helpers/git-repo';

const run = promisify(execFile);

/** `sh -c command`: the command exactly as written, as an agent's shell runs it. */
function runShell(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile('sh', ['-c', command], { ...options, ...big }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The first line a child prints on stdout (a server's URL). */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no line within 60 s: ${out}`)), 60_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!);
      }
    });
    child.once('exit', () => reject(new Error(`exited before printing: ${out}`)));
  });
}
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
    // A static import starts its line; a dynamic one is a call (not a JSDoc type such as {import("x").T}).
    const statics = code.matchAll(/^import\s(?:[^;"]*?\sfrom\s*)?"([^"./][^"]*)"/gm);
    const dynamics = code.matchAll(/(?<![\w.{$])import\(\s*"([^"./][^"]*)"\s*\)/g);
    for (const match of [...statics, ...dynamics]) {
      const specifier = match[1]!;
      if (specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  return names;
}

describe('the published package', { timeout: 300_000 }, () => {
  /** `npm pack`, once for the file: what the tarball holds, and where it is. */
  let pack: { filename: string; files: Array<{ path: string }> };
  let packDir = '';
  beforeAll(async () => {
    packDir = await temporaryFolder('involut-pack-');
    const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
      cwd: projectRoot,
      ...big,
    });
    [pack] = JSON.parse(stdout) as Array<typeof pack>;
  }, 240_000);

  it('ships the built CLI and none of the sources', () => {
    const files = pack.files.map((f) => f.path);
    expect(files).toContain('dist/server/cli.js');
    // The licences of what the two builds bundle ship beside them.
    expect(files).toContain('dist/server/licenses.md');
    expect(files).toContain('dist/web/licenses.md');
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
    for (const bundled of ['fastify', 'zod', 'chokidar', 'simple-git', 'picomatch'])
      expect(manifest.dependencies).not.toHaveProperty(bundled);
  });

  describe('installed globally from its tarball', () => {
    let bin = '';
    let home = '';
    /** The installed prefix's bin first on PATH, and no other involut: as on a user's machine after `npm i -g`. */
    let env: NodeJS.ProcessEnv = {};

    beforeAll(async () => {
      const tarball = path.join(packDir, pack.filename);
      expect(existsSync(tarball)).toBe(true);

      // `npm i -g` into a prefix of the test's own; the registry provides the runtime dependencies, as for a user.
      const prefix = await temporaryFolder('involut-prefix-');
      await run(npm, ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], big);
      bin = path.join(prefix, 'bin', 'involut');
      home = await temporaryFolder('involut-home-');
      const base = isolatedEnv(home);
      const others = (base.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes('involut-bin-'));
      env = { ...base, PATH: [path.join(prefix, 'bin'), ...others].join(path.delimiter) };
    }, 240_000);

    it('involut --help prints the usage', async () => {
      const { stdout, stderr } = await run(bin, ['--help'], { env });
      expect(stderr).toBe('');
      expect(stdout).toContain('Usage:');
      expect(stdout).toContain('involut rounds');
    });

    it('involut rounds captures a round into .review/material.json', async () => {
      const { dir } = await gitRepo();
      await writeFile(path.join(dir, 'added.txt'), 'added\n');
      const { stdout, stderr } = await run(bin, ['rounds'], { cwd: dir, env });
      expect(stderr).toBe('');
      expect(stdout).toContain('Involut round 1');
      const material = Material.parse(JSON.parse(await readFile(path.join(dir, '.review', 'material.json'), 'utf8')));
      expect(material.material.map((m) => [m.ref, m.status])).toEqual([['added.txt', 'added']]);
    });

    it('a two-round agent session runs every command the installed skill names, exactly as written', async () => {
      const { dir, git } = await gitRepo();
      const sh = (command: string) => runShell(command, { cwd: dir, env }).then((result) => ({ ...result, command }));
      const ran = new Set<string>();
      /** Runs a command the skill names, as a shell would, and fails the test on an unexpected exit. */
      const skillCommand = async (command: string, exit = 0) => {
        const result = await sh(command);
        expect(result.code, `${command}\n${result.stderr}`).toBe(exit);
        ran.add(command);
        return result;
      };

      expect((await sh('involut skill --install')).code).toBe(0);
      const skill = await readFile(path.join(dir, '.claude', 'skills', 'involut', 'SKILL.md'), 'utf8');
      const named = new Set([...skill.matchAll(/`(involut [^`]*)`/g)].map((m) => m[1]!));
      expect([...named].sort()).toEqual([
        'involut check',
        'involut notes',
        'involut notes --wait',
        'involut prune',
        'involut rounds',
        'involut rounds && involut check',
        'involut rounds --begin',
        'involut skill --install --hooks',
      ]);
      const schema = /"\$schema": "([^"]+)"/.exec(skill)![1]!;
      expect(existsSync(schema)).toBe(true);
      // The Stop hook the skill describes, with the command it says the hook runs.
      await skillCommand('involut skill --install --hooks');
      const settings = JSON.parse(await readFile(path.join(dir, '.claude', 'settings.json'), 'utf8')) as {
        hooks: { Stop: Array<{ hooks: Array<{ command: string }> }> };
      };
      expect(settings.hooks.Stop[0]!.hooks[0]!.command).toBe('involut rounds && involut check');
      git('add', '-A');
      git('commit', '--quiet', '-m', 'teach the agents Involut');

      // Round 1: begin, the work, the capture.
      await skillCommand('involut rounds --begin');
      expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
      await mkdir(path.join(dir, 'src'));
      await writeFile(path.join(dir, 'src', 'limit.ts'), 'export const LIMIT = 30;\n');
      await writeFile(path.join(dir, 'sheet.png'), png(32, 32));
      git('add', 'src/limit.ts');
      await writeFile(path.join(dir, 'README.md'), '# test\n\nThe limit is thirty.\n');
      await skillCommand('involut rounds');
      await skillCommand('involut prune');

      // What the viewer would report, check reports in the viewer's words.
      const base = { intent: 'behavior', minutes: 1, refs: ['src/limit.ts'] };
      const writeCards = (cards: unknown[]) =>
        writeFile(path.join(dir, '.review', 'cards.json'), JSON.stringify({ $schema: schema, contract: 1, cards }));
      await writeCards([
        { ...base, id: 'q', title: 'q', question: { when: 'after', text: 'What breaks?' } },
        {
          ...base,
          id: 'g',
          title: 'g',
          render: 'graph',
          payload: { graph: { nodes: [{ id: 'a' }, { id: 'a' }], edges: [{ from: 'a', to: 'z' }] } },
        },
        {
          ...base,
          id: 't',
          title: 't',
          render: 'table',
          payload: { table: { columns: ['k', 'v'], rows: [['only']] } },
        },
        {
          ...base,
          id: 'i',
          title: 'i',
          refs: ['sheet.png'],
          render: 'image',
          payload: { frames: [{ name: 'off', x: 40, y: 0, w: 8, h: 8 }] },
        },
      ]);
      const flagged = JSON.parse((await sh('involut check --json')).stdout) as {
        findings: Array<{ code: string; message: string }>;
      };
      expect(flagged.findings.map((f) => [f.code, f.message])).toEqual(
        expect.arrayContaining([
          [
            'no-answer',
            'The question has no `answer`, so after the reader answers, “The agent’s answer” says “not stated”.',
          ],
          ['graph-dangling', '1 edge names a node that is not in the graph, so it is not drawn: a → z.'],
          [
            'graph-duplicate',
            "1 node id appears more than once: a (2 times); each is drawn once, with the first one's label and state.",
          ],
          ['table-ragged', 'One row does not have 2 cells, one per column: row 1 has 1 (1 missing, marked “no cell”).'],
          [
            'frames-outside',
            'sheet.png: 1 frame lies outside the image and could not be compared: off (x 40, y 0, 8×8) is outside the after image (32×32).',
          ],
        ]),
      );

      const first = {
        ...base,
        id: 'c_1',
        title: 'The limit is thirty',
        refs: ['src/limit.ts', 'README.md', 'sheet.png'],
        marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 30', text: 'The whole change.' }],
        question: { when: 'before', text: 'What is the limit?', options: ['30', '40'], answer: '30' },
      };
      await writeCards([first]);
      expect((await skillCommand('involut check')).stdout).toBe('cards.json is clean\n');

      // The reader leaves a note through the installed viewer server.
      const server = spawn(bin, ['--no-open', '--port', '0'], { cwd: dir, env });
      try {
        const url = await firstLine(server);
        const origin = new URL(url).origin;
        const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
        const put = await fetch(`${origin}/api/notes/c_1`, {
          method: 'PUT',
          headers: { 'x-involut-token': token, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'Make it forty.', title: first.title, refs: first.refs, seen: null }),
        });
        expect(put.status).toBe(200);
        // The reader hands over: the agent's wait returns at once with the note.
        const handOver = await fetch(`${origin}/api/handover`, {
          method: 'POST',
          headers: { 'x-involut-token': token, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ open: 1 }),
        });
        expect(handOver.status).toBe(200);
        expect((await skillCommand('involut notes --wait')).stdout).toContain('Make it forty.');
      } finally {
        server.kill('SIGTERM');
      }
      expect((await skillCommand('involut notes')).stdout).toContain('Make it forty.');

      // Round 2: the agent addresses the note, captures again, and adds a card; the first stays as it was.
      await writeFile(path.join(dir, 'src', 'limit.ts'), 'export const LIMIT = 40;\n');
      await skillCommand('involut rounds');
      expect(await readFile(path.join(dir, '.review', 'rounds', '1', 'cards.json'), 'utf8')).toContain('"c_1"');
      const second = {
        ...base,
        id: 'c_2',
        title: 'The limit is forty',
        marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 40', text: 'As asked.' }],
        addresses: ['c_1'],
        continues: 'c_1',
      };
      await writeCards([first, second]);
      // c_1's mark no longer matches: information about an earlier card, not something to fix.
      const strict = await skillCommand('involut check --strict');
      expect(strict.stdout).toMatch(/^info c_1: The mark at "LIMIT = 30" matches no line/m);
      expect(strict.stdout).not.toContain('fix:');
      expect((await skillCommand('involut notes')).stdout).not.toContain('Make it forty.');
      // What the Stop hook runs when the agent stops: the round again, and its cards checked.
      const stopHook = (await skillCommand('involut rounds && involut check')).stdout;
      expect(stopHook).toMatch(/^Involut round 3 of /);
      expect(stopHook).toContain('cards.json is clean');
      for (const command of named) expect(ran, command).toContain(command);
      expect(git('status', '--porcelain', '--untracked-files=all')).not.toContain('.review');
    });

    it('involut demo finds its fixtures inside the package, serves them, and cleans up on SIGTERM', async () => {
      const tmp = await temporaryFolder('involut-demo-tmp-');
      const child = spawn(bin, ['demo', '--json', '--no-open', '--port', '0'], {
        cwd: tmp,
        env: { ...env, TMPDIR: tmp },
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
