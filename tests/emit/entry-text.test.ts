import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MaterialEntry } from '../../schemas/material';
import { entryPieces, writeEntry } from '../../server/emit/entry-json';
import { MaterialFile } from '../../server/emit/material-file';
import { cleanup, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

/** How material.json's entries were always written: the whole entry, indented by a regular expression. */
const plain = (entry: MaterialEntry) => JSON.stringify(entry, null, 2).replace(/^/gm, '    ');

const entry = (fields: Partial<MaterialEntry>): MaterialEntry => ({
  ref: 'src/a.ts',
  status: 'modified',
  binary: false,
  diff: '@@ -1 +1 @@\n-old\n+new\n',
  hash: '0123456789ab',
  commits: [],
  bytes: 12,
  additions: 1,
  deletions: 1,
  ...fields,
});

describe('an entry written around its diff', () => {
  it('is byte for byte the entry indented whole, whatever its strings hold', () => {
    const strings = [
      '@@ -1 +1 @@\n-a "quoted" \\ back\\slash\n+tab\there\r\n',
      'control \u0000\u0001\u001b\u007f chars',
      'non-ASCII: ünïcödé, 漢字, emoji 🎉',
      'line separator \u2028 and paragraph separator \u2029 in the diff',
      '',
      '"diff": 0,',
    ];
    const entries: MaterialEntry[] = [
      ...strings.map((diff) => entry({ diff })),
      entry({ ref: 'odd/line\u2028separator.txt' }),
      entry({ commits: ['a subject with \u2029 in it', 'plain'] }),
      entry({ from: 'old\npath.ts', status: 'renamed', mode: { before: '100644', after: '100755' } }),
      entry({ diff: 'not utf-8 \ufffd', diff_base64: 'bm90IHV0Zi04IIA=' }),
      entry({ diff: null, binary: true, additions: null, deletions: null, before: 'blobs/x.png', size: { w: 1, h: 2 } }),
      entry({ diff: null, additions: null, deletions: null, withheld: { reason: 'matches privacy exclude ".env*" (built-in default)' } }),
      entry({ generated: true, symlink: true, submodule: { before: null, after: 'f'.repeat(40) } }),
    ];
    for (const e of entries) expect(entryPieces(e).join('')).toBe(plain(e));
  });
});

describe('a diff escaped straight from the bytes git printed', () => {
  it('is byte for byte the entry indented whole, whatever the bytes hold', async () => {
    const diffs = [
      '@@ -1 +1 @@\n-a "quoted" \\ back\\slash\n+tab\there\r\n',
      'every control character: ' + Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('') + '\u007f',
      'non-ASCII: ünïcödé, 漢字, emoji 🎉',
      'line separator \u2028 and paragraph separator \u2029 in the diff',
      '',
      '"diff": 0,',
      `${'+a long line of code with "quotes" and \\ slashes\n'.repeat(20_000)}`, // larger than the file's buffer
    ];
    const file = path.join(tempDir(), 'material.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const out = new MaterialFile(file);
    const expected: string[] = [];
    for (const diff of diffs) {
      // Whole, and in the pieces git's output may come in (a character may straddle two).
      const bytes = Buffer.from(diff, 'utf8');
      for (const hunks of [[bytes], [bytes.subarray(0, 7), bytes.subarray(7, bytes.length - 3), bytes.subarray(bytes.length - 3)]]) {
        const e = entry({ diff: null });
        writeEntry(out, { entry: e, hunks: hunks.filter((piece) => piece.length > 0) });
        expected.push(plain({ ...e, diff }));
      }
    }
    // Not UTF-8: the text, and the exact bytes beside it.
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    writeEntry(out, { entry: entry({ diff: null }), hunks: [latin1.subarray(0, 4), latin1.subarray(4)] });
    expected.push(plain({ ...entry({ diff: null }), diff: latin1.toString('utf8'), diff_base64: latin1.toString('base64') }));
    await out.commit();
    expect(readFileSync(file, 'utf8')).toBe(expected.join(''));
  });
});

