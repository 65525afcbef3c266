/**
 * The capture stages plain files itself (server/git/direct-add.ts: Involut hashes them and
 * writes their blobs as a pack) and leaves the rest to git. Whatever the round holds, its
 * tree must be the one `git add --all` makes, the pack must be one git reads and checks,
 * and the real index stays as it was.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureStats, captureTree } from '../../server/git/capture';
import { openRepo } from '../../server/git/repo';
import { binaryBytes, cleanup, configureIdentity, lines, makeRepo, repoAt, sha256, tempDir, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

/** The tree one `git add --all` makes of the working state (into a copy of the index), `.review/` left out. */
function gitAddTree(repo: TempRepo): string {
  const index = path.join(tempDir('involut-index-'), 'index');
  copyFileSync(repo.path('.git/index'), index);
  const env = { ...process.env, GIT_INDEX_FILE: index };
  const git = (args: string[]) => execFileSync('git', args, { cwd: repo.dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git(['-c', 'advice.addEmbeddedRepo=false', 'add', '--all']);
  git(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ':(top).review']);
  return git(['write-tree']).trim();
}

/**
 * Captures the working state twice (the second time, every blob is stored already) and
 * checks both against git add --all: staged directly or not as expected, the real index untouched.
 */
async function capture(repo: TempRepo, { direct = true }: { direct?: boolean } = {}): Promise<string> {
  const index = () => ({ bytes: sha256(readFileSync(repo.path('.git/index'))), mtime: statSync(repo.path('.git/index')).mtimeMs });
  const before = index();
  const trees: string[] = [];
  for (let i = 0; i < 2; i++) {
    const count = captureStats.direct;
    trees.push(await captureTree(await openRepo(repo.dir)));
    expect(captureStats.direct - count, direct ? 'staged directly' : 'staged by one git add').toBe(direct ? 1 : 0);
  }
  expect(index()).toEqual(before);
  const expected = gitAddTree(repo); // after: its git add stores every blob (loose), so a capture would store none
  expect(trees).toEqual([expected, expected]);
  return expected;
}

/** Every path of a tree with its mode and id. */
const listing = (repo: TempRepo, tree: string) => repo.git(['ls-tree', '-r', '-z', '--full-tree', tree]).split('\0').sort();
const packs = (repo: TempRepo) => readdirSync(repo.path('.git/objects/pack')).filter((f) => f.endsWith('.pack'));

describe('a capture staged directly', () => {
  it('gives the tree of git add --all, whatever changed, in a pack git verifies', async () => {
    const upstream = makeRepo({ dir: tempDir('involut-sub-') });
    upstream.write('lib.txt', 'version 1\n');
    upstream.commit('sub: one');

    const repo = makeRepo();
    repo.write('.gitignore', 'ignored/\nbuild/\n');
    for (let d = 0; d < 4; d++) for (let f = 0; f < 6; f++) repo.write(`dir ${d}/file ${f}.txt`, lines(20 + f, `d${d}`));
    repo.write('becomes-dir', 'a file that becomes a folder\n');
    repo.write('becomes-file/inner.txt', 'a folder that becomes a file\n');
    repo.write('gone/a.txt', 'a whole folder deleted\n');
    repo.write('run.sh', '#!/bin/sh\n');
    repo.write('data.bin', binaryBytes(5000, 3));
    repo.write('odd/with space [x]*.txt', 'odd\n');
    repo.write('odd/new\nline.txt', 'odd\n');
    repo.write('ünïcode/файл.txt', 'unicode\n');
    repo.write('touched.txt', 'same bytes, new time\n');
    repo.symlink('dir 0/file 0.txt', 'link');
    repo.git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', upstream.dir, 'vendor/sub']);
    repo.write('build/kept.txt', 'tracked inside an ignored folder\n');
    repo.git(['add', '--force', 'build/kept.txt']);
    repo.commit('base');

    for (let d = 0; d < 4; d++) repo.write(`dir ${d}/file 3.txt`, lines(30, `d${d} changed`));
    repo.remove('dir 2/file 5.txt');
    repo.write('dir 3/new file.txt', 'untracked in a tracked folder\n');
    repo.write('brand-new/deep/er.txt', 'untracked folder\n');
    repo.write('brand-new/same.txt', 'untracked folder\n'); // the same bytes twice: one blob
    repo.write('brand-new/empty.txt', '');
    repo.remove('becomes-dir');
    repo.write('becomes-dir/now.txt', 'now a folder\n');
    repo.remove('becomes-file');
    repo.write('becomes-file', 'now a file\n');
    repo.remove('gone');
    repo.chmod('run.sh', 0o755);
    repo.write('data.bin', binaryBytes(5000, 4));
    repo.write('odd/with space [x]*.txt', 'odd, changed\n');
    repo.write('odd/new\nline.txt', 'odd, changed\n');
    repo.write('ünïcode/файл.txt', 'unicode, changed\n');
    repo.write('touched.txt', 'same bytes, new time\n');
    repo.remove('link');
    repo.symlink('run.sh', 'link');
    repo.write('dir 1/file 1.txt', 'staged\n');
    repo.git(['add', 'dir 1/file 1.txt']);
    repo.write('dir 1/file 1.txt', 'staged, then changed again\n');
    repo.write('intent.txt', 'added with -N\n');
    repo.git(['add', '-N', 'intent.txt']);
    repo.write('build/kept.txt', 'tracked inside an ignored folder, changed\n');
    repo.write('build/untracked.txt', 'ignored\n');
    repo.write('ignored/cache.txt', 'ignored\n');
    const nested = makeRepo({ dir: repo.path('nested') });
    nested.write('inner.txt', 'a repository inside, untracked\n');
    nested.commit('nested');
    const checkout = repoAt(repo.path('vendor/sub'));
    configureIdentity(checkout);
    checkout.write('lib.txt', 'version 2\n');
    checkout.commit('sub: two');
    repo.write('.review/material.json', '{}\n'); // never captured, even when not ignored

    const before = packs(repo);
    const tree = await capture(repo);
    const paths = listing(repo, tree);
    expect(paths.some((p) => p.endsWith('\tbecomes-dir/now.txt'))).toBe(true);
    expect(paths.some((p) => p.startsWith('160000 commit') && p.endsWith('\tnested'))).toBe(true);
    expect(paths.some((p) => p.startsWith('100755') && p.endsWith('\trun.sh'))).toBe(true);
    expect(paths.some((p) => p.includes('.review') || p.includes('ignored/') || p.endsWith('build/untracked.txt'))).toBe(false);

    // Involut's pack (and git's, when what git staged itself stores a new blob).
    const added = packs(repo).filter((p) => !before.includes(p));
    expect(added.length).toBeGreaterThanOrEqual(1);
    for (const pack of added) {
      const name = pack.replace(/\.pack$/, '');
      expect(repo.git(['verify-pack', '-v', repo.path(`.git/objects/pack/${name}.idx`)])).toContain(`${name}.pack: ok`);
    }
    // Every object of the tree is there and sound.
    repo.git(['update-ref', 'refs/involut/test', tree]);
    expect(() => repo.git(['fsck', '--strict', '--no-dangling'])).not.toThrow();

    // The same state again: every blob is stored already, so no pack is added.
    const packsNow = packs(repo);
    expect(await capture(repo)).toBe(tree);
    expect(packs(repo)).toEqual(packsNow);
  });

  it('leaves to git the files it would convert: filters, ident, encodings, line endings', async () => {
    const repo = makeRepo();
    repo.git(['config', 'filter.upper.clean', 'tr a-z A-Z']);
    repo.git(['config', 'filter.upper.smudge', 'cat']);
    repo.write('.gitattributes', ['*.up filter=upper', '*.id ident', '*.u16 working-tree-encoding=UTF-16', '*.txt text=auto', ''].join('\n'));
    repo.write('plain.txt', 'plain\n');
    repo.commit('base');
    repo.write('shout.up', 'quiet words\n');
    repo.write('version.id', 'version $Id: something old $\n');
    repo.write('wide.u16', Buffer.from('\ufeffwide text\n', 'utf16le'));
    repo.write('windows.txt', 'line one\r\nline two\r\n');
    repo.write('plain.txt', 'plain, changed\n');
    const tree = await capture(repo);
    expect(repo.git(['cat-file', '-p', `${tree}:shout.up`])).toBe('QUIET WORDS\n');
    expect(repo.git(['cat-file', '-p', `${tree}:windows.txt`])).toBe('line one\nline two\n');
  });

  it('keeps carriage returns git would keep, and strips those core.autocrlf strips', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('base');
    repo.write('crlf.txt', 'kept\r\nas is\r\n');
    expect(repo.git(['cat-file', '-p', `${await capture(repo)}:crlf.txt`])).toBe('kept\r\nas is\r\n');
    repo.git(['config', 'core.autocrlf', 'true']);
    expect(repo.git(['cat-file', '-p', `${await capture(repo)}:crlf.txt`])).toBe('kept\nas is\n');
  });

  it('resolves a merge conflict as git add --all does', async () => {
    const repo = makeRepo();
    for (let f = 0; f < 4; f++) repo.write(`f${f}.txt`, lines(10, `${f}`));
    repo.commit('base');
    repo.git(['checkout', '--quiet', '-b', 'other']);
    repo.write('f0.txt', 'other side\n');
    repo.commit('other');
    repo.git(['checkout', '--quiet', 'main']);
    repo.write('f0.txt', 'main side\n');
    repo.write('f3.txt', 'unrelated change\n');
    repo.commit('main');
    try {
      repo.git(['merge', '--quiet', 'other']);
    } catch {
      // the conflict is the point
    }
    expect(repo.git(['ls-files', '--unmerged'])).not.toBe('');
    await capture(repo);
  });

  it('leaves .review out when .gitignore un-ignores it and a file in it is tracked', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.write('.review/tracked.txt', 'tracked by mistake\n');
    repo.commit('base');
    repo.write('.gitignore', '!/.review/\n');
    repo.write('.review/material.json', '{}\n');
    repo.write('a.txt', 'changed\n');
    const tree = await capture(repo); // one file to stage
    expect(listing(repo, tree).filter((p) => p.includes('.review'))).toEqual([]);
  });

  it('recomputes the folders a change touches and keeps the others, from a cache-tree that was whole', async () => {
    const repo = makeRepo();
    for (const folder of ['a', 'a/deep', 'b', 'c']) for (let i = 0; i < 3; i++) repo.write(`${folder}/${i}.txt`, lines(5 + i, folder));
    repo.commit('base'); // the index's cache-tree now covers every folder
    repo.write('a/deep/1.txt', 'changed in place\n');
    repo.remove('b/2.txt');
    repo.write('c/new.txt', 'new\n');
    repo.write('d/new.txt', 'new folder\n');
    const tree = await capture(repo);
    expect(repo.git(['cat-file', '-p', `${tree}:a/deep/1.txt`])).toBe('changed in place\n');
  });

  it('stages a tracked file inside an ignored folder', async () => {
    const repo = makeRepo();
    repo.write('.gitignore', 'build/\n');
    repo.write('build/kept.txt', 'tracked inside an ignored folder\n');
    repo.git(['add', '--force', 'build/kept.txt']);
    repo.write('src/a.txt', 'a\n');
    repo.commit('base');
    repo.write('build/kept.txt', 'changed\n');
    repo.write('src/a.txt', 'changed\n');
    const tree = await capture(repo);
    expect(repo.git(['cat-file', '-p', `${tree}:build/kept.txt`])).toBe('changed\n');
  });

  it('lets one git add --all do everything where settings change what git stages', async () => {
    for (const [key, value] of [
      ['core.fileMode', 'false'],
      ['core.ignoreCase', 'true'],
    ] as const) {
      const repo = makeRepo();
      repo.write('run.sh', '#!/bin/sh\n');
      repo.write('a.txt', 'a\n');
      repo.commit('base');
      repo.git(['config', key, value]);
      repo.chmod('run.sh', 0o755);
      repo.write('a.txt', 'changed\n');
      repo.write('new.txt', 'new\n');
      await capture(repo, { direct: false });
    }
  });
});
