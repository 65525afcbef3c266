import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { cleanup, entryOf, makeRepo, readMaterial, refs, runCli, tempDir, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

/** Planted in every withheld file; it must reach no git object and no file under .review/. */
const TOKEN = 'tok-9f3e2a71c4b8-never-in-git';
/** Planted in a file that is not withheld: proves the object scan sees what a round captures. */
const VISIBLE = 'visible-5d1c0e-captured';

/** Every object of a repository, loose and packed, decompressed, as one buffer. */
function allObjects(gitDir: string): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch'], {
    maxBuffer: 1 << 30,
  });
}

/** The files under a folder whose bytes hold the token. */
function filesHolding(dir: string, token: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name))
    .filter((file) => readFileSync(file).includes(token));
}

function expectWithheldListed(material: Material, statuses: Record<string, string>): void {
  for (const [ref, status] of Object.entries(statuses)) {
    const entry = entryOf(material, ref);
    expect(entry, ref).toMatchObject({ status, diff: null, additions: null, deletions: null });
    expect(entry.withheld?.reason, ref).toMatch(/privacy exclude/);
  }
}

describe('privacy holds in git: withheld working copies never enter the object store', () => {
  let repo: TempRepo;
  let bare: string;
  const materials: Material[] = [];

  beforeAll(async () => {
    repo = makeRepo();
    repo.write('app.txt', 'app\n');
    repo.write('secrets.key', 'placeholder key, committed\n');
    repo.commit('initial');
    // A secret in an untracked .env, an untracked key in a folder, and an edit of a tracked key.
    repo.write('.env', `API_TOKEN=${TOKEN}\n`);
    repo.write('config/server.pem', `-----BEGIN PRIVATE KEY-----\n${TOKEN}\n-----END PRIVATE KEY-----\n`);
    repo.write('secrets.key', `placeholder key, committed\n${TOKEN}\n`);
    for (const args of [['rounds', '--begin'], ['rounds']]) {
      const run = await runCli(args, repo.dir);
      expect(run.code, run.stderr).toBe(0);
    }
    materials.push(readMaterial(repo.dir));
    // The next round: the visible file and the secrets change again.
    repo.write('app.txt', `app\n${VISIBLE}\n`);
    repo.write('.env', `API_TOKEN=${TOKEN}\nMORE=${TOKEN}2\n`);
    repo.write('secrets.key', `placeholder key, committed\n${TOKEN}3\n`);
    const since = await runCli(['rounds', '--since-last'], repo.dir);
    expect(since.code, since.stderr).toBe(0);
    materials.push(readMaterial(repo.dir));
    bare = tempDir('involut-bare-');
    execFileSync('git', ['init', '--quiet', '--bare', bare]);
    repo.git(['push', '--quiet', '--mirror', bare]);
  });

  it('pushed every round ref to the bare repository', () => {
    const pushed = execFileSync('git', ['--git-dir', bare, 'for-each-ref', '--format=%(refname)', 'refs/involut/'])
      .toString()
      .split('\n')
      .filter(Boolean);
    expect(pushed).toEqual(expect.arrayContaining(['refs/involut/rounds/1', 'refs/involut/rounds/2']));
  });

  it('no object of the repository or of its mirror holds the token', () => {
    for (const gitDir of [repo.path('.git'), bare]) {
      const objects = allObjects(gitDir);
      expect(objects.includes(VISIBLE), `${gitDir} holds the captured visible file`).toBe(true);
      expect(objects.includes(TOKEN), `${gitDir} holds the token`).toBe(false);
    }
  });

  it('nothing under .review/ holds the token', () => {
    expect(filesHolding(repo.path('.review'), TOKEN)).toEqual([]);
    expect(filesHolding(repo.path('.review'), VISIBLE).length).toBeGreaterThan(0);
  });

  it('the plain round lists the three withheld files with their status and reason', () => {
    const [plain] = materials;
    expectWithheldListed(plain!, { '.env': 'added', 'config/server.pem': 'added', 'secrets.key': 'modified' });
    expect(entryOf(plain!, '.env').provenance).toEqual(['untracked']);
    expect(entryOf(plain!, 'secrets.key').provenance).toEqual(['unstaged']);
  });

  it('the --since-last round still lists them', () => {
    expectWithheldListed(materials[1]!, {
      '.env': 'added',
      'config/server.pem': 'added',
      'secrets.key': 'modified',
    });
  });

  it('the pinned trees hold only what git already held for a withheld path', () => {
    const tree = materials[1]!.source.tree!;
    const listed = repo.git(['ls-tree', '-r', '--name-only', tree]).split('\n');
    expect(listed).not.toContain('.env');
    expect(listed).not.toContain('config/server.pem');
    expect(repo.git(['rev-parse', `${tree}:secrets.key`])).toBe(repo.git(['rev-parse', 'HEAD:secrets.key']));
  });
});

