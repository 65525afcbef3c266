/**
 * The capture's `git add` is cut in two (server/git/capture.ts addInTwo): two gits stage
 * two halves of the working tree into two copies of the index, which are then put
 * together. The tree must be the one a single `git add --all` gives, whatever the shape
 * of the round.
 */
import { readFileSync, statSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { addSettings, captureTree } from '../../server/git/capture';
import { openRepo } from '../../server/git/repo';
import { planAddSplit } from '../../server/git/split-add';
import { binaryBytes, cleanup, configureIdentity, lines, makeRepo, repoAt, sha256, tempDir, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);
const defaults = { ...addSettings };
afterEach(() => Object.assign(addSettings, { fromBytes: defaults.fromBytes, maxSubtrees: defaults.maxSubtrees }));

/** The tree of a capture with one git, then with two, checking the second was split and the real index left alone. */
async function bothWays(repo: TempRepo, expectSplit = true): Promise<{ one: string; two: string }> {
  const index = () => ({ bytes: sha256(readFileSync(repo.path('.git/index'))), mtime: statSync(repo.path('.git/index')).mtimeMs });
  const before = index();
  addSettings.fromBytes = Number.POSITIVE_INFINITY;
  const one = await captureTree(await openRepo(repo.dir));
  addSettings.fromBytes = 0;
  const splits = addSettings.splits;
  const two = await captureTree(await openRepo(repo.dir));
  expect(addSettings.splits - splits, 'captures split in two').toBe(expectSplit ? 1 : 0);
  expect(index()).toEqual(before);
  return { one, two };
}

/** Every path of a tree with its mode and id. */
const listing = (repo: TempRepo, tree: string) => repo.git(['ls-tree', '-r', '-z', '--full-tree', tree]).split('\0').sort();

describe('a capture staged by two gits', () => {
  it('gives the tree of one git add --all, whatever changed', async () => {
    const upstream = makeRepo({ dir: tempDir('involut-sub-') });
    upstream.write('lib.txt', 'version 1\n');
    upstream.commit('sub: one');

    const repo = makeRepo();
    repo.write('.gitignore', 'ignored/\nbuild/\n');
    for (let d = 0; d < 6; d++) for (let f = 0; f < 8; f++) repo.write(`dir ${d}/file ${f}.txt`, lines(20 + f, `d${d}`));
    repo.write('becomes-dir', 'a file that becomes a folder\n');
    repo.write('becomes-file/inner.txt', 'a folder that becomes a file\n');
    repo.write('gone/a.txt', 'a whole folder deleted\n');
    repo.write('gone/b.txt', 'b\n');
    repo.write('run.sh', '#!/bin/sh\n');
    repo.write('data.bin', binaryBytes(5000, 3));
    repo.write('odd/with space [x]*.txt', 'odd\n');
    repo.write('odd/new\nline.txt', 'odd\n');
    repo.symlink('dir 0/file 0.txt', 'link');
    repo.git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', upstream.dir, 'vendor/sub']);
    repo.write('build/kept.txt', 'tracked inside an ignored folder\n');
    repo.git(['add', '--force', 'build/kept.txt']);
    repo.commit('base');

    for (let d = 0; d < 6; d++) repo.write(`dir ${d}/file 3.txt`, lines(30, `d${d} changed`));
    repo.remove('dir 2/file 5.txt');
    repo.write('dir 4/new file.txt', 'untracked in a tracked folder\n');
    repo.write('brand-new/deep/er.txt', 'untracked folder\n');
    repo.remove('becomes-dir');
    repo.write('becomes-dir/now.txt', 'now a folder\n');
    repo.remove('becomes-file');
    repo.write('becomes-file', 'now a file\n');
    repo.remove('gone');
    repo.chmod('run.sh', 0o755);
    repo.write('data.bin', binaryBytes(5000, 4));
    repo.write('odd/with space [x]*.txt', 'odd, changed\n');
    repo.remove('link');
    repo.symlink('run.sh', 'link');
    repo.write('dir 1/file 1.txt', 'staged\n');
    repo.git(['add', 'dir 1/file 1.txt']);
    repo.write('dir 1/file 1.txt', 'staged, then changed again\n');
    repo.write('build/kept.txt', 'tracked inside an ignored folder, changed\n');
    repo.write('build/untracked.txt', 'ignored\n');
    repo.write('ignored/cache.txt', 'ignored\n');
    const checkout = repoAt(repo.path('vendor/sub'));
    configureIdentity(checkout);
    checkout.write('lib.txt', 'version 2\n');
    checkout.commit('sub: two');
    // `.review/` is never captured, even un-ignored and partly tracked.
    repo.write('.review/material.json', '{}\n');

    const { one, two } = await bothWays(repo);
    expect(two).toBe(one);
    const paths = listing(repo, two);
    expect(paths.some((p) => p.endsWith('\tbecomes-dir/now.txt'))).toBe(true);
    expect(paths.some((p) => p.endsWith('\tbuild/kept.txt'))).toBe(true);
    expect(paths.some((p) => p.includes('.review') || p.includes('ignored/') || p.endsWith('build/untracked.txt'))).toBe(false);
  });

  it('leaves .review out when .gitignore un-ignores it and a file in it is tracked', async () => {
    const repo = makeRepo();
    for (let d = 0; d < 4; d++) for (let f = 0; f < 4; f++) repo.write(`d${d}/f${f}.txt`, lines(10, `${d}${f}`));
    repo.write('.review/tracked.txt', 'tracked by mistake\n');
    repo.commit('base');
    repo.write('.gitignore', '!/.review/\n');
    repo.write('.review/material.json', '{}\n');
    repo.write('d3/f3.txt', 'changed\n');
    const { one, two } = await bothWays(repo);
    expect(two).toBe(one);
    expect(listing(repo, two).filter((p) => p.includes('.review'))).toEqual([]);
  });

  it('resolves a merge conflict in the index as one git does', async () => {
    const repo = makeRepo();
    for (let d = 0; d < 4; d++) for (let f = 0; f < 4; f++) repo.write(`d${d}/f${f}.txt`, lines(10, `${d}${f}`));
    repo.commit('base');
    repo.git(['checkout', '--quiet', '-b', 'other']);
    repo.write('d0/f0.txt', 'other side\n');
    repo.write('d3/f3.txt', 'other side\n');
    repo.commit('other');
    repo.git(['checkout', '--quiet', 'main']);
    repo.write('d0/f0.txt', 'main side\n');
    repo.write('d3/f3.txt', 'main side\n');
    repo.commit('main');
    try {
      repo.git(['merge', '--quiet', 'other']);
    } catch {
      // the conflict is the point
    }
    expect(repo.git(['ls-files', '--unmerged'])).not.toBe('');
    const { one, two } = await bothWays(repo);
    expect(two).toBe(one);
  });
});

describe('planAddSplit', () => {
  const limits = { fromBytes: 0, perFile: 0, maxSubtrees: 64 };
  const entry = (path: string, size: number) => ({ path, size, skipWorktree: false });

  it('takes whole subtrees in order while they fit half the weight, then goes down into the next', () => {
    const split = planAddSplit([entry('a.txt', 10), entry('b/x', 30), entry('b/y', 30), entry('c/z', 30)], limits);
    expect(split?.subtrees).toEqual(['a.txt', 'b/x']);
    expect(split?.first).toEqual([':(top,literal)a.txt', ':(top,literal)b/x']);
    expect(split?.second).toEqual([':(top)', ':(top,exclude,literal)a.txt', ':(top,exclude,literal)b/x']);
  });

  it('never names .review, and leaves sparse checkouts and small indexes to one git', () => {
    expect(planAddSplit([entry('.review/m', 40), entry('a', 30), entry('b', 30)], limits)?.subtrees).toEqual(['a']);
    expect(planAddSplit([entry('a', 50), { ...entry('b', 50), skipWorktree: true }], limits)).toBeNull();
    expect(planAddSplit([entry('a', 50), entry('b', 50)], { ...limits, fromBytes: 1000 })).toBeNull();
    // One file holding nearly everything: not worth a second git.
    expect(planAddSplit([entry('big', 1000), entry('small', 10)], limits)).toBeNull();
  });
});
