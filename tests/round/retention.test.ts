import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryBytes, cleanup, emit, makeRepo, runCli, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

const folders = (repo: TempRepo) =>
  readdirSync(repo.path('.review/rounds'))
    .map(Number)
    .sort((a, b) => a - b);
const refNumbers = (repo: TempRepo) =>
  repo
    .git(['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/'])
    .split('\n')
    .filter(Boolean)
    .map((ref) => Number(ref.split('/').at(-1)))
    .sort((a, b) => a - b);
const blobs = (repo: TempRepo) => readdirSync(repo.path('.review/blobs')).sort();
const roundAt = (repo: TempRepo, n: number) =>
  (JSON.parse(readFileSync(repo.path(`.review/rounds/${n}/round.json`), 'utf8')) as { at: string }).at;

/** Waits until the wall clock has left the second `at` (round times are kept to the second). */
async function pastSecondOf(at: string): Promise<void> {
  while (Date.now() < Date.parse(at) + 1000) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('old rounds go away by themselves', () => {
  it('keeps the last `keep` rounds and every round still needed, and prunes the rest with their refs and blobs', async () => {
    const repo = makeRepo();
    repo.write('.involut.json', '{"keep": 3}\n');
    repo.write('data.bin', binaryBytes(600, 1));
    repo.commit('initial');
    // Round 1: an open note is written on it, so it stays past `keep`.
    repo.write('data.bin', binaryBytes(600, 2));
    const first = await emit(repo.dir);
    expect(first.material.material[0]!.before).toMatch(/^blobs\//);
    const firstBlob = first.material.material[0]!.before!.slice('blobs/'.length);
    const note = { title: 'data.bin', refs: ['data.bin'], text: 'why this?', at: roundAt(repo, 1) };
    writeFileSync(repo.path('.review/notes.json'), JSON.stringify({ contract: 1, notes: { 'file:data.bin': note } }));
    await pastSecondOf(roundAt(repo, 1));
    // Rounds 2 to 6, each on a new base, so each keeps its own before copy.
    const trees: Record<number, string> = { 1: first.summary.tree };
    const blobOf: Record<number, string> = { 1: firstBlob };
    for (let n = 2; n <= 5; n++) {
      repo.commit(`work ${n}`);
      repo.write('data.bin', binaryBytes(600, n + 1));
      const { summary, material } = await emit(repo.dir);
      expect(summary.round).toBe(n);
      trees[n] = summary.tree;
      blobOf[n] = material.material[0]!.before!.slice('blobs/'.length);
    }
    expect(folders(repo)).toEqual([1, 3, 4, 5]);
    repo.commit('work 6');
    repo.write('data.bin', binaryBytes(600, 7));
    const sixth = await runCli(['rounds'], repo.dir);
    expect(sixth.code, sixth.stderr).toBe(0);
    // One line says what went, and why round 1 stayed.
    expect(sixth.stdout).toContain(
      'Pruned round 3 (its ref and folder and 1 before copy), keeping the last 3; also kept round 1 (an open note was written on it).',
    );
    expect(folders(repo)).toEqual([1, 4, 5, 6]);
    expect(refNumbers(repo)).toEqual([1, 4, 5, 6]);
    expect(blobs(repo)).toEqual(expect.arrayContaining([firstBlob, blobOf[4], blobOf[5]]));
    expect(blobs(repo)).not.toContain(blobOf[2]);
    expect(blobs(repo)).not.toContain(blobOf[3]);
    // No git gc: the pruned rounds' trees stay in the object store until git's own gc.
    expect(repo.git(['cat-file', '-t', trees[2]!]).trim()).toBe('tree');

    // Resolved, the note no longer holds round 1; `prune --keep 1` keeps the newest and the one before it.
    writeFileSync(
      repo.path('.review/notes.json'),
      JSON.stringify({ contract: 1, notes: { 'file:data.bin': { ...note, resolvedAt: note.at } } }),
    );
    const pruned = await runCli(['prune', '--keep', '1', '--json'], repo.dir);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({
      pruned: [1, 4],
      keep: 1,
      also_kept: [{ round: 5, why: 'the viewer compares the newest round with it' }],
    });
    expect(folders(repo)).toEqual([5, 6]);
    expect(refNumbers(repo)).toEqual([5, 6]);
    expect(existsSync(repo.path(`.review/blobs/${firstBlob}`))).toBe(false);
    // What is served is untouched: the newest round and its before copy.
    expect(readFileSync(repo.path('.review/material.json'))).toEqual(
      readFileSync(repo.path('.review/rounds/6/material.json')),
    );
    // A before copy a killed round left half written is swept, never kept as a blob.
    writeFileSync(repo.path('.review/blobs/data.bin.abc1234.bin.4242.tmp'), 'half');
    // The flag may come before the command, as every flag may.
    const again = await runCli(['--keep', '1', 'prune'], repo.dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to prune');
    expect(blobs(repo).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const bad = await runCli(['prune', '--keep', '0'], repo.dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--keep takes a whole number of rounds');
  });
});
