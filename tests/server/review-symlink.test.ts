/**
 * Involut reads, writes and serves only the repository's own `.review/` (issue finding 2):
 * a `.review` that is a symbolic link, or holds one, is refused with one sentence by the
 * built CLI's serve, check and notes, and by the running server, and nothing outside the
 * repository is read, written or served through it. Real repositories, the real built CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  childEnv,
  CLI,
  liveFetch,
  makeRepo,
  removeTempDirs,
  runRounds,
  startLive,
  tempDir,
  type LiveServer,
} from '../helpers/server';

afterAll(removeTempDirs);
const running: LiveServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

/** Another project's `.review/`, with notes and a secret beside it, that a link points at. */
function otherProject(): { dir: string; review: string; notes: string; secret: string } {
  const dir = tempDir('involut-other-');
  const review = path.join(dir, '.review');
  mkdirSync(review, { recursive: true });
  const notes = JSON.stringify({
    contract: 1,
    notes: { theirs: { title: 't', refs: [], text: 'their note', at: 'x' } },
  });
  writeFileSync(path.join(review, 'notes.json'), notes);
  writeFileSync(path.join(review, 'material.json'), '{"not":"yours"}');
  writeFileSync(path.join(dir, 'id_rsa'), 'PRIVATE KEY\n');
  return { dir, review, notes, secret: path.join(dir, 'id_rsa') };
}

function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [CLI, ...args], {
      env: childEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

const oneSentence = /^involut: \.review(\/[\w.]+)? is a symbolic link \(to [^)]+\); [^\n]+\.\n$/;

describe('a .review that is a symbolic link', () => {
  it.each([['serve', '--no-open', '--port', '0'], ['check'], ['notes']])(
    'is refused by `involut %s` with one sentence, touching nothing',
    (...args) => {
      const repo = makeRepo();
      const other = otherProject();
      symlinkSync(other.review, path.join(repo.dir, '.review'));
      const result = cli([...args, '--repo', repo.dir]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(oneSentence);
      expect(result.stdout).toBe('');
      expect(readFileSync(path.join(other.review, 'notes.json'), 'utf8')).toBe(other.notes);
    },
  );

  it('made while the server runs: files, blobs and note writes are refused, the other project untouched', async () => {
    const repo = makeRepo();
    runRounds(repo);
    const server = await startLive(repo.dir);
    running.push(server);
    const other = otherProject();
    renameSync(path.join(repo.dir, '.review'), path.join(repo.dir, 'old-review'));
    symlinkSync(other.review, path.join(repo.dir, '.review'));
    for (const route of ['/api/notes', '/api/round', '/api/cards']) {
      const response = await liveFetch(server, route);
      expect(response.status, route).toBe(403);
      const body = await response.json();
      expect(body.error.code).toBe('review-unsafe');
      expect(JSON.stringify(body)).not.toContain('their note');
    }
    const write = await liveFetch(server, '/api/notes/theirs', {
      method: 'PUT',
      body: JSON.stringify({ text: '', title: 't', refs: [], seen: { text: 'their note', at: 'x' } }),
    });
    expect(write.status).toBe(403);
    expect(readFileSync(path.join(other.review, 'notes.json'), 'utf8')).toBe(other.notes);
  });
});

describe('a symbolic link under .review', () => {
  it('refuses a .review/blobs link at start, and serves nothing through one made later', async () => {
    const repo = makeRepo();
    runRounds(repo);
    const other = otherProject();
    const blobs = path.join(repo.dir, '.review', 'blobs');
    rmSync(blobs, { recursive: true, force: true });
    symlinkSync(other.dir, blobs);
    const refused = cli(['serve', '--no-open', '--port', '0', '--repo', repo.dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(oneSentence);
    expect(refused.stderr).toContain('.review/blobs');

    rmSync(blobs);
    mkdirSync(blobs);
    const server = await startLive(repo.dir);
    running.push(server);
    rmSync(blobs, { recursive: true });
    symlinkSync(other.dir, blobs);
    const response = await liveFetch(server, '/api/blob/id_rsa');
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('PRIVATE KEY');
  });

  it('refuses notes.json as a link to another file, in check and in the server', async () => {
    const repo = makeRepo();
    runRounds(repo);
    const other = otherProject();
    symlinkSync(path.join(other.review, 'notes.json'), path.join(repo.dir, '.review', 'notes.json'));
    const result = cli(['check', '--repo', repo.dir]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('.review/notes.json is a symbolic link');
    expect(result.stdout).not.toContain('their note');
  });

  it.each([['check'], ['notes']])('answers the refusal as data with `involut %s --json`', (command) => {
    const repo = makeRepo();
    const other = otherProject();
    symlinkSync(other.review, path.join(repo.dir, '.review'));
    const result = cli([command, '--json', '--repo', repo.dir]);
    expect(result.code).not.toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'review-unsafe' } });
    expect(result.stdout).not.toContain('their note');
  });
});
