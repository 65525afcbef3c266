import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CardsState, Freshness, RoundState, NotesState } from '../../schemas/api';
import { Notes } from '../../schemas/notes';
import {
  injectApp,
  makeRepo,
  PROJECT,
  putHeaders,
  removeTempDirs,
  runRounds,
  TOKEN,
  viewerHeaders,
  type Repo,
} from '../helpers/server';

const PNG_BEFORE = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000018', 'hex');
const PNG_AFTER = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000002080600000018', 'hex');
/** Over the size read through the server's one `git cat-file --batch`: streamed from a git of its own. */
const BIG = Buffer.from(Array.from({ length: 5 * 1024 * 1024 }, (_, i) => (i * 7919) % 251));
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n';

const card = (id: string, extra: object = {}) => ({
  id,
  title: `Card ${id}`,
  intent: 'behavior',
  refs: ['README.md'],
  ...extra,
});
const note = (text: string) => ({ text, title: 'README.md', refs: ['README.md'] });

let repo: Repo;
let app: FastifyInstance;

beforeAll(async () => {
  repo = makeRepo({ 'README.md': '# t\n', 'logo.png': PNG_BEFORE, 'gone.txt': 'bye\n' });
  repo.write('README.md', '# t\nmore\n');
  repo.write('logo.png', PNG_AFTER);
  rmSync(path.join(repo.dir, 'gone.txt'));
  repo.write('.env', 'SECRET=1\n');
  repo.write('icon.svg', SVG);
  repo.write('docs/a b.md', 'spaces\n');
  writeFileSync(path.join(repo.dir, 'big.bin'), BIG);
  runRounds(repo);
  app = await injectApp(repo, path.join(PROJECT, 'dist', 'web'));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const get = (url: string, headers = viewerHeaders()) => app.inject({ method: 'GET', url, headers });
/** The note under `key` as notes.json holds it now: what a viewer that just read the file would send as `seen`. */
const seenOf = (key: string) => {
  try {
    const notes = JSON.parse(readFileSync(repo.review('notes.json'), 'utf8')).notes;
    return Object.hasOwn(notes, key) ? { text: notes[key].text, at: notes[key].at } : null;
  } catch {
    return null;
  }
};
const put = (key: string, body: unknown, headers = putHeaders()) =>
  app.inject({
    method: 'PUT',
    url: `/api/notes/${encodeURIComponent(key)}`,
    headers,
    payload: typeof body === 'string' ? body : JSON.stringify({ seen: seenOf(key), ...(body as object) }),
  });

describe('GET /api/round, /api/cards, /api/notes answer each file as a state', () => {
  beforeEach(() => {
    rmSync(repo.review('cards.json'), { force: true });
    rmSync(repo.review('notes.json'), { force: true });
  });

  it('ok: the material the emitter wrote', async () => {
    const state = RoundState.parse((await get('/api/round')).json());
    expect(state.state).toBe('ok');
    if (state.state === 'ok') expect(state.data.material.map((e) => e.ref)).toContain('README.md');
  });

  it('missing', async () => {
    expect((await get('/api/cards')).json()).toEqual({ state: 'missing' });
    expect((await get('/api/notes')).json()).toEqual({ state: 'missing' });
  });

  it('invalid-json, with the parser position', async () => {
    writeFileSync(repo.review('cards.json'), '{\n  "contract": 1,\n  "cards": [,]\n}\n');
    const state = CardsState.parse((await get('/api/cards')).json());
    expect(state).toMatchObject({ state: 'invalid-json', line: 3, column: 13 });
  });

  it('invalid-schema, with the zod issues', async () => {
    writeFileSync(repo.review('notes.json'), JSON.stringify({ contract: 2, notes: {} }));
    const state = NotesState.parse((await get('/api/notes')).json());
    expect(state.state).toBe('invalid-schema');
    if (state.state === 'invalid-schema') expect(state.issues[0]?.path).toEqual(['contract']);
  });

  it('one invalid card among valid ones: the others still come, the broken one with its raw JSON and issues', async () => {
    const broken = { id: 'c_2', title: 'Broken', intent: 'feelings', refs: 'README.md' };
    writeFileSync(
      repo.review('cards.json'),
      JSON.stringify({ contract: 1, request: 'r', cards: [card('c_1'), broken, card('c_3')] }),
    );
    const state = CardsState.parse((await get('/api/cards')).json());
    expect(state.state).toBe('ok');
    if (state.state !== 'ok') return;
    expect(state.data.cards.map((c) => c.id)).toEqual(['c_1', 'c_3']);
    expect(state.data.request).toBe('r');
    expect(state.invalid).toHaveLength(1);
    expect(state.invalid[0]).toMatchObject({ index: 1, raw: broken });
    expect(state.invalid[0]!.issues.map((i) => i.path[0]).sort()).toEqual(['intent', 'refs']);
  });

  it('a wrong frame (cards not a list) is invalid-schema', async () => {
    writeFileSync(repo.review('cards.json'), JSON.stringify({ contract: 1, cards: {} }));
    expect((await get('/api/cards')).json()).toMatchObject({ state: 'invalid-schema' });
  });
});

describe('PUT /api/notes/:key', () => {
  beforeEach(() => rmSync(repo.review('notes.json'), { force: true }));
  const onDisk = () => Notes.parse(JSON.parse(readFileSync(repo.review('notes.json'), 'utf8')));

  it('creates, replaces and stamps `at` with the local offset, for every key form', async () => {
    for (const key of ['c_1', 'file:docs/a b.md', 'line:README.md:+2', 'line:README.md:-1']) {
      const response = await put(key, { ...note(`on ${key}`), quote: 'more', kind: 'question' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().note.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    }
    await put('c_1', note('replaced'));
    const notes = onDisk().notes;
    expect(Object.keys(notes).sort()).toEqual(['c_1', 'file:docs/a b.md', 'line:README.md:+2', 'line:README.md:-1']);
    expect(notes.c_1).toMatchObject({ text: 'replaced', title: 'README.md', refs: ['README.md'] });
    expect(notes['line:README.md:+2']).toMatchObject({ quote: 'more', kind: 'question' });
  });

  it('deletes a note on empty text and keeps the others', async () => {
    await put('c_1', note('one'));
    await put('c_2', note('two'));
    const response = await put('c_1', note('  '));
    expect(response.json()).toEqual({ key: 'c_1', note: null });
    expect(Object.keys(onDisk().notes)).toEqual(['c_2']);
  });

  it('keeps 20 concurrent writes to different keys', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => put(`c_${i}`, note(`note ${i}`))));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const notes = onDisk().notes;
    expect(Object.keys(notes)).toHaveLength(20);
    for (let i = 0; i < 20; i += 1) expect(notes[`c_${i}`]?.text).toBe(`note ${i}`);
  });

  it.each([
    ['does not parse', '{ "contract": 1, "notes": { "c_1": '],
    ['fails the schema', JSON.stringify({ contract: 1, notes: { c_1: { text: 'no title' } } })],
  ])('refuses with 409 when notes.json %s, leaving it byte-identical', async (_case, corrupt) => {
    mkdirSync(path.dirname(repo.review('notes.json')), { recursive: true });
    writeFileSync(repo.review('notes.json'), corrupt);
    const response = await put('c_9', note('lost?'));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/notes\.json/);
    expect(readFileSync(repo.review('notes.json'), 'utf8')).toBe(corrupt);
  });

  it('keeps unknown fields of the file and of other notes', async () => {
    const doc = { contract: 1, extra: { keep: true }, notes: { old: { ...note('old'), at: 'x', future: 1 } } };
    writeFileSync(repo.review('notes.json'), JSON.stringify(doc));
    await put('new', note('new'));
    const written = JSON.parse(readFileSync(repo.review('notes.json'), 'utf8'));
    expect(written.extra).toEqual({ keep: true });
    expect(written.notes.old).toEqual(doc.notes.old);
  });

  it.each([
    ['a text/plain body', 'text/plain', JSON.stringify(note('x')), 415],
    ['a form body', 'application/x-www-form-urlencoded', 'text=x', 415],
    ['no content type', undefined, JSON.stringify(note('x')), 415],
    ['a body that is not JSON', 'application/json', '{"text":', 400],
    ['a body missing refs', 'application/json', JSON.stringify({ text: 'x', title: 't' }), 400],
    ['a body with an unknown field', 'application/json', JSON.stringify({ ...note('x'), at: 'forged' }), 400],
    ['a body over the size limit', 'application/json', JSON.stringify(note('x'.repeat(300 * 1024))), 413],
  ])('refuses %s', async (_case, type, body, status) => {
    const response = await put('c_1', body, putHeaders({ 'content-type': type }));
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().error.code).toBeTruthy();
  });

  it.each(['line:README.md:2', 'line:README.md:+0', 'line::+1', 'file:', 'bad\nkey'])(
    'refuses the malformed key %j',
    async (key) => {
      expect((await put(key, note('x'))).statusCode).toBe(400);
    },
  );
});

