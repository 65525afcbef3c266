/**
 * A capture's tree is written by Involut (server/git/index-tree.ts) from its temporary index.
 * Whatever the index holds, the tree must be the one `git write-tree` writes of it, stored
 * where every git finds it, and what git must do itself is left to git.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readIndexFile } from '../../server/git/index-file';
import { writeIndexTree as writeTreeOf } from '../../server/git/index-tree';
import { binaryBytes, cleanup, lines, makeRepo, tempDir, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

const writeIndexTree = async (file: string, packs: string, hashBytes: number) => writeTreeOf(await readIndexFile(file, hashBytes), packs, hashBytes);

/** A copy of the repository's index that git commands below change, as a capture's temporary index is. */
function scratchIndex(repo: TempRepo): { file: string; git: (args: string[], input?: string) => string } {
  const file = path.join(tempDir('involut-index-'), 'index');
  copyFileSync(repo.path('.git/index'), file);
  const env = { ...process.env, GIT_INDEX_FILE: file };
  return { file, git: (args, input) => execFileSync('git', args, { cwd: repo.dir, env, input, encoding: 'latin1', stdio: ['pipe', 'pipe', 'pipe'] }) };
}

/** What `git write-tree` makes of the same index (run on a copy: it updates the index's cache-tree). */
function gitWriteTree(repo: TempRepo, index: string): string {
  const copy = path.join(tempDir('involut-index-'), 'index');
  copyFileSync(index, copy);
  return execFileSync('git', ['write-tree'], { cwd: repo.dir, env: { ...process.env, GIT_INDEX_FILE: copy }, encoding: 'utf8' }).trim();
}

const packDir = (repo: TempRepo) => repo.path('.git/objects/pack');
const packs = (repo: TempRepo) => readdirSync(packDir(repo)).filter((f) => f.endsWith('.pack'));

/** Names whose byte order differs from a naive folder-first or string order, a link, a submodule, an executable. */
function varied(repo: TempRepo): void {
  // Folder `a` sorts after `a-`, `a.b` and `a.b.c` (as `a/`), and `a.b.c` before `a.b`.
  for (const name of ['a/f', 'a/x', 'a/y/z', 'a-', 'a.b/f', 'a.b.c/d', 'a0', 'ab', 'b/a/b/c/d/e', 'Z', 'ünï/cödé.txt', 'with space/x y']) {
    repo.write(name, lines(3, name));
  }
  repo.write('top.txt', 'top\n');
  repo.write('run.sh', '#!/bin/sh\n');
  repo.chmod('run.sh', 0o755);
  repo.write('data.bin', binaryBytes(3000, 2));
  repo.symlink('top.txt', 'link');
  repo.git(['add', '--all']);
  // A submodule commit, named without a checkout.
  repo.git(['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/sub`]);
  repo.commit('base');
}

describe('writeIndexTree', () => {
  it("writes the tree git writes, for every kind of entry and name, as a pack git reads", async () => {
    const repo = makeRepo();
    varied(repo);
    const index = scratchIndex(repo);
    index.git(['rm', '--cached', '--quiet', 'a.b/f', 'b/a/b/c/d/e']);
    index.git(['update-index', '--add', '--cacheinfo', `100644,${index.git(['hash-object', '-w', '--stdin'], 'new\n').trim()},a/y/new.txt`]);
    index.git(['update-index', '--add', '--cacheinfo', `100755,${index.git(['hash-object', '-w', '--stdin'], 'x\n').trim()},deep/er/still/x`]);
    index.git(['update-index', '--chmod=-x', 'run.sh']);
    // A name that is not UTF-8 (Latin-1 é), as bytes.
    index.git(['update-index', '--add', '--index-info'], `100644 ${repo.git(['rev-parse', 'HEAD:top.txt']).trim()}\tcaf\xe9/l\xe0.txt\n`);

    const before = packs(repo).length;
    const tree = await writeIndexTree(index.file, packDir(repo), 20);
    expect(tree).toBe(gitWriteTree(repo, index.file));
    expect(packs(repo).length, 'one pack of the new trees').toBe(before + 1);
    repo.git(['update-ref', 'refs/involut/test', tree!]);
    expect(() => repo.git(['fsck', '--strict', '--no-dangling'])).not.toThrow();
    expect(repo.git(['ls-tree', '-r', '--name-only', tree!])).toContain('deep/er/still/x');
  });

  it('takes the folders the cache-tree vouches for as they are, and stores nothing when nothing changed', async () => {
    const repo = makeRepo();
    varied(repo);
    const unchanged = scratchIndex(repo);
    unchanged.git(['write-tree']); // the cache-tree now covers everything
    const before = packs(repo).length;
    expect(await writeIndexTree(unchanged.file, packDir(repo), 20)).toBe(repo.rev('HEAD^{tree}'));
    expect(packs(repo).length, 'no pack written').toBe(before);

    // One file changed: its folders are hashed again, the others taken from the cache-tree.
    const oneChange = scratchIndex(repo);
    oneChange.git(['write-tree']);
    repo.write('a/y/z', 'changed\n');
    oneChange.git(['add', 'a/y/z']);
    expect(await writeIndexTree(oneChange.file, packDir(repo), 20)).toBe(gitWriteTree(repo, oneChange.file));
  });

  it('gives the same tree from every index version, with no cache-tree at all', async () => {
    const repo = makeRepo();
    varied(repo);
    for (const version of ['2', '3', '4']) {
      const index = scratchIndex(repo);
      index.git(['update-index', '--index-version', version]);
      // Rebuilt from a listing, the index has no cache-tree left.
      const listing = index.git(['ls-files', '-s', '-z']);
      index.git(['rm', '-r', '--cached', '--quiet', '.']);
      index.git(['update-index', '-z', '--index-info'], listing);
      expect(await writeIndexTree(index.file, packDir(repo), 20), `version ${version}`).toBe(repo.rev('HEAD^{tree}'));
    }
  });

  it('leaves to git an index with a conflict or an intent-to-add entry, and SHA-256 ids', async () => {
    const repo = makeRepo();
    varied(repo);
    const intent = scratchIndex(repo);
    repo.write('later.txt', 'later\n');
    intent.git(['add', '-N', 'later.txt']);
    expect(await writeIndexTree(intent.file, packDir(repo), 20)).toBeNull();

    const conflict = scratchIndex(repo);
    const oid = conflict.git(['rev-parse', 'HEAD:top.txt']).trim();
    conflict.git(['update-index', '--index-info'], `0 ${'0'.repeat(40)}\ttop.txt\n100644 ${oid} 1\ttop.txt\n100644 ${oid} 2\ttop.txt\n`);
    expect(await writeIndexTree(conflict.file, packDir(repo), 20)).toBeNull();

    expect(await writeIndexTree(scratchIndex(repo).file, packDir(repo), 32)).toBeNull();
    expect(await writeIndexTree(path.join(tempDir(), 'missing'), packDir(repo), 20)).toBeNull();
  });
});
