/**
 * The pack Involut writes for a capture (server/git/object-pack.ts) is read by git as its own:
 * `verify-pack` checks every entry's zlib stream, CRC-32 and the pack's checksums, and
 * `cat-file` gives every blob back byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { blobId, makePackView, startPack, writePack } from '../../server/git/object-pack';
import { binaryBytes, cleanup, makeRepo } from '../helpers/git-repo';

afterAll(cleanup);

describe('writePack', () => {
  it('writes a pack git verifies and reads back byte for byte, blobs of every size', async () => {
    const repo = makeRepo();
    const contents = [
      Buffer.alloc(0),
      Buffer.from('hello\n'),
      Buffer.alloc(65535, 0xff), // exactly one stored block
      Buffer.alloc(65536, 0xff), // one byte into a second block
      binaryBytes(300_000, 9),
      Buffer.from('ünïcode and a NUL \0 inside\n'),
      binaryBytes(2_500_000, 3), // past the bytes of one write
      // Enough objects for several writes of pieces each.
      ...Array.from({ length: 600 }, (_, i) => Buffer.from(`small blob ${i}\n`)),
    ];
    const blobs = contents.map((content) => ({ oid: blobId(content), content }));
    const pack = await writePack(repo.path('.git/objects/pack'), blobs);
    expect(readdirSync(repo.path('.git/objects/pack')).filter((f) => f.startsWith('tmp_'))).toEqual([]);
    const verified = repo.git(['verify-pack', '-v', pack.replace(/\.pack$/, '.idx')]);
    expect(verified).toContain('.pack: ok');
    expect(verified.split('\n').filter((line) => / blob /.test(line)).length, 'every object listed').toBe(blobs.length);
    for (const { oid, content } of blobs.slice(0, 8)) {
      const gitId = execFileSync('git', ['hash-object', '--stdin'], { cwd: repo.dir, input: content, encoding: 'utf8' }).trim();
      expect(gitId, 'the id git gives the same bytes').toBe(oid);
      expect(repo.gitBytes(['cat-file', 'blob', oid]).equals(content)).toBe(true);
    }
  });
});

describe('a pack view', () => {
  it('lets a git given it read the objects before the pack is in place, and leaves the pack in the repository when it goes', async () => {
    const repo = makeRepo();
    const content = Buffer.from('read through the view\n');
    const oid = blobId(content);
    const view = makePackView(repo.path('.git/objects'))!;
    expect(view).not.toBeNull();
    const { readable, placed } = startPack(repo.path('.git/objects/pack'), [{ oid, content }], view.dir);
    await readable;
    const shown = readdirSync(`${view.dir}/pack`).sort();
    expect(shown.map((f) => f.replace(/^pack-[0-9a-f]{40}/, 'pack'))).toEqual(['pack.idx', 'pack.pack']);
    const throughView = (env: NodeJS.ProcessEnv) =>
      execFileSync('git', ['cat-file', 'blob', oid], { cwd: repo.dir, env: { ...process.env, ...env } });
    // Whether or not the pack is in place yet, a git with the view reads the blob.
    expect(throughView(view.env).equals(content)).toBe(true);
    await placed;
    await view.dispose();
    expect(existsSync(view.dir)).toBe(false);
    expect(repo.gitBytes(['cat-file', 'blob', oid]).equals(content), 'the pack stays in the repository').toBe(true);
    expect(readdirSync(repo.path('.git/objects/pack')).filter((f) => f.startsWith('tmp_'))).toEqual([]);
  });

  it('clears away a view left over an hour ago by a round that was stopped, and no other', () => {
    const repo = makeRepo();
    const objects = repo.path('.git/objects');
    const old = makePackView(objects)!;
    const recent = makePackView(objects)!;
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(old.dir, hourAgo, hourAgo);
    const next = makePackView(objects)!;
    expect(existsSync(old.dir), 'the stale view').toBe(false);
    expect(existsSync(recent.dir), 'a view that may be in use').toBe(true);
    expect(existsSync(next.dir)).toBe(true);
  });

  it('is not offered for an object folder whose name would split the list it goes in', () => {
    expect(makePackView('/tmp/a:b/.git/objects')).toBeNull();
  });
});
