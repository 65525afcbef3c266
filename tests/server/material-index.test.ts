/**
 * The server keeps material.json as its index and where each diff lies in the file: every
 * diff read back must be the one material.json holds, however the file spells it.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Material, type MaterialEntry } from '../../schemas/material';
import { MaterialIndex, statSignature } from '../../server/review/material-index';
import { readMaterial } from '../../server/review/material-read';
import { reviewDir } from '../../server/review/review-dir';
import { ReviewFiles } from '../../server/review/review-files';

const dir = mkdtempSync(path.join(os.tmpdir(), 'involut-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const long = (tag: string) =>
  `@@ -1,200 +1,200 @@\n${Array.from({ length: 200 }, (_, i) => `+${tag} line ${i}: "quoted" \\ back\\slash\t✓ 😀\n`).join('')}`;

/** Writes the material as `spell` spells it and reads every diff back through the index. */
async function readBack(entries: MaterialEntry[], spell: (value: unknown) => string, chunkBytes?: number) {
  const file = path.join(dir, `material-${Math.random().toString(36).slice(2)}.json`);
  const material = Material.parse({
    contract: 1,
    source: { kind: 'git', id: 'x', root: dir, request: null },
    generated: '2026-12-01T12:00:00.000+00:00',
    material: entries,
  });
  writeFileSync(file, spell(material));
  const read = await readMaterial(file, chunkBytes);
  if (read?.kind !== 'ok') throw new Error(`not read: ${JSON.stringify(read)}`);
  const state = { state: 'ok' as const, version: 'v', data: read.data };
  const reader = new MaterialIndex(state, read.places, file, statSignature(statSync(file, { bigint: true })));
  const ranges = read.places.filter((p) => typeof p === 'object' && p !== null).length;
  return { index: read.data.material, ranges, diffs: () => bothWays(reader) };
}

/** Every diff as a search reads it and as an answer to the viewer carries it; the two must agree. */
async function bothWays(index: MaterialIndex): Promise<Array<string | null>> {
  const all = Array.from({ length: index.size }, (_, i) => i);
  const searched = await index.withEveryDiff((diffOf) => all.map(diffOf));
  const pieces: Buffer[] = [];
  for await (const piece of await index.diffsJson(all)) pieces.push(piece);
  const answered = JSON.parse(`[${Buffer.concat(pieces).toString()}]`) as Array<string | null>;
  expect(answered).toEqual(searched);
  return searched;
}