describe('the rules that keep withheld files out of git add leave everything else as git sees it', () => {
  it('a .gitignore that takes a withheld name back in (!.env.example) does not let its content into git', async () => {
    const repo = makeRepo();
    repo.write('.gitignore', '.env*\n!.env.example\n');
    repo.write('app.txt', 'app\n');
    repo.commit('initial');
    repo.write('.env.example', `EXAMPLE_TOKEN=${TOKEN}\n`);
    repo.write('app.txt', `app\n${VISIBLE}\n`);
    const run = await runCli(['rounds'], repo.dir);
    expect(run.code, run.stderr).toBe(0);
    expectWithheldListed(readMaterial(repo.dir), { '.env.example': 'added' });
    const objects = allObjects(repo.path('.git'));
    expect(objects.includes(VISIBLE)).toBe(true);
    expect(objects.includes(TOKEN)).toBe(false);
  });

  it('so does one in a .gitignore git does not track yet (a new folder of the round)', async () => {
    const repo = makeRepo();
    repo.write('app.txt', 'app\n');
    repo.commit('initial');
    repo.write('service/.gitignore', '.env*\n!.env.local\n');
    repo.write('service/.env.local', `LOCAL_TOKEN=${TOKEN}\n`);
    repo.write('app.txt', `app\n${VISIBLE}\n`);
    const run = await runCli(['rounds'], repo.dir);
    expect(run.code, run.stderr).toBe(0);
    expectWithheldListed(readMaterial(repo.dir), { 'service/.env.local': 'added' });
    const objects = allObjects(repo.path('.git'));
    expect(objects.includes(VISIBLE)).toBe(true);
    expect(objects.includes(TOKEN)).toBe(false);
  });

  it('a folder named like a withheld file is captured, and the user’s own ignore files still apply', async () => {
    const repo = makeRepo();
    repo.write('app.txt', 'app\n');
    repo.commit('initial');
    // ~/.config/git/ignore (XDG_CONFIG_HOME is this test's own) and a repository's core.excludesFile.
    const userIgnore = path.join(process.env.XDG_CONFIG_HOME!, 'git', 'ignore');
    mkdirSync(path.dirname(userIgnore), { recursive: true });
    writeFileSync(userIgnore, '*.scratch\n');
    try {
      repo.write('.envs/settings.txt', `${VISIBLE}\n`);
      repo.write('notes.scratch', 'ignored by the user\n');
      repo.write('server.pem', `${TOKEN}\n`);
      const first = await runCli(['rounds'], repo.dir);
      expect(first.code, first.stderr).toBe(0);
      const material = readMaterial(repo.dir);
      expect(refs(material)).toContain('.envs/settings.txt');
      expect(entryOf(material, '.envs/settings.txt').withheld ?? null).toBeNull();
      expect(refs(material)).not.toContain('notes.scratch');
      expectWithheldListed(material, { 'server.pem': 'added' });

      const own = path.join(repo.dir, '..', `${path.basename(repo.dir)}-ignore`);
      writeFileSync(own, 'debug.log\n');
      repo.git(['config', 'core.excludesFile', own]);
      repo.write('debug.log', 'ignored by core.excludesFile\n');
      const second = await runCli(['rounds'], repo.dir);
      expect(second.code, second.stderr).toBe(0);
      const next = readMaterial(repo.dir);
      expect(refs(next)).not.toContain('debug.log');
      // core.excludesFile replaces the XDG file, as in git.
      expect(refs(next)).toContain('notes.scratch');
      expect(allObjects(repo.path('.git')).includes(TOKEN)).toBe(false);
    } finally {
      rmSync(userIgnore, { force: true });
    }
  });
});
