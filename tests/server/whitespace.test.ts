/**
 * `GET /api/whitespace/<ref>` on a real repository, through the real app: git's own
 * `diff -w` of the round's base and captured tree (never the working tree), for text
 * files of the material only, behind the same path refusals and guards as every byte route.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WhitespaceDiff } from '../../schemas/api';
import { injectApp, makeRepo, PROJECT, removeTempDirs, runRounds, viewerHeaders, type Repo } from '../helpers/server';

const SHARED = Array.from({ length: 20 }, (_, i) => `// line ${i + 1} stays as it is\n`).join('');
const block = (indent: string, last: string) =>
  `${SHARED}function f() {\n${indent}const a = 1;\n${indent}return ${last};\n}\n`;

let repo: Repo;
let app: FastifyInstance;

beforeAll(async () => {
  repo = makeRepo({
    'indent.ts': block('  ', 'a'),
    'mixed.ts': block('  ', 'a'),
    'old.ts': block('  ', 'a'),
    'gone.txt': 'x\n',
  });
  repo.write('indent.ts', block('    ', 'a'));
  repo.write('mixed.ts', block('    ', 'a + 1'));
  repo.git('mv', 'old.ts', 'new.ts');
  repo.write('new.ts', block('\t', 'a'));
  rmSync(path.join(repo.dir, 'gone.txt'));
  repo.write('.env', 'secret=1\n');
  runRounds(repo);
  // Edited after the capture: the answer must still come from the round.
  repo.write('mixed.ts', 'not the round\n');
  app = await injectApp(repo, path.join(PROJECT, 'dist', 'web'));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const get = (url: string, headers = viewerHeaders()) => app.inject({ method: 'GET', url, headers });
const diffOf = async (ref: string) => {
  const response = await get(`/api/whitespace/${ref}`);
  expect(response.statusCode, response.body).toBe(200);
  return WhitespaceDiff.parse(response.json()).diff;
};

describe('GET /api/whitespace/<ref>', () => {
  it('leaves out whitespace-only changes of the round, renames compared with their old path', async () => {
    expect(await diffOf('indent.ts')).toBe('');
    expect(await diffOf('new.ts')).toBe('');
    const mixed = await diffOf('mixed.ts');
    expect(mixed.split('\n').filter((l) => /^[-+]/.test(l))).toEqual(['-  return a;', '+    return a + 1;']);
    expect(mixed).toMatch(/^@@ -/);
  });

  it('refuses what is not a modified text file of the material, a withheld file and unsafe paths', async () => {
    expect((await get('/api/whitespace/nope.ts')).statusCode).toBe(404);
    expect((await get('/api/whitespace/.env')).statusCode).toBe(404);
    expect((await get('/api/whitespace/gone.txt')).statusCode).toBe(400);
    for (const url of ['/api/whitespace/..%2f..%2fetc/passwd', '/api/whitespace/%252e%252e%252f.git%252fconfig']) {
      const response = await get(url);
      expect([400, 404]).toContain(response.statusCode);
      expect(response.body).not.toMatch(/\[core\]|root:/);
    }
    expect((await get('/api/whitespace/mixed.ts', viewerHeaders({ 'x-involut-token': 'wrong' }))).statusCode).toBe(401);
    expect((await get('/api/whitespace/mixed.ts', viewerHeaders({ host: 'evil.example:4747' }))).statusCode).toBe(403);
  });
});
