import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import {
  cleanup,
  diffBytes,
  emit,
  entryOf,
  gitHunks,
  gitNumstat,
  lines,
  makeRepo,
  refs,
  type TempRepo,
} from '../helpers/git-repo';

/**
 * One repository on main holding every kind of change at once, captured once:
 * the base is HEAD, so everything below is working state (staged, unstaged, untracked).
 */
let repo: TempRepo;
let material: Material;
let base: string;
let tree: string;

beforeAll(async () => {
  repo = makeRepo();
  repo.write('.gitignore', '*.log\nbuild/\n');
  repo.write('modified.txt', lines(10));
  repo.write('deleted.txt', lines(5, 'doomed'));
  repo.write('pure-rename.txt', lines(20, 'moving'));
  repo.write('src/rename-edit.ts', lines(30, 'export const value ='));
  repo.write('staged-only.txt', lines(6, 'staged'));
  repo.write('unstaged.txt', lines(6, 'unstaged'));
  repo.write('staged-then-edited.txt', lines(6, 'both'));
  base = repo.commit('initial');

  repo.write('modified.txt', lines(10).replace('line 5\n', 'line five\nline 5.5\n'));
  repo.remove('deleted.txt');
  repo.move('pure-rename.txt', 'docs/pure-rename.txt');
  // An unstaged move plus an edit: git finds the rename only in the captured tree.
  repo.remove('src/rename-edit.ts');
  repo.write('lib/renamed.ts', lines(30, 'export const value =').replace('value = 12\n', 'value = twelve\n'));
  repo.write('staged-only.txt', lines(6, 'staged').replace('staged 2\n', 'STAGED 2\n'));
  repo.git(['add', 'staged-only.txt']);
  repo.write('unstaged.txt', lines(6, 'unstaged') + 'one more\n');
  repo.write('staged-then-edited.txt', lines(6, 'both').replace('both 1\n', 'first\n'));
  repo.git(['add', 'staged-then-edited.txt']);
  repo.write('staged-then-edited.txt', lines(6, 'both').replace('both 1\n', 'first\n').replace('both 6\n', 'last\n'));
  repo.write('added-staged.txt', 'new and staged\n');
  repo.git(['add', 'added-staged.txt']);
  repo.write('notes/untracked.md', '# untracked\n\nnot ignored, so captured\n');
  repo.write('debug.log', 'ignored by *.log\n');
  repo.write('build/out.js', 'ignored by build/\n');

  ({ material } = await emit(repo.dir));
  tree = material.source.tree!;
});

afterAll(cleanup);

