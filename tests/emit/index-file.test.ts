import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readIndexFile } from '../../server/git/index-file';
import { cleanup, lines, makeRepo, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

/** The file size git recorded for each path (the last entry of a path wins). */
async function indexSizes(file: string): Promise<Map<string, number> | null> {
  const index = await readIndexFile(file, 20);
  return index && new Map(index.entries.map((e) => [e.path, e.size]));
}

/** Each path's size as `git ls-files --debug` prints it. */
function gitSizes(debug: string): Map<string, number> {
  const sizes = new Map<string, number>();
  let name = '';
  for (const line of debug.split('\n')) {
    const size = /^\s+size: (\d+)/.exec(line);
    if (size) sizes.set(name, Number(size[1]));
    else if (line && !line.startsWith(' ')) name = line;
  }
  return sizes;
}

describe('readIndexFile (the sizes a capture recorded, to weigh the patch work)', () => {
  it('reads index versions 2, 3 and 4 as git does: extended flags, a long name, odd names', async () => {
    const repo = makeRepo();
    for (let i = 0; i < 30; i++) repo.write(`dir ${i % 4}/file-${i}.txt`, lines(i + 1));
    repo.write('ünïcode/with space.txt', 'x\n');
    repo.write('empty.txt', '');
    repo.commit('files');
    repo.write('intent.txt', 'intent to add\n');
    repo.git(['add', '-N', 'intent.txt']); // an extended flag (version 3 and up)
    repo.git(['update-index', '--skip-worktree', 'dir 1/file-1.txt']);
    // A name longer than the 12 bits of the entry flags (only in the index: too long for a file system).
    const blob = repo.git(['rev-parse', 'HEAD:empty.txt']).trim();
    repo.git(['update-index', '--add', '--cacheinfo', `100644,${blob},${Array.from({ length: 20 }, () => 'd'.repeat(240)).join('/')}/long.txt`]);
    for (const version of ['2', '3', '4']) {
      repo.git(['update-index', `--index-version=${version}`]);
      const expected = gitSizes(repo.git(['-c', 'core.quotePath=false', 'ls-files', '--debug']));
      expect(expected.size).toBe(34);
      expect(await indexSizes(repo.path('.git/index')), `version ${version}`).toEqual(expected);
    }
  });

  it('null for a file that is missing or not an index', async () => {
    const dir = tempDir();
    expect(await indexSizes(`${dir}/missing`)).toBeNull();
    writeFileSync(`${dir}/not-an-index`, 'DIRC but nothing after');
    expect(await indexSizes(`${dir}/not-an-index`)).toBeNull();
  });
});
