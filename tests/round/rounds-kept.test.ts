import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Material } from '../../schemas/material';
import { cleanup, emit, makeRepo, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

const keptPath = (repo: TempRepo, n: number) => repo.path(`.review/rounds/${n}/material.json`);
const kept = (repo: TempRepo, n: number) => readFileSync(keptPath(repo, n), 'utf8');
const roundFolders = (repo: TempRepo) => readdirSync(repo.path('.review/rounds')).sort();

function startedRepo(): TempRepo {
  const repo = makeRepo();
  repo.write('a.txt', 'one\n');
  repo.commit('initial');
  return repo;
}

describe('every emission is a round, kept in .review/rounds/<n>/material.json', () => {
  it('keeps each round as it was written, and never rewrites an earlier one', async () => {
    const repo = startedRepo();
    const written: string[] = [];
    for (const n of [1, 2, 3]) {
      repo.write('a.txt', `round ${n}\n`);
      const { summary, material } = await emit(repo.dir);
      expect(summary.round).toBe(n);
      written.push(readFileSync(repo.path('.review/material.json'), 'utf8'));
      const copy = Material.parse(JSON.parse(kept(repo, n)));
      expect(copy.source).toMatchObject({ round: n, tree: material.source.tree });
      expect(repo.rev(`refs/involut/rounds/${n}`)).toBe(material.source.tree);
    }
    // Byte for byte what material.json was when each round was emitted.
    expect([1, 2, 3].map((n) => kept(repo, n))).toEqual(written);
    expect(roundFolders(repo)).toEqual(['1', '2', '3']);
    // The material and what the round compared, nothing else: the temporary copy is gone.
    expect(readdirSync(repo.path('.review/rounds/2')).sort()).toEqual(['material.json', 'round.json']);
  });

  it('skips a round number whose material is kept, and clears a folder left without one', async () => {
    const repo = startedRepo();
    await emit(repo.dir);
    mkdirSync(repo.path('.review/rounds/2'));
    mkdirSync(repo.path('.review/rounds/4'));
    writeFileSync(repo.path('.review/rounds/4/material.json'), 'left by someone else\n');
    mkdirSync(repo.path('.review/rounds/notes'));
    repo.write('a.txt', 'two\n');
    const { summary } = await emit(repo.dir);
    expect(summary.round).toBe(5);
    expect(readFileSync(repo.path('.review/rounds/4/material.json'), 'utf8')).toBe('left by someone else\n');
    // A folder without material is what a stopped round leaves: the next round clears it.
    expect(roundFolders(repo)).toEqual(['1', '4', '5', 'notes']);
    expect(Material.parse(JSON.parse(kept(repo, 5))).source.round).toBe(5);
  });

  it('counts past a kept round even when material.json and the round refs are gone', async () => {
    const repo = startedRepo();
    await emit(repo.dir);
    await emit(repo.dir);
    const second = kept(repo, 2);
    rmSync(repo.path('.review/material.json'));
    for (const n of [1, 2]) repo.git(['update-ref', '-d', `refs/involut/rounds/${n}`]);
    const { summary } = await emit(repo.dir);
    expect(summary.round).toBe(3);
    expect(kept(repo, 2)).toBe(second);
  });

  it('a failed emission gives its round folder back, and material.json stays the last good round', async () => {
    const repo = startedRepo();
    await emit(repo.dir);
    const good = readFileSync(repo.path('.review/material.json'), 'utf8');
    // blobs/ as a file: the emission fails after it has claimed its round.
    rmSync(repo.path('.review/blobs'), { recursive: true, force: true });
    writeFileSync(repo.path('.review/blobs'), 'not a folder\n');
    repo.write('a.txt', 'changed\n');
    await expect(emit(repo.dir)).rejects.toThrow();
    expect(roundFolders(repo)).toEqual(['1']);
    expect(readFileSync(repo.path('.review/material.json'), 'utf8')).toBe(good);
  });
});
