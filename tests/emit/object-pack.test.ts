/**
 * The pack Involut writes for a capture (server/git/object-pack.ts) is read by git as its own:
 * `verify-pack` checks every entry's zlib stream, CRC-32 and the pack's checksums, and
 * `cat-file` gives every blob back byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { blobId, writePack } from '../../server/git/object-pack';
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
    ];
    const blobs = contents.map((content) => ({ oid: blobId(content), content }));
    const pack = await writePack(repo.path('.git/objects/pack'), blobs);
    expect(readdirSync(repo.path('.git/objects/pack')).filter((f) => f.startsWith('tmp_'))).toEqual([]);
    const verified = repo.git(['verify-pack', '-v', pack.replace(/\.pack$/, '.idx')]);
    expect(verified).toContain('.pack: ok');
    for (const { oid, content } of blobs) {
      const gitId = execFileSync('git', ['hash-object', '--stdin'], { cwd: repo.dir, input: content, encoding: 'utf8' }).trim();
      expect(gitId, 'the id git gives the same bytes').toBe(oid);
      expect(repo.gitBytes(['cat-file', 'blob', oid]).equals(content)).toBe(true);
    }
  });
});
