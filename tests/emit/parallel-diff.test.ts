/**
 * The patches of a big round are made by two gits at once (server/git/diff.ts splitDiff):
 * the material must be exactly the one a single git gives, whatever the split point,
 * with renames across the halves, names that are pathspec magic or glob characters,
 * binaries and their before copies, symlinks, a type change and a submodule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureIndex, captureTree } from '../../server/git/capture';
import { diffTrees, splitDiff, splitStats, type FileDiff, type RawChange } from '../../server/git/diff';
import { openRepo } from '../../server/git/repo';
import { splitSettings } from '../../server/emit/material';
import { binaryBytes, cleanup, configureIdentity, emit, lines, makeRepo, png, repoAt, tempDir, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);
const defaultSplit = splitSettings.fromBytes;
afterEach(() => {
  splitSettings.fromBytes = defaultSplit;
});

/** Odd names: spaces, glob characters, pathspec magic, a newline, a backslash, a quote, non-ASCII. */
const ODD_NAMES = ['odd/with space.txt', 'odd/glob*?[ab].txt', 'odd/:(exclude)magic.txt', 'odd/new\nline.txt', 'odd/back\\slash.txt', 'odd/quote".txt', 'odd/ünïcode.txt'];

/** A text file of `n` numbered lines whose every tenth line says `tag`. */
const text = (n: number, tag: string) => lines(n).replace(/^(line \d*0)$/gm, `$1 ${tag}`);

let repo: TempRepo;
let base: string;

beforeAll(() => {
  const upstream = makeRepo({ dir: tempDir('involut-sub-') });
  upstream.write('lib.txt', 'version 1\n');
  upstream.commit('sub: one');

  repo = makeRepo();
  for (let i = 0; i < 40; i++) repo.write(`m/file ${String(i).padStart(2, '0')}.txt`, text(300 + i * 10, 'base'));
  for (const name of ODD_NAMES) repo.write(name, text(50, 'base'));
  repo.write('a/renamed-late.txt', text(400, 'moves to the end'));
  repo.write('z/renamed-early.txt', text(400, 'moves to the start'));
  repo.write('k/staged-rename.txt', text(400, 'git mv'));
  repo.write('img/changes.png', png(8, 8));
  repo.write('img/gone.png', png(4, 4, [1, 2, 3]));
  repo.write('bin/data.bin', binaryBytes(3000, 1));
  repo.write('run.sh', '#!/bin/sh\necho hi\n');
  repo.write('becomes-link.txt', 'a plain file\n');
  repo.write('target.txt', 'target\n');
  repo.symlink('target.txt', 'link');
  repo.git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', upstream.dir, 'vendor/sub']);
  base = repo.commit('base');

  for (let i = 0; i < 40; i++) if (i % 3 !== 0) repo.write(`m/file ${String(i).padStart(2, '0')}.txt`, text(300 + i * 10, `work ${i}`));
  for (const name of ODD_NAMES) repo.write(name, text(50, 'work'));
  // A rename whose old path sorts first and new path last, and the other way round (worktree moves).
  repo.remove('a/renamed-late.txt');
  repo.write('y/renamed-late.txt', text(400, 'moves to the end') + 'one more line\n');
  repo.remove('z/renamed-early.txt');
  repo.write('b-dir/renamed-early.txt', text(400, 'moves to the start'));
  repo.move('k/staged-rename.txt', 'n/staged-rename.txt');
  repo.write('img/changes.png', png(9, 7));
  repo.remove('img/gone.png');
  repo.write('bin/data.bin', binaryBytes(3000, 2));
  repo.chmod('run.sh', 0o755);
  repo.remove('becomes-link.txt');
  repo.symlink('target.txt', 'becomes-link.txt');
  repo.remove('link');
  repo.symlink('run.sh', 'link');
  repo.write('untracked/new file.txt', text(30, 'new'));
  repo.write('.env', 'SECRET=1\n');
  const checkout = repoAt(repo.path('vendor/sub'));
  configureIdentity(checkout);
  checkout.write('lib.txt', 'version 2\n');
  checkout.commit('sub: two');
});

