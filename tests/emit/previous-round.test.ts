import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readPreviousRound, topLevelFields } from '../../server/emit/rounds';
import { reviewDir } from '../../server/review-dir';
import { cleanup, emit, makeRepo, refs, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

/** A repository with one round emitted, and a change made after it. */
async function afterOneRound(): Promise<{ repo: TempRepo; tree: string }> {
  const repo = makeRepo();
  repo.write('x.txt', 'x\n');
  repo.write('y.txt', 'y\n');
  repo.commit('initial');
  repo.write('x.txt', 'x in round 1\n');
  const { material } = await emit(repo.dir);
  repo.write('y.txt', 'y after round 1\n');
  return { repo, tree: material.source.tree! };
}

const materialFile = (repo: TempRepo) => repo.path('.review/material.json');

describe('the previous round is read from the head and the end of material.json', () => {
  it('as the emitter wrote it: round, tree and head', async () => {
    const { repo, tree } = await afterOneRound();
    expect(await readPreviousRound(reviewDir(repo.dir))).toEqual({ round: 1, tree, head: repo.rev() });
    const second = await emit(repo.dir, { sinceLast: true });
    expect(second.material.source).toMatchObject({ base: tree, round: 2 });
    expect(refs(second.material)).toEqual(['y.txt']);
  });

  it('a material cut short is no previous round, as before', async () => {
    const { repo } = await afterOneRound();
    const text = readFileSync(materialFile(repo), 'utf8');
    // Cut inside the entries, and cut right after an entry's closing brace.
    for (const cut of [text.length - 40, text.lastIndexOf('}', text.length - 8) + 1]) {
      writeFileSync(materialFile(repo), text.slice(0, cut));
      expect(await readPreviousRound(reviewDir(repo.dir))).toBeNull();
      await expect(emit(repo.dir, { sinceLast: true })).rejects.toMatchObject({ code: 'no-previous-round' });
    }
  });

  it('another layout (one line, source after the entries) is parsed whole and still gives the round', async () => {
    const { repo, tree } = await afterOneRound();
    const { contract, source, generated, material } = JSON.parse(readFileSync(materialFile(repo), 'utf8'));
    writeFileSync(materialFile(repo), JSON.stringify({ contract, generated, material, source }));
    expect(await readPreviousRound(reviewDir(repo.dir))).toEqual({ round: 1, tree, head: repo.rev() });
    const second = await emit(repo.dir, { sinceLast: true });
    expect(second.material.source).toMatchObject({ base: tree, round: 2 });
  });

  it('a source the schema rejects, or no material at all, is no previous round', async () => {
    const { repo } = await afterOneRound();
    const text = readFileSync(materialFile(repo), 'utf8');
    writeFileSync(materialFile(repo), text.replace('"request": null', '"request": "something"'));
    expect(await readPreviousRound(reviewDir(repo.dir))).toBeNull();
    writeFileSync(materialFile(repo), text.replace(/"round": 1/, '"round": 0'));
    expect(await readPreviousRound(reviewDir(repo.dir))).toBeNull();
    writeFileSync(materialFile(repo), text.replace('"contract": 1', '"contract": 2'));
    expect(await readPreviousRound(reviewDir(repo.dir))).toBeNull();
    repo.remove('.review/material.json');
    expect(await readPreviousRound(reviewDir(repo.dir))).toBeNull();
  });
});

describe('topLevelFields', () => {
  it('reads the wanted keys before the stop key, strings with quotes and braces included', () => {
    const text = '{ "a": "x\\"}{", "skip": {"n": [1, {"b": "]"}]}, "b": 2, "c": null, "material": [ {"cut here';
    expect(topLevelFields(text, ['a', 'b', 'c'], 'material')).toEqual({ a: 'x"}{', skip: undefined, b: 2, c: null });
  });

  it('null when the stop key is not reached, a key repeats, or the text is not an object', () => {
    expect(topLevelFields('{"a": 1, "b": "unterminated', ['a'], 'material')).toBeNull();
    expect(topLevelFields('{"a": 1, "a": 2, "material": []}', ['a'], 'material')).toBeNull();
    expect(topLevelFields('[{"a": 1}]', ['a'], 'material')).toBeNull();
    expect(topLevelFields('{"a": 1, "material": {}}', ['a'], 'material')).toBeNull();
  });

  it('__proto__ is a key like any other', () => {
    const found = topLevelFields('{"__proto__": {"contract": 1}, "material": []}', ['contract'], 'material');
    expect(found?.contract).toBeUndefined();
  });
});
