import { readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  emit,
  entryOf,
  hashFiles,
  lines,
  makeRepo,
  png,
  refs,
  runCli,
  sha256,
  type TempRepo,
} from '../helpers/git-repo';

afterAll(cleanup);

/** Everything of the user's a capture must not change: index, HEAD, branch, working files, status. */
function snapshot(repo: TempRepo) {
  return {
    index: sha256(readFileSync(repo.path('.git/index'))),
    indexMtime: statSync(repo.path('.git/index')).mtimeMs,
    head: readFileSync(repo.path('.git/HEAD'), 'utf8'),
    branch: readFileSync(repo.path('.git/refs/heads/main'), 'utf8'),
    files: Object.fromEntries(hashFiles(repo.dir)),
    // --no-optional-locks: a plain `git status` may rewrite the index's stat data itself.
    status: repo.git(['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--untracked-files=all']),
    stash: repo.git(['stash', 'list']),
  };
}

function repoWithEveryKindOfChange(): TempRepo {
  const repo = makeRepo();
  repo.write('.gitignore', 'ignored/\n');
  repo.write('staged.txt', lines(5));
  repo.write('unstaged.txt', lines(5));
  repo.write('both.txt', lines(5));
  repo.write('image.png', png(4, 4));
  repo.write('gone.txt', 'gone\n');
  repo.write('rename-me.txt', lines(10, 'moving'));
  repo.commit('initial');
  repo.write('staged.txt', lines(6));
  repo.git(['add', 'staged.txt']);
  repo.write('unstaged.txt', lines(4));
  repo.write('both.txt', lines(6));
  repo.git(['add', 'both.txt']);
  repo.write('both.txt', lines(7));
  repo.write('image.png', png(5, 5));
  repo.remove('gone.txt');
  repo.git(['mv', 'rename-me.txt', 'renamed.txt']);
  repo.write('untracked/new.txt', 'new\n');
  repo.write('ignored/cache.bin', 'ignored\n');
  return repo;
}

describe('a capture touches nothing of the user', () => {
  it('in-process: index, HEAD, branch, every working file and the status are byte-identical', async () => {
    const repo = repoWithEveryKindOfChange();
    const before = snapshot(repo);
    const { material } = await emit(repo.dir);
    expect(snapshot(repo)).toEqual(before);
    expect(refs(material)).toEqual([
      'both.txt',
      'gone.txt',
      'image.png',
      'renamed.txt',
      'staged.txt',
      'unstaged.txt',
      'untracked/new.txt',
    ]);
    expect(entryOf(material, 'both.txt').diff).toContain('+line 7\n');
  });

  it('built CLI: the same, and a second run too', async () => {
    const repo = repoWithEveryKindOfChange();
    const before = snapshot(repo);
    for (const args of [['rounds'], ['rounds', '--since-last']]) {
      const run = await runCli(args, repo.dir);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Involut round');
    }
    expect(snapshot(repo)).toEqual(before);
  });
});

describe('racy clean (STACK.md G15)', () => {
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
  const second = (ms: number) => Math.floor(ms / 1000);

  it('a same-size edit made in the same second as the commit is in the material, captured a second later', async () => {
    // git trusts an entry's cached stat data (whole seconds here) unless the entry is as new as
    // the index file. Write, commit and edit inside one second, then capture in the next one:
    // a temporary index with a fresh mtime would miss the edit.
    for (let attempt = 1; ; attempt++) {
      const repo = makeRepo();
      await nextSecond();
      repo.write('racy.txt', 'aaaa\n');
      repo.commit('initial');
      repo.write('racy.txt', 'bbbb\n');
      const file = statSync(repo.path('racy.txt'));
      const index = statSync(repo.path('.git/index'));
      const oneSecond = new Set([second(file.mtimeMs), second(file.ctimeMs), second(index.mtimeMs)]).size === 1;
      if (!oneSecond && attempt < 3) continue; // a slow machine crossed a second boundary: try again
      expect(oneSecond, 'write, commit and edit within one second').toBe(true);
      await nextSecond();
      const { material } = await emit(repo.dir);
      expect(entryOf(material, 'racy.txt')).toMatchObject({ status: 'modified', diff: '@@ -1 +1 @@\n-aaaa\n+bbbb\n' });
      return;
    }
  });
});
