import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Freshness } from '../../schemas/api';
import { injectApp, makeRepo, removeTempDirs, runRounds, viewerHeaders, type Repo } from '../helpers/server';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(removeTempDirs);

async function freshness(app: FastifyInstance): Promise<Freshness> {
  const response = await app.inject({ method: 'GET', url: '/api/freshness', headers: viewerHeaders() });
  expect(response.statusCode, response.body).toBe(200);
  return Freshness.parse(response.json());
}

async function appFor(repo: Repo): Promise<FastifyInstance> {
  const app = await injectApp(repo);
  apps.push(app);
  return app;
}

/** Everything under .git that a write to the object store, the refs or the index would change. */
function gitState(repo: Repo): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(`${path.relative(repo.dir, full)}\0`).update(readFileSync(full));
    }
  };
  for (const part of ['objects', 'refs', 'packed-refs', 'index']) {
    const full = path.join(repo.dir, '.git', part);
    try {
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(part).update(readFileSync(full));
    } catch {
      hash.update(`${part}: none`);
    }
  }
  return hash.digest('hex');
}

describe('GET /api/freshness', () => {
  it('follows the working state: edits, new files, deletions, and a new file edited after its capture', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    repo.write('new.txt', 'untracked when captured\n');
    runRounds(repo);
    const app = await appFor(repo);
    expect(await freshness(app)).toMatchObject({ fresh: true });
    // Touched but the same bytes: still fresh.
    repo.write('a.txt', 'one\n');
    expect((await freshness(app)).fresh).toBe(true);
    repo.write('a.txt', 'one!\n');
    expect((await freshness(app)).fresh).toBe(false);
    repo.write('a.txt', 'one\n');
    expect((await freshness(app)).fresh).toBe(true);
    repo.write('new.txt', 'edited after the capture\n');
    expect((await freshness(app)).fresh).toBe(false);
    repo.write('new.txt', 'untracked when captured\n');
    expect((await freshness(app)).fresh).toBe(true);
    repo.write('another.txt', 'made after the capture\n');
    expect((await freshness(app)).fresh).toBe(false);
    rmSync(path.join(repo.dir, 'another.txt'));
    rmSync(path.join(repo.dir, 'b.txt'));
    expect((await freshness(app)).fresh).toBe(false);
  });

  it('never writes: ten checks after edits leave .git/objects, the refs and the index as they were', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    runRounds(repo);
    const app = await appFor(repo);
    const before = gitState(repo);
    for (let i = 0; i < 10; i++) {
      repo.write('a.txt', `edit ${i}\n`);
      repo.write(`new-${i}.txt`, `new ${i}\n`);
      expect((await freshness(app)).fresh).toBe(false);
    }
    expect(gitState(repo)).toBe(before);
  });

  it('cannot tell (null) for a round captured where its index was not kept', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    runRounds(repo);
    for (const name of readdirSync(path.join(repo.dir, '.git')))
      if (name.startsWith('involut-captured.')) rmSync(path.join(repo.dir, '.git', name));
    expect((await freshness(await appFor(repo))).fresh).toBeNull();
  });
});
