import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { cleanup, emit, entryOf, makeRepo, readMaterial, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

describe('provenance: where each change of a round stands in git', () => {
  let repo: TempRepo;
  let material: Material;
  let indexBefore: Buffer;
  const commits: string[] = [];

  beforeAll(async () => {
    repo = makeRepo();
    for (const f of ['committed.txt', 'both.txt', 'staged.txt', 'unstaged.txt', 'gone.txt', 'old-name.txt'])
      repo.write(f, `${f}\nsecond line\n`);
    repo.commit('initial');
    repo.git(['switch', '--quiet', '-c', 'feature']);
    repo.write('committed.txt', 'committed.txt v2\nsecond line\n');
    repo.write('both.txt', 'both.txt v2\nsecond line\n');
    commits.push(repo.commit('feat: two files'));
    repo.git(['commit', '--quiet', '--allow-empty', '-m', 'chore: an empty commit']);
    commits.push(repo.git(['rev-parse', 'HEAD']).trim());
    // Then work left uncommitted: a committed file edited again, staged and unstaged edits,
    // an unstaged deletion, a new file, and a rename done in the working tree only.
    repo.write('both.txt', 'both.txt v3\nsecond line\n');
    repo.write('staged.txt', 'staged.txt v2\nsecond line\n');
    repo.git(['add', 'staged.txt']);
    repo.write('unstaged.txt', 'unstaged.txt v2\nsecond line\n');
    repo.remove('gone.txt');
    repo.write('untracked.txt', 'new file\n');
    repo.remove('old-name.txt');
    repo.write('new-name.txt', 'old-name.txt\nsecond line\n');
    indexBefore = repo.read('.git/index');
    ({ material } = await emit(repo.dir));
  });

  it('marks each file with the states its change is in', () => {
    const states = (ref: string) => entryOf(material, ref).provenance;
    expect(states('committed.txt')).toEqual(['committed']);
    expect(states('both.txt')).toEqual(['committed', 'unstaged']);
    expect(states('staged.txt')).toEqual(['staged']);
    expect(states('unstaged.txt')).toEqual(['unstaged']);
    expect(states('gone.txt')).toEqual(['unstaged']);
    expect(states('untracked.txt')).toEqual(['untracked']);
    // The old path was deleted in the working tree, the new one is not yet known to git.
    expect(entryOf(material, 'new-name.txt').from).toBe('old-name.txt');
    expect(states('new-name.txt')).toEqual(['unstaged', 'untracked']);
  });

  it('a staged file edited again is staged and unstaged', async () => {
    repo.write('staged.txt', 'staged.txt v3\nsecond line\n');
    await emit(repo.dir);
    expect(entryOf(readMaterial(repo.dir), 'staged.txt').provenance).toEqual(['staged', 'unstaged']);
  });

  it("lists the round's commits with ids and subjects, the empty one too", () => {
    expect(material.source.commits).toEqual([
      { id: commits[0], subject: 'feat: two files' },
      { id: commits[1], subject: 'chore: an empty commit' },
    ]);
    expect(entryOf(material, 'both.txt').commits).toEqual(['feat: two files']);
  });

  it("leaves the user's index as it was", () => {
    expect(repo.read('.git/index').equals(indexBefore)).toBe(true);
  });
});

describe('provenance in a repository with no commits', () => {
  it('staged files are staged, the rest untracked', async () => {
    const repo = makeRepo();
    repo.write('added.txt', 'in the index\n');
    repo.git(['add', 'added.txt']);
    repo.write('loose.txt', 'not in the index\n');
    const { material } = await emit(repo.dir);
    expect(entryOf(material, 'added.txt').provenance).toEqual(['staged']);
    expect(entryOf(material, 'loose.txt').provenance).toEqual(['untracked']);
    expect(material.source.commits).toEqual([]);
  });
});

describe('provenance of a name that is not UTF-8', () => {
  it('is found under the same name as its entry: staged, and untracked', async () => {
    const repo = makeRepo();
    repo.write('README.md', '# r\n');
    repo.commit('initial');
    // Written by bytes: é as Latin-1 (0xE9), which is no UTF-8.
    const file = (stem: string) => Buffer.concat([Buffer.from(`${repo.dir}/${stem}`), Buffer.from([0xe9, 0x2e, 0x74])]);
    writeFileSync(file('staged-caf'), 'staged\n');
    repo.git(['add', '--all']);
    writeFileSync(file('loose-caf'), 'untracked\n');
    const { material } = await emit(repo.dir);
    expect(entryOf(material, 'staged-caf⟨0xE9⟩.t').provenance).toEqual(['staged']);
    expect(entryOf(material, 'loose-caf⟨0xE9⟩.t').provenance).toEqual(['untracked']);
  });
});
