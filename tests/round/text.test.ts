import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import {
  cleanup,
  diffBytes,
  emit,
  entryOf,
  gitHunks,
  gitNumstat,
  lines,
  makeRepo,
  type TempRepo,
} from '../helpers/git-repo';

/** Text that is easy to get subtly wrong: odd names, CRLF, empty, huge, not UTF-8. */
let repo: TempRepo;
let material: Material;
let base: string;

const ODD_NAMES = [
  'with space.txt',
  'docs/ünïcödé file.md',
  'line\nbreak.txt',
  'tab\tand "quotes" \\ back.txt',
  '日本語/ファイル.txt',
];
const BIG = 20_000;
const latin1Before = Buffer.from('caf\xe9\nna\xefve\n', 'latin1');
const latin1After = Buffer.from('caf\xe9 cr\xe8me\nna\xefve\n', 'latin1');

beforeAll(async () => {
  repo = makeRepo();
  repo.write('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
  repo.write('big.txt', lines(BIG, 'row'));
  repo.write('latin1.txt', latin1Before);
  repo.write('docs/ünïcödé file.md', '# before\n');
  base = repo.commit('text files');

  repo.write('crlf.txt', 'one\r\nTWO\r\nthree\r\n');
  repo.write('big.txt', lines(BIG, 'changed row'));
  repo.write('latin1.txt', latin1After);
  repo.write('docs/ünïcödé file.md', '# after\n');
  repo.write('empty.txt', '');
  for (const name of ODD_NAMES.filter((n) => n !== 'docs/ünïcödé file.md')) repo.write(name, `content of ${name}\n`);
  ({ material } = await emit(repo.dir));
});

afterAll(cleanup);

describe('names', () => {
  it.each(ODD_NAMES)('%j comes through literally in ref', (name) => {
    const e = entryOf(material, name);
    expect(e.status).toBe(name.startsWith('docs/') ? 'modified' : 'added');
    expect(diffBytes(e).equals(gitHunks(repo, base, material.source.tree!, e))).toBe(true);
  });
});

describe('text content', () => {
  it('CRLF: the diff keeps \\r\\n on every line', () => {
    const e = entryOf(material, 'crlf.txt');
    expect(e.diff).toBe('@@ -1,3 +1,3 @@\n one\r\n-two\r\n+TWO\r\n three\r\n');
    expect(e.diff_base64).toBeUndefined();
  });

  it('empty file added: status added, diff ""', () => {
    expect(entryOf(material, 'empty.txt')).toMatchObject({
      status: 'added',
      binary: false,
      diff: '',
      additions: 0,
      deletions: 0,
      bytes: 0,
    });
  });

  it(`a ${BIG.toLocaleString('en')}-line file rewritten: the diff is written whole`, () => {
    const e = entryOf(material, 'big.txt');
    expect(e).toMatchObject({ additions: BIG, deletions: BIG });
    const diffLines = e.diff!.split('\n');
    expect(diffLines.pop()).toBe(''); // ends with a newline
    expect(diffLines).toHaveLength(1 + 2 * BIG);
    expect(diffLines[0]).toBe(`@@ -1,${BIG} +1,${BIG} @@`);
    expect(diffLines.filter((l) => l.startsWith('-row '))).toHaveLength(BIG);
    expect(diffLines.at(-1)).toBe(`+changed row ${BIG}`);
  });

  it("non-UTF-8 text: diff_base64 decodes to exactly git's bytes, diff shows U+FFFD", () => {
    const e = entryOf(material, 'latin1.txt');
    expect(e).toMatchObject({ status: 'modified', binary: false, additions: 1, deletions: 1 });
    const bytes = Buffer.from(e.diff_base64!, 'base64');
    expect(bytes.equals(gitHunks(repo, base, material.source.tree!, e))).toBe(true);
    expect(bytes.includes(Buffer.from('+caf\xe9 cr\xe8me\n', 'latin1'))).toBe(true);
    expect(e.diff).toContain('+caf\uFFFD cr\uFFFDme\n');
  });

  it('UTF-8 diffs carry no diff_base64', () => {
    expect(entryOf(material, 'docs/ünïcödé file.md').diff_base64).toBeUndefined();
  });

  it("every diff equals git's hunks and --numstat", () => {
    for (const e of material.material) {
      expect(diffBytes(e).equals(gitHunks(repo, base, material.source.tree!, e)), e.ref).toBe(true);
      expect({ additions: e.additions, deletions: e.deletions }, e.ref).toEqual(
        gitNumstat(repo, base, material.source.tree!, e),
      );
    }
  });
});
