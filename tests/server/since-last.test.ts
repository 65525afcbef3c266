import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SinceLast } from '../../schemas/api';
import { injectApp, makeRepo, removeTempDirs, runRounds, viewerHeaders, type Repo } from '../helpers/server';

const PNG_1 = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000018', 'hex');
const PNG_2 = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000002080600000018', 'hex');

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(removeTempDirs);

async function sinceLast(repo: Repo, headers = viewerHeaders()): Promise<SinceLast> {
  const app = await injectApp(repo);
  apps.push(app);
  const response = await app.inject({ method: 'GET', url: '/api/since-last', headers });
  expect(response.statusCode, response.body).toBe(200);
  return SinceLast.parse(response.json());
}

function ok(answer: SinceLast) {
  if (answer.state !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(answer)}`);
  return answer.data;
}

const material = (repo: Repo) => JSON.parse(readFileSync(repo.review('material.json'), 'utf8'));
const treeOf = (repo: Repo, n: number) =>
  JSON.parse(readFileSync(repo.review(`rounds/${n}/material.json`), 'utf8')).source.tree as string;

/** Two rounds from one begin: round 1 edits a.txt and adds b.txt, round 2 edits a.txt again and adds c.txt. */
function twoRounds(): Repo {
  const repo = makeRepo({ 'a.txt': 'one\ntwo\nthree\n', 'logo.png': PNG_1 });
  repo.write('a.txt', 'one\nTWO\nthree\n');
  repo.write('b.txt', 'new in round 1\n');
  runRounds(repo);
  repo.write('a.txt', 'one\nTWO!\nthree\n');
  repo.write('c.txt', 'new in round 2\n');
  runRounds(repo);
  return repo;
}

describe('GET /api/since-last', () => {
  it('answers none on the first round, saying why', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    repo.write('a.txt', 'two\n');
    runRounds(repo);
    expect(await sinceLast(repo)).toEqual({ state: 'none', reason: expect.stringMatching(/first round/) });
  });

  it('gives only what changed between the previous round and this one, with git’s own diff', async () => {
    const repo = twoRounds();
    expect(
      material(repo)
        .material.map((e: { ref: string }) => e.ref)
        .sort(),
    ).toEqual(['a.txt', 'b.txt', 'c.txt']);
    const data = ok(await sinceLast(repo));
    expect(data).toMatchObject({ from: 1, to: 2 });
    expect(data.material.map((e) => [e.ref, e.status])).toEqual([
      ['a.txt', 'modified'],
      ['c.txt', 'added'],
    ]);
    const gitDiff = execFileSync('git', ['diff', treeOf(repo, 1), treeOf(repo, 2), '--', 'a.txt'], {
      cwd: repo.dir,
      encoding: 'utf8',
    });
    expect(data.material[0]!.diff).toBe(gitDiff.slice(gitDiff.indexOf('@@')));
    expect(data.material[0]).toMatchObject({ additions: 1, deletions: 1 });
    // Commits between two rounds are not looked up: left out, not claimed to be none.
    expect(data.material[0]).not.toHaveProperty('commits');
  });

  it('a binary changed between rounds gets no before copy, and nothing is written to .review/blobs/', async () => {
    const repo = twoRounds();
    const blobs = readdirSync(repo.review('blobs')).sort();
    repo.write('logo.png', PNG_2);
    runRounds(repo);
    const blobsAfterRound = readdirSync(repo.review('blobs')).sort();
    const data = ok(await sinceLast(repo));
    expect(data).toMatchObject({ from: 2, to: 3 });
    const logo = data.material.find((e) => e.ref === 'logo.png')!;
    expect(logo).toMatchObject({ binary: true, diff: null, before_size: { w: 1, h: 1 }, size: { w: 2, h: 2 } });
    expect(logo).not.toHaveProperty('before');
    expect(readdirSync(repo.review('blobs')).sort()).toEqual(blobsAfterRound);
    expect(blobsAfterRound.length).toBe(blobs.length + 1); // the whole round's own before copy
  });

  it('keeps privacy excludes: a secret changed between rounds is listed, its content withheld', async () => {
    const repo = twoRounds();
    repo.write('.env', 'TOKEN=secret\n');
    runRounds(repo);
    const env = ok(await sinceLast(repo)).material.find((e) => e.ref === '.env')!;
    expect(env).toMatchObject({ status: 'added', diff: null, withheld: { reason: expect.any(String) } });
    expect(JSON.stringify(env)).not.toContain('secret');
  });

  it('compares with the last kept round below this one, and says when none is kept', async () => {
    const repo = twoRounds();
    repo.write('d.txt', 'round 3\n');
    runRounds(repo);
    rmSync(repo.review('rounds/2'), { recursive: true });
    const data = ok(await sinceLast(repo));
    expect(data).toMatchObject({ from: 1, to: 3 });
    expect(data.material.map((e) => e.ref)).toEqual(['a.txt', 'c.txt', 'd.txt']);
    rmSync(repo.review('rounds/1'), { recursive: true });
    expect(await sinceLast(repo)).toEqual({
      state: 'none',
      reason: expect.stringMatching(/No round before round 3 is kept/),
    });
  });

  it('answers none when the previous round’s tree is gone from git', async () => {
    const repo = twoRounds();
    repo.git('update-ref', '-d', 'refs/involut/rounds/1');
    repo.git('reflog', 'expire', '--expire=now', '--all');
    repo.git('gc', '--quiet', '--prune=now');
    expect(await sinceLast(repo)).toEqual({ state: 'none', reason: expect.stringMatching(/Round 1's tree is gone/) });
  });

  it('takes ids from the files only: a kept material naming no object id falls back to the round’s ref', async () => {
    const repo = twoRounds();
    const kept = JSON.parse(readFileSync(repo.review('rounds/1/material.json'), 'utf8'));
    const tree = kept.source.tree;
    kept.source.tree = '--output=/tmp/involut-pwned';
    writeFileSync(repo.review('rounds/1/material.json'), JSON.stringify(kept));
    const app = await injectApp(repo);
    apps.push(app);
    const response = await app.inject({
      method: 'GET',
      url: '/api/since-last?from=HEAD&to=--output=x',
      headers: viewerHeaders(),
    });
    const data = ok(SinceLast.parse(response.json()));
    expect(data).toMatchObject({ from: 1, to: 2 });
    expect(repo.git('rev-parse', 'refs/involut/rounds/1').trim()).toBe(tree);
    expect(data.material.map((e) => e.ref)).toEqual(['a.txt', 'c.txt']);
  });

  it('answers the same pair from its cache, and a new round from a new diff', async () => {
    const repo = twoRounds();
    const app = await injectApp(repo);
    apps.push(app);
    const get = () => app.inject({ method: 'GET', url: '/api/since-last', headers: viewerHeaders() });
    const first = await get();
    // The cached answer does not ask git again: the pair answers the same even with round 1's tree pruned.
    repo.git('update-ref', '-d', 'refs/involut/rounds/1');
    repo.git('gc', '--quiet', '--prune=now');
    expect(ok(SinceLast.parse(first.json()))).toMatchObject({ from: 1, to: 2 });
    expect((await get()).body).toBe(first.body);
    repo.write('c.txt', 'round 3\n');
    runRounds(repo);
    expect(ok(SinceLast.parse((await get()).json()))).toMatchObject({ from: 2, to: 3, material: [{ ref: 'c.txt' }] });
  });

  it('is token-guarded like the rest of the API', async () => {
    const repo = makeRepo();
    const app = await injectApp(repo);
    apps.push(app);
    const response = await app.inject({
      method: 'GET',
      url: '/api/since-last',
      headers: viewerHeaders({ 'x-involut-token': undefined }),
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers none without a material', async () => {
    const repo = makeRepo();
    expect(await sinceLast(repo)).toEqual({
      state: 'none',
      reason: expect.stringMatching(/no readable material\.json/),
    });
  });
});
