/**
 * The built CLI serving on a real port: what only a real process shows (the URL line,
 * one server per repository, signals, the event stream, inotify use). How fast it starts
 * and how soon a change reaches the page are figures of `npm run bench`, not assertions here.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CardsState, RoundState } from '../../schemas/api';
import { Notes } from '../../schemas/notes';
import {
  childEnv,
  CLI,
  inotifyWatches,
  liveFetch,
  makeRepo,
  removeTempDirs,
  runRounds,
  sleep,
  startLive,
  subscribe,
  type LiveServer,
} from '../helpers/server';

const running: LiveServer[] = [];
async function serve(dir: string, env = childEnv(), args?: string[]): Promise<LiveServer> {
  const server = await startLive(dir, env, args);
  running.push(server);
  return server;
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run \`npm run build\` first.`);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});
afterAll(removeTempDirs);

const CARD = { id: 'c_1', title: 'One', intent: 'behavior', refs: ['README.md'] };
const cardsText = (n: number) =>
  `${JSON.stringify({ contract: 1, cards: Array.from({ length: n }, (_, i) => ({ ...CARD, id: `c_${i}` })) }, null, 2)}\n`;
const note = (text: string) => JSON.stringify({ text, title: 'README.md', refs: ['README.md'], seen: null });

describe('involut serve', () => {
  it('prints the viewer URL with its token first, and serves the viewer and the API on it', async () => {
    const repo = makeRepo();
    runRounds(repo);
    const server = await serve(repo.dir);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{43}$/);
    const page = await fetch(server.base);
    expect(await page.text()).toContain('<div id="root">');
    const material = RoundState.parse(await (await liveFetch(server, '/api/round')).json());
    expect(material.state).toBe('ok');
    expect((await fetch(`${server.base}/api/round`)).status).toBe(401);
  });

  it('takes the default port 4747 or the next free one, and refuses a named port that is taken', async () => {
    const first = await serve(makeRepo().dir, childEnv(), []);
    const port = Number(new URL(first.base).port);
    expect(port).toBeGreaterThanOrEqual(4747);
    expect(port).toBeLessThan(4797);
    const second = await serve(makeRepo().dir, childEnv(), []);
    expect(Number(new URL(second.base).port)).toBeGreaterThan(port);
    const taken = await runCliOnce(['serve', '--no-open', '--port', String(port), '--repo', makeRepo().dir]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/Port \d+ is taken/);
  });

  it('warns loudly on a non-loopback --host, and still prints a URL that works on this machine', async () => {
    const server = await serve(makeRepo().dir, childEnv(), ['--port', '0', '--host', '0.0.0.0']);
    expect(server.stderr()).toMatch(/SERVING ON 0\.0\.0\.0/);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect((await liveFetch(server, '/api/notes')).status).toBe(200);
  });

  it('refuses a foreign Host on the real port (DNS rebinding)', async () => {
    const server = await serve(makeRepo().dir);
    const { port } = new URL(server.base);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/', headers: { host: `attacker.example:${port}` } }, (response) => {
          response.resume();
          resolve(response.statusCode);
        })
        .once('error', reject);
    });
    expect(status).toBe(403);
  });

  it('works before .review/ exists and picks the files up when they appear', async () => {
    const repo = makeRepo();
    const server = await serve(repo.dir);
    expect(await (await liveFetch(server, '/api/round')).json()).toEqual({ state: 'missing' });
    expect(await (await liveFetch(server, '/api/freshness')).json()).toMatchObject({ fresh: false, captured: null });
    const events = await subscribe(server);
    const since = performance.now();
    runRounds(repo);
    await events.next((e) => e.file === 'material', since);
    expect(RoundState.parse(await (await liveFetch(server, '/api/round')).json()).state).toBe('ok');
    events.close();
  });

  it('pushes a changed event each time an agent rewrites cards.json atomically', async () => {
    const repo = makeRepo();
    mkdirSync(path.join(repo.dir, '.review'));
    const server = await serve(repo.dir);
    const events = await subscribe(server);
    for (let n = 1; n <= 5; n += 1) {
      writeFileSync(repo.review('cards.json.tmp'), cardsText(n));
      const written = performance.now();
      renameSync(repo.review('cards.json.tmp'), repo.review('cards.json'));
      await events.next((e) => e.file === 'cards', written);
      const state = CardsState.parse(await (await liveFetch(server, '/api/cards')).json());
      expect(state.state === 'ok' && state.data.cards.length).toBe(n);
    }
    expect(events.events.filter((e) => e.file === 'cards')).toHaveLength(5);
    events.close();
  });

  it.each([
    ['50 ms apart', 50],
    ['back to back', 0],
  ])('never serves a cards.json written in two chunks %s as half a file', async (_case, gap) => {
    const repo = makeRepo();
    mkdirSync(path.join(repo.dir, '.review'));
    const server = await serve(repo.dir);
    const events = await subscribe(server);
    const served: string[] = [];
    for (let n = 1; n <= 3; n += 1) {
      const text = cardsText(n);
      const since = performance.now();
      writeFileSync(repo.review('cards.json'), text.slice(0, text.length / 2));
      if (gap) await sleep(gap);
      appendFileSync(repo.review('cards.json'), text.slice(text.length / 2));
      await events.next((e) => e.file === 'cards', since);
      const state = CardsState.parse(await (await liveFetch(server, '/api/cards')).json());
      served.push(state.state === 'ok' ? `ok ${state.data.cards.length}` : state.state);
    }
    // Rewritten once more, atomically: an event owed for a half-written file would come first.
    writeFileSync(repo.review('cards.json.tmp'), cardsText(4));
    const since = performance.now();
    renameSync(repo.review('cards.json.tmp'), repo.review('cards.json'));
    await events.next((e) => e.file === 'cards', since);
    expect(served).toEqual(['ok 1', 'ok 2', 'ok 3']);
    const cardEvents = events.events.filter((e) => e.file === 'cards');
    expect(cardEvents).toHaveLength(4);
    events.close();
  });

  it('lets a second involut for the same repository print the running URL and exit 0', async () => {
    const repo = makeRepo();
    const env = childEnv();
    const server = await serve(repo.dir, env);
    const second = execFileSync(process.execPath, [CLI, '--no-open', '--repo', repo.dir], {
      env,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(second.split('\n')[0]).toBe(server.url);
    const record = readFileSync(
      path.join(env.INVOLUT_STATE_DIR!, 'servers', readdirOne(path.join(env.INVOLUT_STATE_DIR!, 'servers'))),
    );
    expect(statSync(path.join(env.INVOLUT_STATE_DIR!, 'servers')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(record.toString()).url).toBe(server.url);
    const rounds = execFileSync(process.execPath, [CLI, 'rounds', '--repo', repo.dir], { env, encoding: 'utf8' });
    expect(rounds).toContain(server.url);
  });

  it('stops cleanly on a SIGTERM sent the moment its URL is printed', async () => {
    const repo = makeRepo();
    const server = await serve(repo.dir);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: finishing note writes and stopping.');
  });

  it('leaves a valid notes.json, with every acknowledged note, when SIGTERM lands in a burst of writes', async () => {
    const repo = makeRepo();
    const server = await serve(repo.dir);
    const acknowledged: string[] = [];
    let firstDone: () => void;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    const writes = Array.from({ length: 60 }, (_, i) =>
      liveFetch(server, `/api/notes/c_${i}`, { method: 'PUT', body: note(`note ${i} ${'x'.repeat(2000)}`) })
        .then((response) => {
          if (response.ok) acknowledged.push(`c_${i}`);
          firstDone();
        })
        .catch(() => undefined),
    );
    // The signal lands as soon as the first write is answered: the rest of the burst is under way.
    await first;
    server.child.kill('SIGTERM');
    await Promise.all(writes);
    expect(await server.exited).toBe(0);
    const notes = Notes.parse(JSON.parse(readFileSync(repo.review('notes.json'), 'utf8'))).notes;
    for (const key of acknowledged) expect(notes[key], key).toBeDefined();
    console.log(
      `SIGTERM during 60 note writes: ${acknowledged.length} acknowledged, ${Object.keys(notes).length} on disk, file valid`,
    );
  });

  it('holds as many inotify watches for a repository of 10,000 files as for one of 10', async () => {
    const counts: Array<number | null> = [];
    for (const size of [10, 10_000]) {
      const repo = makeRepo();
      for (let i = 0; i < size; i += 1) repo.write(`d${Math.floor(i / 100)}/f${i}.txt`, 'x');
      mkdirSync(path.join(repo.dir, '.review', 'blobs'), { recursive: true });
      for (const name of ['material.json', 'cards.json', 'notes.json']) writeFileSync(repo.review(name), '{}');
      const server = await serve(repo.dir);
      counts.push(inotifyWatches(server.child.pid!));
      await server.stop();
    }
    if (counts[0] === null) return; // no /proc here: the in-process watcher test covers the count
    console.log(`inotify watches: ${counts.join(' vs ')} (10 vs 10,000 files)`);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
  });
});

async function runCliOnce(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: childEnv() });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

function readdirOne(dir: string): string {
  const names = readdirSync(dir);
  expect(names).toHaveLength(1);
  return names[0]!;
}
