import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, emit, makeRepo, refs, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

const CARDS = '{ "request": "make it fast",\n  "cards": [] }\n';
const NOTES = '{\n\t"notes": {} }';

/** Paths in a tree that sit under .review/ (none may). */
const reviewPathsIn = (repo: TempRepo, tree: string) =>
  repo
    .git(['ls-tree', '-r', '-z', '--name-only', tree])
    .split('\0')
    .filter((p) => p === '.review' || p.startsWith('.review/'));

describe('.review/ never enters the capture', () => {
  it('even when .gitignore un-ignores it with !.review', async () => {
    const repo = makeRepo();
    repo.write('.gitignore', '.review\n!.review\n!.review/**\n');
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    repo.write('a.txt', 'b\n');
    repo.write('.review/cards.json', CARDS);
    repo.write('.review/notes.json', NOTES);
    repo.write('.review/blobs/stale.png', 'stale');
    const first = await emit(repo.dir);
    const second = await emit(repo.dir);
    for (const { material } of [first, second]) {
      expect(refs(material)).toEqual(['a.txt']);
      expect(reviewPathsIn(repo, material.source.tree!)).toEqual([]);
    }
    expect(first.summary.warnings).toEqual([]);
    expect(readFileSync(repo.path('.git/info/exclude'), 'utf8').split('\n')).toContain('/.review/');
  });

  it('even when .review/ is tracked, and then the run warns', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.write('.review/cards.json', CARDS);
    repo.write('.review/material.json', '{"old": true}\n');
    repo.commit('oops: committed the review folder');
    repo.write('a.txt', 'b\n');
    repo.write('.review/notes.json', NOTES);
    const { material, summary } = await emit(repo.dir);
    expect(refs(material)).toEqual(['a.txt']);
    expect(reviewPathsIn(repo, material.source.tree!)).toEqual([]);
    expect(summary.warnings).toHaveLength(1);
    expect(summary.warnings[0]).toMatch(/\.review\/ is tracked/);
    expect(summary.warnings[0]).toContain('git rm -r --cached .review');
    // The user's index still tracks it: Involut tells, it does not untrack.
    expect(repo.git(['ls-files', '.review'])).toBe('.review/cards.json\n.review/material.json\n');
  });
});

describe('rounds', () => {
  it('source.round counts up and refs/involut/rounds/<n> points at source.tree; info/exclude gets one line', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    const trees: string[] = [];
    for (let n = 1; n <= 3; n++) {
      repo.write('a.txt', `round ${n}\n`);
      const { material, summary } = await emit(repo.dir);
      expect(material.source.round).toBe(n);
      expect(summary.round).toBe(n);
      expect(repo.rev(`refs/involut/rounds/${n}`)).toBe(material.source.tree);
      trees.push(material.source.tree!);
    }
    expect(new Set(trees).size).toBe(3);
    // Earlier pins do not move.
    expect(repo.rev('refs/involut/rounds/1')).toBe(trees[0]);
    const exclude = readFileSync(repo.path('.git/info/exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/.review/')).toHaveLength(1);
    // Written through a temporary file and a rename: nothing half-written is left behind.
    expect(readdirSync(repo.path('.review')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('cards.json and notes.json are byte-identical after a run', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    repo.write('a.txt', 'b\n');
    repo.write('.review/cards.json', CARDS);
    repo.write('.review/notes.json', NOTES);
    await emit(repo.dir);
    repo.write('a.txt', 'c\n');
    await emit(repo.dir, { sinceLast: true });
    expect(readFileSync(repo.path('.review/cards.json'), 'utf8')).toBe(CARDS);
    expect(readFileSync(repo.path('.review/notes.json'), 'utf8')).toBe(NOTES);
  });
});