describe('every status', () => {
  it('lists exactly the changed files, and never an ignored one', () => {
    expect(refs(material)).toEqual(
      [
        'added-staged.txt',
        'deleted.txt',
        'docs/pure-rename.txt',
        'lib/renamed.ts',
        'modified.txt',
        'notes/untracked.md',
        'staged-only.txt',
        'staged-then-edited.txt',
        'unstaged.txt',
      ].sort(),
    );
    expect(material.material.some((e) => e.ref.endsWith('.log') || e.ref.startsWith('build/'))).toBe(false);
  });

  it('source says git, compared against HEAD, with a captured tree and round 1', () => {
    expect(material.contract).toBe(1);
    expect(material.source).toMatchObject({ kind: 'git', request: null, base, head: base, round: 1 });
    expect(material.source.id).toBe(`${repo.dir.split('/').pop()}@${base.slice(0, 7)}`);
    expect(material.source.root).toBe(repo.dir);
    expect(material.source.base_reason).toContain('HEAD');
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    // Milliseconds: a note written in the same second before the round must read as older than it.
    expect(material.generated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}([+-]\d\d:\d\d|Z)$/);
  });

  it('modified: status, a hunk with the edit, counts and the after blob hash', () => {
    const e = entryOf(material, 'modified.txt');
    expect(e).toMatchObject({ status: 'modified', binary: false, additions: 2, deletions: 1, commits: [] });
    expect(e.diff).toContain('-line 5\n+line five\n+line 5.5\n');
    expect(e.diff!.startsWith('@@ -2,7 +2,8 @@')).toBe(true);
    const blob = repo.git(['rev-parse', `${tree}:modified.txt`]).trim();
    expect(e.hash).toBe(blob.slice(0, e.hash.length));
    expect(e.hash.length).toBeGreaterThanOrEqual(6);
    expect(e.bytes).toBe(repo.read('modified.txt').length);
  });

  it('deleted: every line removed, hash and bytes of the before content', () => {
    const e = entryOf(material, 'deleted.txt');
    expect(e).toMatchObject({ status: 'deleted', binary: false, additions: 0, deletions: 5 });
    expect(e.diff).toBe(`@@ -1,5 +0,0 @@\n${lines(5, 'doomed').replace(/^/gm, '-')}`.replace(/-$/, ''));
    const blob = repo.git(['rev-parse', `${base}:deleted.txt`]).trim();
    expect(blob.startsWith(e.hash)).toBe(true);
    expect(e.bytes).toBe(lines(5, 'doomed').length);
  });

  it('added (staged new file): status added, every line added', () => {
    const e = entryOf(material, 'added-staged.txt');
    expect(e).toMatchObject({
      status: 'added',
      binary: false,
      diff: '@@ -0,0 +1 @@\n+new and staged\n',
      additions: 1,
      deletions: 0,
    });
    expect(e.from).toBeUndefined();
  });

  it('untracked, non-ignored file: added with its whole content', () => {
    const e = entryOf(material, 'notes/untracked.md');
    expect(e).toMatchObject({ status: 'added', additions: 3, deletions: 0 });
    expect(e.diff).toBe('@@ -0,0 +1,3 @@\n+# untracked\n+\n+not ignored, so captured\n');
  });

  it('pure rename (git mv): status renamed, from, and no hunk', () => {
    const e = entryOf(material, 'docs/pure-rename.txt');
    expect(e).toMatchObject({ status: 'renamed', from: 'pure-rename.txt', diff: '', additions: 0, deletions: 0 });
    expect(e.similarity).toBe(100);
  });

  it('rename plus edit (unstaged mv): status renamed, from, and the diff shows the edit', () => {
    const e = entryOf(material, 'lib/renamed.ts');
    expect(e).toMatchObject({ status: 'renamed', from: 'src/rename-edit.ts', additions: 1, deletions: 1 });
    // git's own measure (-M), between its 50 % threshold and an exact copy.
    expect(e.similarity).toBeGreaterThanOrEqual(50);
    expect(e.similarity).toBeLessThan(100);
    expect(e.diff).toContain('-export const value = 12\n+export const value = twelve\n');
    expect(material.material.some((x) => x.ref === 'src/rename-edit.ts')).toBe(false);
  });

  it('staged-only change: in the material', () => {
    const e = entryOf(material, 'staged-only.txt');
    expect(e).toMatchObject({ status: 'modified', additions: 1, deletions: 1 });
    expect(e.diff).toContain('-staged 2\n+STAGED 2\n');
  });

  it('unstaged change: in the material', () => {
    const e = entryOf(material, 'unstaged.txt');
    expect(e).toMatchObject({ status: 'modified', additions: 1, deletions: 0 });
    expect(e.diff).toContain('+one more\n');
  });

  it('staged then edited again: the working file wins, both edits show', () => {
    const e = entryOf(material, 'staged-then-edited.txt');
    expect(e.diff).toContain('-both 1\n+first\n');
    expect(e.diff).toContain('-both 6\n+last\n');
  });

  it("every text diff equals git's own hunks byte for byte, and counts equal --numstat", () => {
    for (const e of material.material) {
      expect(diffBytes(e).equals(gitHunks(repo, base, tree, e)), e.ref).toBe(true);
      expect({ additions: e.additions, deletions: e.deletions }, e.ref).toEqual(gitNumstat(repo, base, tree, e));
    }
  });
});