describe('GET /api/blob/<path> and GET /api/after/<ref>', () => {
  it('serves a before copy from .review/blobs/', async () => {
    const material = RoundState.parse((await get('/api/round')).json());
    if (material.state !== 'ok') throw new Error('no material');
    const before = material.data.material.find((e) => e.ref === 'logo.png')!.before!;
    const response = await get(`/api/blob/${encodeURIComponent(before.replace(/^blobs\//, ''))}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(PNG_BEFORE)).toBe(true);
  });

  it.each([
    '/api/blob/../material.json',
    '/api/blob/..%2fmaterial.json',
    '/api/blob/%2e%2e/material.json',
    '/api/blob/%252e%252e%252fmaterial.json',
    '/api/blob/..%5cmaterial.json',
    '/api/blob/%2Fetc%2Fpasswd',
    '/api/blob//etc/passwd',
    '/api/blob/a%00.png',
    '/api/after/../.git/config',
    '/api/after/%2e%2e%2f.git%2fconfig',
  ])('refuses the traversal %s', async (url) => {
    const response = await get(url);
    expect([400, 404]).toContain(response.statusCode);
    expect(response.body).not.toMatch(/"material"|\[core\]|root:/);
  });

  it('answers 404 for a before copy that is not there', async () => {
    expect((await get('/api/blob/nothing.png')).statusCode).toBe(404);
  });

  it('does not follow a symlink out of blobs/', async () => {
    symlinkSync(repo.review('material.json'), repo.review('blobs/link.json'));
    const response = await get('/api/blob/link.json');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('review-unsafe');
    expect(response.body).not.toContain('"material"');
    rmSync(repo.review('blobs/link.json'));
  });

  it('serves after bytes from the captured tree, not the working file', async () => {
    repo.write('README.md', 'edited after the capture\n');
    const response = await get('/api/after/README.md');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('# t\nmore\n');
    repo.write('README.md', '# t\nmore\n');
  });

  it('gives images their type, and an SVG a sandboxing CSP and nosniff', async () => {
    const png = await get('/api/after/logo.png');
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.equals(PNG_AFTER)).toBe(true);
    const svg = await get('/api/after/icon.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['content-security-policy']).toMatch(/sandbox/);
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(`/api/after/${encodeURIComponent('docs/a b.md')}`)).body).toBe('spaces\n');
  });

  it('answers a dozen requests at once, each with its own bytes, and a file over 4 MiB whole', async () => {
    const expected: Array<[string, Buffer]> = [
      ['README.md', Buffer.from('# t\nmore\n')],
      ['logo.png', PNG_AFTER],
      ['icon.svg', Buffer.from(SVG)],
      [encodeURIComponent('docs/a b.md'), Buffer.from('spaces\n')],
      ['big.bin', BIG],
    ];
    const asked = Array.from({ length: 12 }, (_, i) => expected[i % expected.length]!);
    const answers = await Promise.all(asked.map(([ref]) => get(`/api/after/${ref}`)));
    answers.forEach((answer, i) => {
      expect(answer.statusCode).toBe(200);
      expect(answer.rawPayload.equals(asked[i]![1])).toBe(true);
    });
  });

  it.each([
    ['a file not in the material', 'src/nothing.ts'],
    ['an unchanged tracked file', '.gitignore'],
    ['a deleted file', 'gone.txt'],
    ['a withheld file', '.env'],
  ])('answers 404 for %s', async (_case, ref) => {
    const response = await get(`/api/after/${ref}`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('SECRET');
  });
});

describe('GET /api/freshness', () => {
  it('is fresh right after the capture and stale after an edit', async () => {
    const fresh = Freshness.parse((await get('/api/freshness')).json());
    expect(fresh.fresh).toBe(true);
    repo.write('README.md', 'moved on\n');
    const stale = Freshness.parse((await get('/api/freshness')).json());
    expect(stale).toMatchObject({ fresh: false, captured: fresh.captured });
    repo.write('README.md', '# t\nmore\n');
  });
});

describe('security', () => {
  it.each([
    ['a foreign Host (DNS rebinding)', { host: 'evil.example:4747' }],
    ['a loopback Host at another port', { host: '127.0.0.1:80' }],
    ['no Host', { host: '' }],
  ])('refuses %s on every request, the viewer page included', async (_case, headers) => {
    for (const url of ['/api/round', '/']) {
      const response = await get(url, viewerHeaders(headers));
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden-host');
    }
  });

  it('accepts every loopback name at its port', async () => {
    for (const host of ['127.0.0.1:4747', 'localhost:4747', '[::1]:4747', 'LOCALHOST:4747']) {
      expect((await get('/api/notes', viewerHeaders({ host }))).statusCode).toBe(200);
    }
  });

  it.each([
    ['no Origin', { origin: undefined }],
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['the null Origin', { origin: 'null' }],
    ['an Origin at another port', { origin: 'http://127.0.0.1:80' }],
  ])('refuses a write with %s, leaving notes.json alone', async (_case, headers) => {
    rmSync(repo.review('notes.json'), { force: true });
    const response = await put('c_1', note('x'), putHeaders(headers));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden-origin');
    expect(() => readFileSync(repo.review('notes.json'))).toThrow();
  });

  it.each([
    ['no token', { 'x-involut-token': undefined }],
    ['a wrong token', { 'x-involut-token': `${TOKEN}x` }],
    ['an empty token', { 'x-involut-token': '' }],
  ])('refuses every /api request with %s', async (_case, headers) => {
    for (const url of [
      '/api/round',
      '/api/cards',
      '/api/notes',
      '/api/events',
      '/api/freshness',
      '/api/after/README.md',
      '/api/health',
    ]) {
      const response = await get(url, viewerHeaders(headers));
      expect(response.statusCode, url).toBe(401);
      expect(response.json().error.code).toBe('bad-token');
    }
    expect((await put('c_1', note('x'), putHeaders(headers))).statusCode).toBe(401);
  });

  it('serves the viewer with a strict CSP and nosniff, no CORS, no cookies, and index.html for app paths', async () => {
    for (const url of ['/', '/cards/c_1']) {
      const response = await get(url, { host: '127.0.0.1:4747' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root">');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/notes/c_1',
      headers: { host: '127.0.0.1:4747', origin: 'http://evil.example' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect((await get('/api/nothing')).statusCode).toBe(404);
  });
});
