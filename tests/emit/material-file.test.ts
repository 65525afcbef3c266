/**
 * material.json is written through MaterialFile: a temporary file that appears whole on
 * commit. A big round writes its second half as a part, held in memory up to a limit and in
 * a file of its own past it; either way the material must read as if written in one go.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MaterialFile } from '../../server/emit/material-file';
import { cleanup, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

describe('MaterialFile', () => {
  it('appends a part held in memory, or spilled to its own file, byte for byte, and leaves no temporary file', async () => {
    for (const holdUpTo of [64 << 20, 3000, 1]) {
      const dir = tempDir();
      const file = path.join(dir, 'material.json');
      const main = new MaterialFile(file);
      const part = new MaterialFile(file, 'part', holdUpTo);
      const bulk = 'ünï ' + 'x'.repeat(1 << 20); // past the mebibyte buffer: written at once
      main.write('{"first": ');
      part.write(', "second": ');
      part.writeJsonString(Buffer.from('line\n"quoted"\t'.repeat(500)));
      part.write(`, "bulk": "${bulk}"`);
      main.writeJsonString(Buffer.from('one\ntwo'));
      await main.append(part);
      main.write('}\n');
      await main.commit();
      const expected = `{"first": ${JSON.stringify('one\ntwo')}, "second": ${JSON.stringify('line\n"quoted"\t'.repeat(500))}, "bulk": "${bulk}"}\n`;
      expect(readFileSync(file, 'utf8'), `held up to ${holdUpTo} bytes`).toBe(expected);
      expect(readdirSync(dir)).toEqual(['material.json']);
    }
  });

  it('writes its copy with the same bytes, the text written over at the end included, and removes both on abort', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'material.json');
    const copy = path.join(dir, 'copy.tmp');
    const main = new MaterialFile(file, '', 0, copy);
    main.write('{"tree": "0000", "text": ');
    main.writeJsonString(Buffer.from('ünï\n'.repeat(300_000))); // several buffers' worth
    main.write('}\n');
    await main.writeAt('{"tree": "'.length, 'abcd');
    await main.commit();
    const expected = `{"tree": "abcd", "text": ${JSON.stringify('ünï\n'.repeat(300_000))}}\n`;
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(readFileSync(copy, 'utf8'), 'the copy').toBe(expected);

    const failed = new MaterialFile(path.join(dir, 'other.json'), '', 0, path.join(dir, 'other-copy.tmp'));
    failed.write('x'.repeat(3 << 20));
    await failed.abort();
    expect(readdirSync(dir).sort()).toEqual(['copy.tmp', 'material.json']);
  });

  it('drops a held part on abort without making its file', async () => {
    const dir = tempDir();
    const part = new MaterialFile(path.join(dir, 'material.json'), 'part', 1 << 20);
    part.write('never written');
    await part.abort();
    expect(existsSync(part.temporary)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