/** material.json as written, without the two lines that differ from one emission to the next. */
function materialText(): string {
  return readFileSync(repo.path('.review/material.json'), 'utf8').replace(/\n {2,4}"(generated|round)": [^\n]*/g, '');
}

const summaryFigures = ({ files, byStatus, additions, deletions, binaries, withheld, generated }: Awaited<ReturnType<typeof emit>>['summary']) => ({
  files,
  byStatus,
  additions,
  deletions,
  binaries,
  withheld,
  generated,
});

describe('a round split across two gits', () => {
  it('writes the same material.json, byte for byte, and the same before copies, as one git', async () => {
    splitSettings.fromBytes = Number.POSITIVE_INFINITY;
    const one = await emit(repo.dir);
    const oneText = materialText();
    const oneBlobs = readdirSync(repo.path('.review/blobs')).sort();

    splitSettings.fromBytes = 0;
    const splits = splitSettings.splits;
    const two = await emit(repo.dir);
    expect(splitSettings.splits).toBe(splits + 1);
    expect(materialText()).toBe(oneText);
    expect(readdirSync(repo.path('.review/blobs')).sort()).toEqual(oneBlobs);
    expect(summaryFigures(two.summary)).toEqual(summaryFigures(one.summary));
    expect(two.material.source.tree).toBe(one.material.source.tree);

    const byRef = new Map(two.material.material.map((e) => [e.ref, e]));
    expect(byRef.get('y/renamed-late.txt')).toMatchObject({ status: 'renamed', from: 'a/renamed-late.txt' });
    expect(byRef.get('b-dir/renamed-early.txt')).toMatchObject({ status: 'renamed', from: 'z/renamed-early.txt' });
    expect(byRef.get('n/staged-rename.txt')).toMatchObject({ status: 'renamed', from: 'k/staged-rename.txt' });
    for (const name of ODD_NAMES) expect(byRef.get(name)?.diff).toContain('+line 50 work');
    expect(byRef.get('img/gone.png')).toMatchObject({ status: 'deleted', binary: true });
    expect(byRef.get('.env')?.withheld).toBeDefined();
    expect(byRef.get('vendor/sub')?.submodule).toBeDefined();
    expect(byRef.get('becomes-link.txt')).toMatchObject({ symlink: true });
  });

  it('gives the files of one whole diff, in its order, at every split point', async () => {
    const git = await openRepo(repo.dir);
    const tree = await captureTree(git);
    const whole: FileDiff[] = [];
    for await (const file of diffTrees(git, base, tree, async () => {})) whole.push(file);
    expect(whole.length).toBeGreaterThan(40);

    let splitsUsed = 0;
    for (let at = 1; at < whole.length; at++) {
      const diff = await splitDiff(git, base, { tree }, { early: null, at: async () => at });
      const files: FileDiff[] = [];
      const second: FileDiff[] = [];
      await Promise.all([
        (async () => {
          for await (const file of diff.first) files.push(file);
        })(),
        (async () => {
          for await (const file of diff.second!) second.push(file);
        })(),
      ]);
      if (second.length > 0) splitsUsed++;
      expect(summarize([...files, ...second]), `split at ${at}`).toEqual(summarize(whole));
    }
    // The literal pathspecs give the second git the same changes at every point: it was used each time.
    expect(splitsUsed).toBe(whole.length - 1);
  });
});

