/**
 * `GET /api/search` and `GET /api/lines/<ref>` on a real repository, through the real app:
 * search reads the current material's paths and diff lines (never a withheld file's
 * content); lines come from the round's own git objects, never the working tree.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lines, SearchResult } from '../../schemas/api';
import { COUNT_CAP } from '../../server/serve/search';
import { injectApp, makeRepo, PROJECT, removeTempDirs, runRounds, viewerHeaders, type Repo } from '../helpers/server';

const numbered = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name} line ${i + 1}`).join('\n') + '\n';

let repo: Repo;
let app: FastifyInstance;

beforeAll(async () => {
  repo = makeRepo({
    'src/long.ts': numbered('long', 100),
    'src/old-name.ts': numbered('moved', 60),
    'gone.txt': 'bye\n',
  });
  // Modified: line 50 changes; lines 1..46 and 54..100 are in no hunk.
  repo.write('src/long.ts', numbered('long', 100).replace('long line 50\n', 'long line 50 changed Needle\n'));
  repo.git('mv', 'src/old-name.ts', 'src/new-name.ts');
  repo.write('src/new-name.ts', numbered('moved', 60).replace('moved line 30\n', 'moved line 30 renamed\n'));
  repo.write('src/added.ts', 'export const needle = 1;\nexport const needles = 2;\n');
  rmSync(path.join(repo.dir, 'gone.txt'));
  repo.write('.env', 'needle=secret\n');
  repo.write('many.txt', 'x\n'.repeat(COUNT_CAP + 50));
  repo.write('trap.txt', `${'a'.repeat(40)}!\n`);
  runRounds(repo);
  // Edited after the capture: answers must still come from the round.
  repo.write('src/long.ts', 'not the round\n');
  app = await injectApp(repo, path.join(PROJECT, 'dist', 'web'));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const get = (url: string, headers = viewerHeaders()) => app.inject({ method: 'GET', url, headers });
const search = async (query: string) => {
  const response = await get(`/api/search?${query}`);
  expect(response.statusCode).toBe(200);
  return SearchResult.parse(response.json());
};

describe('GET /api/search', () => {
  it('finds text in diff lines with their side and number, case-insensitively by default', async () => {
    const result = await search('q=needle');
    const refs = result.results.map((r) => r.ref);
    expect(refs).toContain('src/long.ts');
    expect(refs).toContain('src/added.ts');
    const long = result.results.find((r) => r.ref === 'src/long.ts')!;
    expect(long.hits).toEqual([
      expect.objectContaining({ side: '+', number: 50, text: 'long line 50 changed Needle' }),
    ]);
    const hit = long.hits[0]!;
    expect(hit.text.slice(hit.start, hit.end)).toBe('Needle');
    expect(result.matches).toBe(3);
    expect(result.files).toBe(2);
    expect(result.capped).toBe(false);
  });

  it('never returns a withheld file’s content, though its path can match', async () => {
    const content = await search('q=secret');
    expect(content.results).toEqual([]);
    const byPath = await search('q=.env');
    expect(byPath.results).toEqual([{ ref: '.env', path: true, hits: [] }]);
  });

  it('honours case, whole word and regular expressions', async () => {
    expect((await search('q=needle&case=1')).matches).toBe(2);
    expect((await search('q=needle&word=1')).matches).toBe(2);
    expect((await search('q=needle&word=1&case=1')).matches).toBe(1);
    const regex = await search(`q=${encodeURIComponent('^moved line 3\\d renamed$')}&regex=1`);
    expect(regex.results.map((r) => [r.ref, r.hits.map((h) => h.number)])).toEqual([['src/new-name.ts', [30]]]);
    const bad = await get('/api/search?q=(&regex=1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('bad-query');
  });

  it('stops an expression that backtracks for ever, says so, and keeps answering', async () => {
    const slow = await get(`/api/search?q=${encodeURIComponent('(a+)+$')}&regex=1`);
    expect(slow.statusCode).toBe(400);
    expect(slow.json().error.code).toBe('search-too-slow');
    expect(slow.json().error.message).toMatch(/ran longer than 2 s and was stopped; try a simpler expression/);
    expect((await search('q=needle&case=1')).matches).toBe(2);
  });

  it('caps a huge answer and says so', async () => {
    const result = await search('q=x&word=1');
    expect(result.capped).toBe(true);
    expect(result.matches).toBe(COUNT_CAP);
  });

  it('is guarded like every /api route: token and Host', async () => {
    expect((await get('/api/search?q=needle', viewerHeaders({ 'x-involut-token': 'wrong' }))).statusCode).toBe(401);
    expect((await get('/api/search?q=needle', viewerHeaders({ host: 'evil.example:4747' }))).statusCode).toBe(403);
    expect((await get('/api/search')).statusCode).toBe(400);
  });
});

describe('GET /api/lines/<ref>', () => {
  const lines = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    return Lines.parse(response.json());
  };

  it('serves the after side from the captured tree, not the working file', async () => {
    const after = await lines('/api/lines/src/long.ts?side=after&from=49&to=51');
    expect(after).toEqual({
      side: 'after',
      total: 100,
      from: 49,
      lines: ['long line 49', 'long line 50 changed Needle', 'long line 51'],
    });
  });

  it('serves the before side from the base, under a renamed file’s old path', async () => {
    const before = await lines('/api/lines/src/new-name.ts?side=before&from=30&to=30');
    expect(before.lines).toEqual(['moved line 30']);
    expect((await lines('/api/lines/gone.txt?side=before')).lines).toEqual(['bye']);
  });

  it('refuses what is not a text file of the material, a withheld file, a missing side and unsafe paths', async () => {
    expect((await get('/api/lines/src/nope.ts?side=after')).statusCode).toBe(404);
    expect((await get('/api/lines/.env?side=after')).statusCode).toBe(404);
    expect((await get('/api/lines/src/added.ts?side=before')).statusCode).toBe(404);
    expect((await get('/api/lines/gone.txt?side=after')).statusCode).toBe(404);
    expect((await get('/api/lines/src/long.ts?side=sideways')).statusCode).toBe(400);
    for (const url of [
      '/api/lines/src/..%2f..%2fetc/passwd?side=after',
      '/api/lines/%2e%2e/.git/config?side=after',
      '/api/lines/%252e%252e%252f.git%252fconfig?side=before',
    ]) {
      const response = await get(url);
      expect([400, 404]).toContain(response.statusCode);
      expect(response.body).not.toMatch(/\[core\]|root:/);
    }
    expect(
      (await get('/api/lines/src/long.ts?side=after', viewerHeaders({ 'x-involut-token': 'wrong' }))).statusCode,
    ).toBe(401);
  });
});
