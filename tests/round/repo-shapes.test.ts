import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, emit, entryOf, makeRepo, readMaterial, refs, repoAt, runCli, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

describe('a clean repository', () => {
  it('writes a valid material with an empty list', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    const { material, summary } = await emit(repo.dir);
    expect(material.material).toEqual([]);
    expect(summary.files).toBe(0);
  });
});

describe('a repository in a folder whose name is not ASCII', () => {
  it("records the round's tree, the one pinned under its ref", async () => {
    const repo = makeRepo({ dir: tempDir('involut-ünïcödé 漢字-') });
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    repo.write('a.txt', 'changed\n');
    const { material, summary } = await emit(repo.dir);
    expect(material.source.root).toContain('ünïcödé 漢字');
    expect(material.source.tree).toBe(repo.rev('refs/involut/rounds/1'));
    expect(material.source.tree).toBe(summary.tree);
  });
});

describe('a repository with no commits', () => {
  it('everything is added, against the empty tree, and base_reason says there are no commits', async () => {
    const repo = makeRepo();
    repo.write('staged.txt', 'staged\n');
    repo.git(['add', 'staged.txt']);
    repo.write('src/untracked.ts', 'export {};\n');
    repo.write('empty.txt', '');
    const { material } = await emit(repo.dir);
    expect(refs(material)).toEqual(['empty.txt', 'src/untracked.ts', 'staged.txt']);
    expect(material.material.map((e) => [e.status, e.commits])).toEqual(material.material.map(() => ['added', []]));
    expect(material.source.head).toBeNull();
    expect(material.source.base).toBe(repo.git(['hash-object', '-t', 'tree', '/dev/null']).trim());
    expect(material.source.base_reason).toMatch(/no commits/);
    expect(material.source.id).toBe(`${path.basename(repo.dir)}@no-commits`);
    expect(entryOf(material, 'staged.txt').diff).toBe('@@ -0,0 +1 @@\n+staged\n');
    // The user's index still holds only what they staged.
    expect(repo.git(['ls-files'])).toBe('staged.txt\n');
  });
});

describe('detached HEAD', () => {
  it('compares against the merge-base with main and lists the detached commits', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const fork = repo.commit('initial');
    repo.git(['switch', '--quiet', '-c', 'topic']);
    repo.write('b.txt', 'b\n');
    const tip = repo.commit('topic: add b');
    repo.git(['switch', '--quiet', '--detach', tip]);
    repo.git(['branch', '--quiet', '-D', 'topic']);
    repo.write('a.txt', 'a, edited while detached\n');
    const { material } = await emit(repo.dir);
    expect(material.source).toMatchObject({ base: fork, head: tip });
    expect(material.source.base_reason).toContain('detached HEAD');
    expect(refs(material)).toEqual(['a.txt', 'b.txt']);
    expect(entryOf(material, 'b.txt').commits).toEqual(['topic: add b']);
  });
});

describe('run from a subfolder', () => {
  const setUp = () => {
    const repo = makeRepo();
    repo.write('top.txt', 'top\n');
    repo.write('pkg/inner/file.txt', 'inner\n');
    repo.commit('initial');
    repo.write('top.txt', 'top changed\n');
    repo.write('pkg/inner/file.txt', 'inner changed\n');
    repo.write('other/new.txt', 'new\n');
    return repo;
  };
  const expected = ['other/new.txt', 'pkg/inner/file.txt', 'top.txt'];

  it('in-process with a subfolder: the material covers the whole repository, at the top level', async () => {
    const repo = setUp();
    const { material, summary } = await emit(repo.path('pkg/inner'));
    expect(refs(material)).toEqual(expected);
    expect(material.source.root).toBe(repo.dir);
    expect(summary.materialFile).toBe(repo.path('.review/material.json'));
    expect(existsSync(repo.path('pkg/inner/.review'))).toBe(false);
  });

  it('built CLI with cwd in a subfolder, and with --repo pointing at a subfolder', async () => {
    const repo = setUp();
    const fromCwd = await runCli(['rounds', '--quiet'], repo.path('pkg/inner'));
    expect(fromCwd.code, fromCwd.stderr).toBe(0);
    expect(fromCwd.stdout).toBe('');
    expect(refs(readMaterial(repo.dir))).toEqual(expected);
    expect(existsSync(repo.path('pkg/inner/.review'))).toBe(false);

    const fromFlag = await runCli(['rounds', '--repo', repo.path('pkg'), '--json'], tempDir());
    expect(fromFlag.code, fromFlag.stderr).toBe(0);
    expect(JSON.parse(fromFlag.stdout)).toMatchObject({
      round: 2,
      files: 3,
      material: repo.path('.review/material.json'),
    });
    expect(refs(readMaterial(repo.dir))).toEqual(expected);
  });
});

describe('a linked worktree', () => {
  it(".review/ goes in the worktree, the material is the worktree's, info/exclude gets /.review/", async () => {
    const main = makeRepo();
    main.write('shared.txt', 'shared\n');
    main.commit('initial');
    main.write('main-only.txt', 'uncommitted in the main worktree\n');
    const wtDir = path.join(tempDir(), 'wt');
    main.git(['worktree', 'add', '--quiet', '-b', 'wt-branch', wtDir]);
    const wt = repoAt(realpathSync(wtDir));
    wt.write('shared.txt', 'changed in the worktree\n');
    wt.write('wt-new.txt', 'new in the worktree\n');

    const first = await emit(main.dir);
    expect(refs(first.material)).toEqual(['main-only.txt']);
    const { material } = await emit(wt.dir);
    expect(refs(material)).toEqual(['shared.txt', 'wt-new.txt']);
    // Worktrees share refs: the worktree's round takes the next number and leaves round 1 pinned.
    expect(material.source.round).toBe(2);
    expect(main.rev('refs/involut/rounds/1')).toBe(first.material.source.tree);
    expect(main.rev('refs/involut/rounds/2')).toBe(material.source.tree);
    expect(material.source.root).toBe(wt.dir);
    expect(existsSync(wt.path('.review/material.json'))).toBe(true);
    expect(refs(readMaterial(main.dir))).toEqual(['main-only.txt']);
    const exclude = readFileSync(
      main.git(['rev-parse', '--path-format=absolute', '--git-path', 'info/exclude'], wt.dir).trim(),
      'utf8',
    );
    expect(exclude.split('\n')).toContain('/.review/');
    // The worktree's own status does not show .review/ as untracked.
    expect(wt.git(['status', '--porcelain', '--untracked-files=all'])).not.toContain('.review');
    // Its index and the main worktree's index are untouched.
    expect(wt.git(['diff', '--cached', '--name-only'])).toBe('');
    expect(main.git(['status', '--porcelain'])).toBe('?? main-only.txt\n');
  });
});
