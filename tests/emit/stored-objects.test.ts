/**
 * A capture looks up which new blobs the repository has already (server/git/stored-objects.ts)
 * by reading pack indexes and loose objects itself. It must agree with git on every id it
 * says is stored (a blob taken for stored and not written would break the round's tree),
 * and leave to git what it cannot read for sure.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { blobId, writePack } from '../../server/git/object-pack';
import { storedObjects } from '../../server/git/stored-objects';
import { cleanup, lines, makeRepo, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

/** The ids among `oids` that `git cat-file --batch-check` finds. */
function gitStored(dir: string, oids: string[]): Set<string> {
  const answer = execFileSync('git', ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { cwd: dir, input: `${oids.join('\n')}\n`, encoding: 'utf8' });
  return new Set(answer.split('\n').filter((line) => line.endsWith(' blob')).map((line) => line.split(' ')[0]!));
}

describe('storedObjects', () => {
  it('finds blobs in packs (git’s and Involut’s) and loose, and no others, as git does', async () => {
    const repo = makeRepo();
    for (let i = 0; i < 30; i++) repo.write(`packed/${i}.txt`, lines(10 + i, `packed ${i}`));
    repo.commit('packed');
    repo.git(['gc', '--quiet']);
    for (let i = 0; i < 5; i++) repo.write(`loose/${i}.txt`, lines(5 + i, `loose ${i}`));
    repo.commit('loose');
    // Thousands, so that the index's ranges by first byte hold many ids to search between.
    const ours = Array.from({ length: 3000 }, (_, i) => Buffer.from(`written by a capture ${i}\n`));
    await writePack(repo.path('.git/objects/pack'), ours.map((content) => ({ oid: blobId(content), content })));

    const packed = repo.git(['ls-tree', '-r', '--format=%(objectname)', 'HEAD~1']).trim().split('\n');
    const loose = repo.git(['ls-tree', '-r', '--format=%(objectname)', 'HEAD', '--', 'loose']).trim().split('\n');
    const missing = Array.from({ length: 500 }, (_, i) => blobId(Buffer.from(`never stored ${i}\n`)));
    const asked = [...packed, ...loose, ...ours.map(blobId), ...missing];
    expect(loose.length).toBe(5);

    const found = storedObjects(repo.path('.git/objects'), asked);
    expect(found).toEqual(gitStored(repo.dir, asked));
    expect(found?.has(missing[0]!)).toBe(false);
    expect(found?.size).toBe(packed.length + loose.length + ours.length);
  });

  it('leaves a repository with alternates to git', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('base');
    writeFileSync(repo.path('.git/objects/info/alternates'), `${tempDir()}\n`);
    expect(storedObjects(repo.path('.git/objects'), [blobId(Buffer.from('a\n'))])).toBeNull();
  });
});