describe('a git started during the capture', () => {
  it('makes the first part\u2019s patches once the capture staged them, staged changes included, and gives the material of one git', async () => {
    const other = makeRepo();
    for (const folder of ['a', 'b', 'c', 'd']) for (let i = 0; i < 10; i++) other.write(`${folder}/sub/file ${i}.txt`, text(400, 'base'));
    for (const folder of ['a', 'd']) {
      other.write(`${folder}/gone.txt`, text(100, 'deleted'));
      other.write(`${folder}/staged-gone.txt`, text(100, 'deleted with git rm'));
    }
    other.commit('base');
    for (const folder of ['a', 'b', 'c', 'd']) for (let i = 0; i < 10; i += 2) other.write(`${folder}/sub/file ${i}.txt`, text(400, `work ${folder}`));
    // Changes the capture does not list (staged, the working file as staged), in the part
    // made during the capture (a/) and in the rest (d/).
    for (const folder of ['a', 'd']) {
      other.write(`${folder}/sub/file 1.txt`, text(400, 'staged'));
      other.git(['add', `${folder}/sub/file 1.txt`]);
      other.write(`${folder}/staged-new.txt`, text(50, 'staged new file'));
      other.git(['add', `${folder}/staged-new.txt`]);
      other.git(['rm', '--quiet', `${folder}/staged-gone.txt`]);
      other.remove(`${folder}/gone.txt`);
    }
    other.write('e/new.txt', text(50, 'untracked'));

    splitSettings.fromBytes = Number.POSITIVE_INFINITY;
    await emit(other.dir);
    const oneText = readFileSync(other.path('.review/material.json'), 'utf8').replace(/\n {2,4}"(generated|round)": [^\n]*/g, '');
    splitSettings.fromBytes = 0;
    const [early, splits] = [splitStats.early, splitSettings.splits];
    await emit(other.dir);
    expect(splitStats.early, 'the git started during the capture used').toBe(early + 1);
    expect(splitSettings.splits).toBe(splits + 1);
    expect(readFileSync(other.path('.review/material.json'), 'utf8').replace(/\n {2,4}"(generated|round)": [^\n]*/g, '')).toBe(oneText);
  });
});

describe('the diff against the temporary index (--cached)', () => {
  it('gives the files of the diff against its tree, whole and split', async () => {
    const git = await openRepo(repo.dir);
    const index = await captureIndex(git);
    try {
      const tree = await index.writeTree();
      const whole: FileDiff[] = [];
      for await (const file of diffTrees(git, base, tree, async () => {})) whole.push(file);
      for (const at of [null, Math.floor(whole.length / 3)]) {
        const diff = await splitDiff(git, base, { cached: index.env }, { early: null, at: async () => at });
        const files: FileDiff[] = [];
        const second: FileDiff[] = [];
        await Promise.all([
          (async () => {
            for await (const file of diff.first) files.push(file);
          })(),
          (async () => {
            for await (const file of diff.second ?? []) second.push(file);
          })(),
        ]);
        expect(second.length > 0).toBe(at !== null);
        expect(summarize([...files, ...second])).toEqual(summarize(whole));
      }
    } finally {
      await index.dispose();
    }
  });
});

describe('when the second git would see the round differently', () => {
  it('falls back to the first git for everything, with the same files', async () => {
    // `p` is renamed away while a folder `p/` appears: the second git's literal pathspec `p`
    // (the rename's old path) also takes in `p/inner.txt`, which the first half holds.
    const other = makeRepo();
    other.write('p', text(60, 'a file called p'));
    other.write('q.txt', text(20, 'q'));
    const otherBase = other.commit('base');
    other.remove('p');
    other.write('p/inner.txt', text(10, 'inner'));
    other.write('zz/p-renamed', text(60, 'a file called p'));
    other.write('q.txt', text(20, 'q changed'));
    const git = await openRepo(other.dir);
    const tree = await captureTree(git);
    const whole: FileDiff[] = [];
    for await (const file of diffTrees(git, otherBase, tree, async () => {})) whole.push(file);
    expect(whole.map((f) => [f.change.status, f.change.path])).toEqual([
      ['A', 'p/inner.txt'],
      ['M', 'q.txt'],
      ['R', 'zz/p-renamed'],
    ]);

    const diff = await splitDiff(git, otherBase, { tree }, { early: null, at: async () => 2 });
    const first: FileDiff[] = [];
    for await (const file of diff.first) first.push(file);
    const second: FileDiff[] = [];
    for await (const file of diff.second!) second.push(file);
    expect(second).toEqual([]);
    expect(summarize(first)).toEqual(summarize(whole));
  });
});

function summarize(files: FileDiff[]): Array<{ change: RawChange; binary: boolean; hunks: string }> {
  return files.map((f) => ({ change: f.change, binary: f.binary, hunks: Buffer.concat(f.hunks).toString('base64') }));
}