const write = (text: string) => {
  const file = path.join(dir, `bad-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, text);
  return file;
};

/** What the round's index says of each diff: its lines and its length, as the decoded string has them. */
const sizesOf = (entries: Array<{ diff?: string | null }>) =>
  entries.map((e) => [e.diff == null ? null : e.diff.split('\n').length - 1, e.diff?.length ?? 0]);
const sizes = (index: Array<{ lines: number | null; chars: number }>) => index.map((e) => [e.lines, e.chars]);

const entry = (ref: string, diff: string | null, extra: object = {}): MaterialEntry =>
  ({ ref, status: 'modified', binary: diff === null, diff, hash: `h-${ref}`, ...extra }) as MaterialEntry;

describe('the material index', () => {
  const entries = [
    entry('a.ts', long('a')),
    entry('b.png', null),
    entry('c.ts', '@@ -1 +1 @@\n-x\n+y\n'),
    // A diff whose text holds what the next one starts with, as a key and value.
    entry('d.ts', `${long('d')}+ "diff": ${JSON.stringify(long('e').slice(0, 300))}\n`),
    entry('e.ts', long('e')),
    entry('f.ts', ''),
    // The 256th character is the first half of an emoji: the head it is searched by must not cut it.
    entry('g.ts', `${'x'.repeat(255)}😀${long('g')}`),
  ];

  it.each([
    ['JSON.stringify, indented', (v: unknown) => JSON.stringify(v, null, 2)],
    ['JSON.stringify, on one line', (v: unknown) => JSON.stringify(v)],
  ])('reads every diff back from the file as %s spells it', async (_case, spell) => {
    const { index, ranges, diffs } = await readBack(entries, spell);
    expect(await diffs()).toEqual(entries.map((e) => e.diff));
    expect(ranges, 'the long diffs stay in the file').toBe(4);
    expect(sizes(index)).toEqual(sizesOf(entries));
  });

  it('reads the diffs of a file written with other escapes (every character past ASCII as \\u)', async () => {
    const ascii = (v: unknown) =>
      JSON.stringify(v, null, 1).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
    const { index, ranges, diffs } = await readBack(entries, ascii);
    expect(await diffs()).toEqual(entries.map((e) => e.diff));
    expect(ranges).toBe(4);
    expect(sizes(index), 'lines and length counted through the escapes').toEqual(sizesOf(entries));
  });

  it('finds each diff in order when the keys come in another order', async () => {
    const reordered = entries.map(({ diff, ...rest }) => ({ diff, ...rest }) as MaterialEntry);
    const { ranges, diffs } = await readBack(reordered, (v) => JSON.stringify(v, null, 2));
    expect(await diffs()).toEqual(entries.map((e) => e.diff));
    expect(ranges).toBe(4);
  });

  it('answers a diff of several pieces whole, its escapes and characters cut anywhere between pieces', async () => {
    // About 1.1 MB of JSON: read back in five pieces, each cut at an arbitrary byte.
    const big = entry('big.ts', `@@ -1,6000 +1,6000 @@\n${long('big').repeat(120)}`);
    const { ranges, diffs } = await readBack([entries[2]!, big, entries[0]!], (v) => JSON.stringify(v, null, 2));
    expect(ranges).toBe(2);
    expect(await diffs()).toEqual([entries[2]!.diff, big.diff, entries[0]!.diff]);
  });

  it.each([1, 7, 64, 1000])('reads the same, diffs and all, when the file comes %i bytes at a time', async (size) => {
    const { index, ranges, diffs } = await readBack(entries, (v) => JSON.stringify(v, null, 2), size);
    expect(await diffs()).toEqual(entries.map((e) => e.diff));
    expect(ranges).toBe(4);
    expect(index.map((e) => e.ref)).toEqual(entries.map((e) => e.ref));
    expect(sizes(index)).toEqual(sizesOf(entries));
  });

  it('reads right a file whose keys are spelt with escapes, that names its list twice, or an entry its diff twice', async () => {
    const frame = (list: string) =>
      `{"contract":1,"source":{"kind":"git","id":"x","root":${JSON.stringify(dir)},"request":null},` +
      `"generated":"2026-12-01T12:00:00.000+00:00",${list}}`;
    const one = (ref: string, diff: string) => JSON.stringify(entry(ref, diff));
    const escapedDiff = one('a.ts', long('a')).replace('"diff"', '"\\u0064iff"');
    const spellings: Array<[string, Array<string | null>]> = [
      [frame(`"material":[${escapedDiff}]`), [long('a')]],
      [frame(`"m\\u0061terial":[${one('a.ts', long('a'))}]`), [long('a')]],
      [frame(`"material":[${one('a.ts', long('a'))}],"material":[${one('b.ts', long('b'))}]`), [long('b')]],
      // Two diffs in one entry: the last counts, whatever it is.
      [frame(`"material":[${one('a.ts', long('a')).replace(/}$/, ',"diff":null}')}]`), [null]],
    ];
    for (const [text, expected] of spellings) {
      const file = write(text);
      const read = await readMaterial(file, 5);
      if (read?.kind !== 'ok') throw new Error(`not read: ${JSON.stringify(read)}`);
      const state = { state: 'ok' as const, version: 'v', data: read.data };
      const index = new MaterialIndex(state, read.places, file, statSignature(statSync(file, { bigint: true })));
      expect(await bothWays(index)).toEqual(expected);
    }
  });

  it('says which entry breaks the schema, with its path in the file', async () => {
    const file = write(
      JSON.stringify({
        contract: 1,
        source: { kind: 'git', id: 'x', root: dir, request: null },
        generated: 'now',
        material: [entry('a.ts', long('a')), { ...entry('b.ts', 'x'), status: 'changed' }],
      }),
    );
    const read = await readMaterial(file);
    expect(read?.kind).toBe('invalid-schema');
    if (read?.kind === 'invalid-schema') expect(read.issues[0]?.path).toEqual(['material', 1, 'status']);
  });

  it('says a material that is not a list, or a frame that is wrong, breaks the schema', async () => {
    const read = await readMaterial(write(JSON.stringify({ contract: 2, source: {}, generated: 'now', material: {} })));
    expect(read?.kind).toBe('invalid-schema');
    if (read?.kind === 'invalid-schema')
      expect(read.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(['contract', 'material']));
  });

  it('tells a file that is not JSON, or half written, from a missing one', async () => {
    expect((await readMaterial(write('{"contract": 1, "material": [')))?.kind).toBe('not-json');
    expect((await readMaterial(write('not json')))?.kind).toBe('not-json');
    expect((await readMaterial(write('')))?.kind).toBe('not-json');
    // What lies between two entries, or a broken entry, is JSON's to judge.
    // A long diff is checked as JSON.parse would, though the scan never gives it to JSON.parse.
    const longDiff = JSON.stringify(long('a')).slice(1, -1);
    const badDiffs = [`\\x${longDiff}`, `${longDiff}\\u12g4`, `${longDiff}\t`, `\n${longDiff}`];
    for (const list of [
      '{"a":1}{"b":2}',
      '{"a":1},,{"b":2}',
      '{"a":1},',
      ',{"a":1}',
      '{"a":1 "b":2}',
      '{"a":"\\x"}',
      ...badDiffs.map((bad) => `{"ref":"a","diff":"${bad}"}`),
    ])
      expect((await readMaterial(write(`{"contract": 1, "material": [${list}]}`), 3))?.kind, list).toBe('not-json');
    const listed = await readMaterial(write('{"contract": 1, "material": [{"ref": 1}, "two", 3]}'));
    expect(listed?.kind).toBe('invalid-schema');
    if (listed?.kind === 'invalid-schema')
      expect(listed.issues.map((i) => i.path.slice(0, 2))).toEqual(
        expect.arrayContaining([
          ['material', 1],
          ['material', 2],
        ]),
      );
    expect(await readMaterial(path.join(dir, 'none.json'))).toBeNull();
  });
});

describe('reads of material.json', () => {
  it('share one read while it runs, keep it while the file stands still, and read again once it changes', async () => {
    const root = mkdtempSync(path.join(dir, 'repo-'));
    const review = reviewDir(root);
    mkdirSync(review.dir);
    const material = (diff: string) =>
      JSON.stringify({
        contract: 1,
        source: { kind: 'git', id: 'x', root, request: null },
        generated: '2026-12-01T12:00:00.000+00:00',
        material: [entry('a.ts', diff)],
      });
    writeFileSync(review.material, material(long('a')));
    const files = new ReviewFiles(review);
    // The server's start and the viewer's first question, at once: one read answers both.
    const [first, second] = await Promise.all([files.read('material'), files.read('material')]);
    expect(second).toBe(first);
    expect(first.state).toMatchObject({ state: 'ok' });
    expect(await files.read('material')).toBe(first);

    writeFileSync(review.material, material('@@ -1 +1 @@\n-x\n+z\n'));
    const changed = await files.read('material');
    expect(changed).not.toBe(first);
    expect(await bothWays(changed.index!)).toEqual(['@@ -1 +1 @@\n-x\n+z\n']);
  });
});
