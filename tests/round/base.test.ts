import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { InvolutError } from '../../server/cli/errors';
import { cleanup, emit, entryOf, makeRepo, readMaterial, refs, runCli, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

describe('a feature branch: base is the merge-base with main, commits by file', () => {
  let repo: TempRepo;
  let material: Material;
  let forkPoint: string;
  let mainTip: string;

  beforeAll(async () => {
    repo = makeRepo();
    for (const f of ['a.txt', 'b.txt', 'c.txt', 'e.txt']) repo.write(f, `${f} v1\nsecond line\nthird line\n`);
    forkPoint = repo.commit('initial');
    repo.git(['switch', '--quiet', '-c', 'feature']);
    repo.write('a.txt', 'a.txt v2\nsecond line\nthird line\n');
    repo.write('c.txt', 'c.txt v2\nsecond line\nthird line\n');
    repo.commit('feat: one');
    repo.write('a.txt', 'a.txt v3\nsecond line\nthird line\n');
    repo.write('b.txt', 'b.txt v2\nsecond line\nthird line\n');
    repo.commit('feat: two');
    repo.move('c.txt', 'd/c.txt');
    repo.commit('refactor: move c');
    repo.git(['switch', '--quiet', 'main']);
    repo.write('z.txt', 'only on main\n');
    mainTip = repo.commit('main: later work');
    repo.git(['switch', '--quiet', 'feature']);
    repo.write('e.txt', 'e.txt edited, not committed\nsecond line\nthird line\n');
    ({ material } = await emit(repo.dir));
  });

  it('compares against the merge-base and says why', () => {
    expect(material.source.base).toBe(forkPoint);
    expect(material.source.base_reason).toBe('merge-base of feature with main');
    expect(refs(material)).toEqual(['a.txt', 'b.txt', 'd/c.txt', 'e.txt']);
  });

  it('commits: the subjects in base..HEAD that touched each file, oldest first', () => {
    expect(entryOf(material, 'a.txt').commits).toEqual(['feat: one', 'feat: two']);
    expect(entryOf(material, 'b.txt').commits).toEqual(['feat: two']);
  });

  it('a file renamed in a commit lists the rename commit once, after its earlier edits', () => {
    const e = entryOf(material, 'd/c.txt');
    expect(e).toMatchObject({ status: 'renamed', from: 'c.txt' });
    expect(e.commits).toEqual(['feat: one', 'refactor: move c']);
  });

  it('an uncommitted-only file has commits []', () => {
    expect(entryOf(material, 'e.txt').commits).toEqual([]);
  });

  it('--base REF wins over everything and is named in base_reason', async () => {
    const { material: m } = await emit(repo.dir, { ref: 'main' });
    expect(m.source.base).toBe(mainTip);
    expect(m.source.base_reason).toBe('--base main');
    expect(entryOf(m, 'z.txt').status).toBe('deleted');
    expect(entryOf(m, 'a.txt').commits).toEqual(['feat: one', 'feat: two']);
    expect(entryOf(m, 'z.txt').commits).toEqual([]);
  });

  it('--base takes a commit id too', async () => {
    const { material: m } = await emit(repo.dir, { ref: repo.rev('feature~1') });
    expect(m.source.base).toBe(repo.rev('feature~1'));
    expect(refs(m)).toEqual(['d/c.txt', 'e.txt']);
    expect(entryOf(m, 'd/c.txt').commits).toEqual(['refactor: move c']);
  });

  it('--base takes a tree id too', async () => {
    const tree = repo.git(['rev-parse', 'feature~1^{tree}']).trim();
    const { material: m } = await emit(repo.dir, { ref: tree });
    expect(m.source).toMatchObject({ base: tree, base_reason: `--base ${tree}` });
    expect(refs(m)).toEqual(['d/c.txt', 'e.txt']);
  });
});

describe('on the default branch', () => {
  it('compares against HEAD: committed work is not in the round, working changes are', async () => {
    const repo = makeRepo();
    repo.write('f.txt', 'one\n');
    repo.commit('first');
    repo.write('f.txt', 'two\n');
    const head = repo.commit('second');
    repo.write('g.txt', 'working\n');
    const { material } = await emit(repo.dir);
    expect(material.source).toMatchObject({ base: head, head, base_reason: 'HEAD (on the default branch main)' });
    expect(refs(material)).toEqual(['g.txt']);
  });
});

describe('--begin, then work, then rounds (built CLI)', () => {
  it('compares against the begun state: changes made before --begin are not in the round', async () => {
    const repo = makeRepo();
    repo.write('pre.txt', 'before\n');
    repo.write('work.txt', 'start\n');
    repo.commit('initial');
    repo.write('pre.txt', 'changed before the round began\n');
    repo.write('pre-untracked.txt', 'also before\n');

    const begun = await runCli(['rounds', '--begin', '--json'], repo.dir);
    expect(begun.code, begun.stderr).toBe(0);
    const record = JSON.parse(begun.stdout) as { head: string; tree: string };
    expect(record.head).toBe(repo.rev());
    expect(JSON.parse(readFileSync(path.join(repo.dir, '.review/begin.json'), 'utf8'))).toMatchObject(record);

    repo.write('work.txt', 'start\nagent commit\n');
    repo.commit('agent: work');
    repo.write('new.txt', 'agent file\n');
    const run = await runCli(['rounds', '--json'], repo.dir);
    expect(run.code, run.stderr).toBe(0);
    const material = readMaterial(repo.dir);
    expect(material.source.base).toBe(record.tree);
    expect(material.source.base_reason).toContain('--begin');
    expect(refs(material)).toEqual(['new.txt', 'work.txt']);
    expect(entryOf(material, 'work.txt').commits).toEqual(['agent: work']);
    expect(JSON.parse(run.stdout)).toMatchObject({ base: record.tree, files: 2, by_status: { added: 1, modified: 1 } });
  });
});

describe('the order of the bases', () => {
  it('--base over --since-last over --begin over the merge-base', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const fork = repo.commit('initial');
    repo.git(['switch', '--quiet', '-c', 'feature']);
    repo.write('a.txt', 'a on feature\n');
    const featureHead = repo.commit('feature work');

    const mergeBase = await emit(repo.dir);
    expect(mergeBase.material.source).toMatchObject({ base: fork, base_reason: 'merge-base of feature with main' });

    const begun = await runCli(['rounds', '--begin', '--json'], repo.dir);
    expect(begun.code, begun.stderr).toBe(0);
    const beginTree = (JSON.parse(begun.stdout) as { tree: string }).tree;
    repo.write('b.txt', 'after begin\n');
    const fromBegin = await emit(repo.dir);
    expect(fromBegin.material.source.base).toBe(beginTree);
    expect(refs(fromBegin.material)).toEqual(['b.txt']);

    repo.write('c.txt', 'after the previous round\n');
    const sinceLast = await emit(repo.dir, { sinceLast: true });
    expect(sinceLast.material.source.base).toBe(fromBegin.material.source.tree);
    expect(refs(sinceLast.material)).toEqual(['c.txt']);

    const explicit = await emit(repo.dir, { ref: 'main' });
    expect(explicit.material.source).toMatchObject({ base: fork, base_reason: '--base main', head: featureHead });
    expect(refs(explicit.material)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });
});

describe('--since-last', () => {
  it('only what changed since the previous round, based on its tree', async () => {
    const repo = makeRepo();
    repo.write('x.txt', 'x\n');
    repo.write('y.txt', 'y\n');
    repo.commit('initial');
    repo.write('x.txt', 'x reviewed in round 1\n');
    const first = await emit(repo.dir);
    expect(refs(first.material)).toEqual(['x.txt']);

    repo.write('y.txt', 'y changed after round 1\n');
    const second = await emit(repo.dir, { sinceLast: true });
    expect(second.material.source).toMatchObject({ base: first.material.source.tree, round: 2 });
    expect(second.material.source.base_reason).toContain('round 1');
    expect(refs(second.material)).toEqual(['y.txt']);
    expect(entryOf(second.material, 'y.txt').diff).toBe('@@ -1 +1 @@\n-y\n+y changed after round 1\n');
  });

  it('without a previous round: error no-previous-round', async () => {
    const repo = makeRepo();
    repo.write('x.txt', 'x\n');
    repo.commit('initial');
    await expect(emit(repo.dir, { sinceLast: true })).rejects.toMatchObject({ code: 'no-previous-round' });
  });
});

describe('an unknown base ref', () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = makeRepo();
    repo.write('x.txt', 'x\n');
    repo.commit('initial');
    repo.write('x.txt', 'changed\n');
  });

  const nothingWritten = () => {
    expect(existsSync(path.join(repo.dir, '.review'))).toBe(false);
    expect(repo.git(['for-each-ref', 'refs/involut/'])).toBe('');
    expect(readFileSync(path.join(repo.dir, '.git/info/exclude'), 'utf8')).not.toContain('.review');
  };

  it.each(['no-such-branch', '--help', 'HEAD~5'])('%s: InvolutError unknown-base, nothing written', async (ref) => {
    const error = await emit(repo.dir, { ref }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvolutError);
    expect(error).toMatchObject({ code: 'unknown-base' });
    expect((error as Error).message).toContain(ref);
    nothingWritten();
  });

  it('through the CLI: exit 1 and a JSON error', async () => {
    const run = await runCli(['rounds', '--base', 'no-such-branch', '--json'], repo.dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'unknown-base' } });
    nothingWritten();
  });
});
