/**
 * Notes are never lost (issue findings 4, 5, 7 and the faults of a note write), against the
 * real app over a real repository, and the real built server on a real port for the race
 * with an editor saving notes.json by hand.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NoteConflict } from '../../schemas/api';
import {
  injectApp,
  liveFetch,
  makeRepo,
  putHeaders,
  removeTempDirs,
  runRounds,
  sleep,
  startLive,
  viewerHeaders,
  type LiveServer,
  type Repo,
} from '../helpers/server';

let repo: Repo;
let app: FastifyInstance;

beforeAll(async () => {
  repo = makeRepo();
  runRounds(repo);
  app = await injectApp(repo);
});
afterAll(async () => {
  await app.close();
  removeTempDirs();
});
beforeEach(() => {
  rmSync(repo.review('notes.json'), { force: true });
});

const body = (text: string, seen: { text: string; at: string } | null = null) => ({
  text,
  title: 't',
  refs: ['README.md'],
  seen,
});
const put = (key: string, payload: object) =>
  app.inject({
    method: 'PUT',
    url: `/api/notes/${encodeURIComponent(key)}`,
    headers: putHeaders(),
    payload: JSON.stringify(payload),
  });
const onDisk = () =>
  JSON.parse(readFileSync(repo.review('notes.json'), 'utf8')) as {
    notes: Record<string, { text: string; at: string }>;
  };

describe('note keys', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'keeps a note on a card whose id is %s, on disk and when read back',
    async (key) => {
      const response = await put(key, body(`on ${key}`));
      expect(response.statusCode, response.body).toBe(200);
      const raw = readFileSync(repo.review('notes.json'), 'utf8');
      expect(Object.keys(JSON.parse(raw).notes)).toEqual([key]);
      // Read back as the viewer reads it: JSON.parse keeps `__proto__` as a plain key (zod would not).
      const state = (await app.inject({ method: 'GET', url: '/api/notes', headers: viewerHeaders() })).json();
      expect(state.state).toBe('ok');
      expect(Object.keys(state.data.notes)).toEqual([key]);
      expect(state.data.notes[key].text).toBe(`on ${key}`);
      // A second note keeps the first, and replacing it works like any key.
      expect((await put('c_other', body('other'))).statusCode).toBe(200);
      const seen = onDisk().notes[key]!;
      expect((await put(key, body('again', { text: seen.text, at: seen.at }))).statusCode).toBe(200);
      expect(Object.keys(onDisk().notes).sort()).toEqual([key, 'c_other'].sort());
      expect(onDisk().notes[key]!.text).toBe('again');
    },
  );
});

describe('compare-and-swap', () => {
  it('refuses a write over a note that changed since the writer saw it, answering what is there now', async () => {
    await put('c_1', body('first tab'));
    const first = onDisk().notes.c_1!;
    await put('c_1', body('second tab', { text: first.text, at: first.at }));
    const stale = await put('c_1', body('first tab again', { text: first.text, at: first.at }));
    expect(stale.statusCode).toBe(409);
    const conflict = NoteConflict.parse(stale.json());
    expect(conflict.current?.text).toBe('second tab');
    expect(onDisk().notes.c_1!.text).toBe('second tab');
  });

  it('refuses to create a note where one appeared meanwhile, and to delete one that changed', async () => {
    writeFileSync(
      repo.review('notes.json'),
      JSON.stringify({ contract: 1, notes: { c_1: { title: 't', refs: [], text: 'by hand', at: 'x' } } }),
    );
    expect((await put('c_1', body('mine'))).statusCode).toBe(409);
    expect((await put('c_1', body('', { text: 'older', at: 'x' }))).statusCode).toBe(409);
    expect(onDisk().notes.c_1!.text).toBe('by hand');
  });

  it('merges key by key: a note written by hand meanwhile is kept beside the new one', async () => {
    await put('c_1', body('one'));
    const doc = onDisk();
    writeFileSync(
      repo.review('notes.json'),
      JSON.stringify({ ...doc, notes: { ...doc.notes, hand: { title: 'h', refs: [], text: 'by hand', at: 'y' } } }),
    );
    expect((await put('c_2', body('two'))).statusCode).toBe(200);
    expect(Object.keys(onDisk().notes).sort()).toEqual(['c_1', 'c_2', 'hand']);
  });

  it('accepts a write that asks for what is already there (sent twice, or two tabs agreeing)', async () => {
    await put('c_1', body('same'));
    const again = await put('c_1', body('same'));
    expect(again.statusCode).toBe(200);
    expect(again.json().note.text).toBe('same');
  });
});

describe('faults of a note write', () => {
  afterEach(() => {
    chmodSync(repo.review(''), 0o755);
  });

  it('never replaces a read-only notes.json, and says so in one sentence naming the file', async () => {
    const text = JSON.stringify({ contract: 1, notes: {} });
    writeFileSync(repo.review('notes.json'), text);
    chmodSync(repo.review('notes.json'), 0o444);
    const response = await put('c_1', body('note'));
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'notes-read-only' });
    expect(response.json().error.message).toMatch(
      /^\.review\/notes\.json is read-only, so Involut leaves it as it is; .*\.$/,
    );
    expect(readFileSync(repo.review('notes.json'), 'utf8')).toBe(text);
    chmodSync(repo.review('notes.json'), 0o644);
  });

  it.runIf(process.getuid?.() === 0)('never replaces a notes.json another user owns', async () => {
    const text = JSON.stringify({ contract: 1, notes: {} });
    writeFileSync(repo.review('notes.json'), text);
    chownSync(repo.review('notes.json'), 65534, 65534);
    const response = await put('c_1', body('note'));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('notes-not-yours');
    expect(readFileSync(repo.review('notes.json'), 'utf8')).toBe(text);
  });

  it('answers one sentence, never a bare 500, when notes.json is nested 5,000 levels deep', async () => {
    const deep = `{"contract":1,"notes":{"c":{"title":"t","refs":[],"text":"x","at":"x","deep":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    writeFileSync(repo.review('notes.json'), deep);
    const read = await app.inject({ method: 'GET', url: '/api/notes', headers: viewerHeaders() });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      state: 'invalid-json',
      message: expect.stringMatching(/nested deeper than 256 levels/),
    });
    const write = await put('c_1', body('note'));
    expect(write.statusCode).toBe(409);
    expect(write.json().error.message).toMatch(/notes\.json/);
    expect(readFileSync(repo.review('notes.json'), 'utf8')).toBe(deep);
  });

  it('never quotes the bytes of a notes.json that is not JSON', async () => {
    writeFileSync(repo.review('notes.json'), 'root:x:0:0:root:/root:/bin/bash\n');
    const read = await app.inject({ method: 'GET', url: '/api/notes', headers: viewerHeaders() });
    expect(read.body).not.toContain('root:x');
    const write = await put('c_1', body('note'));
    expect(write.body).not.toContain('root:x');
  });
});

/**
 * A rename has no compare-and-swap, so a hand save renamed in during the microseconds between
 * the server's last read of notes.json and its own rename is replaced (the editor still holds
 * it, and shows the file changed on disk). On a busy machine the server can be preempted right
 * there: 1 of 144 hand saves timed to land mid-write, with two busy loops on the 2 cores. A
 * server that merged without reading again just before its rename replaced 10 of 12.
 */
const MAX_REPLACED = 1;

describe('an editor saving notes.json by hand while the viewer writes notes', () => {
  let server: LiveServer | null = null;
  afterEach(async () => {
    await server?.stop();
  });

  it('keeps a hand save made while the server writes a note, between its read and its rename', async () => {
    const live = makeRepo();
    runRounds(live);
    server = await startLive(live.dir);
    const file = live.review('notes.json');
    writeFileSync(file, JSON.stringify({ contract: 1, notes: {} }));
    const ROUNDS = 12;
    for (let i = 0; i < ROUNDS; i += 1) {
      // The editor saves the moment the server's temporary copy appears: after the server read
      // notes.json, before it renames its merge into place.
      let saved = false;
      const watcher = watch(live.review(''), (_event, name) => {
        if (saved || !name?.startsWith('.notes.json.')) return;
        saved = true;
        const doc = JSON.parse(readFileSync(file, 'utf8'));
        doc.notes[`hand_${i}`] = { title: 'hand', refs: [], text: `hand save ${i}`, at: new Date().toISOString() };
        writeFileSync(`${file}.editor`, JSON.stringify(doc, null, 2));
        renameSync(`${file}.editor`, file);
      });
      const response = await liveFetch(server, `/api/notes/c_${i}`, {
        method: 'PUT',
        body: JSON.stringify(body(`viewer note ${i}`)),
      });
      watcher.close();
      expect(response.status, await response.text()).toBe(200);
      expect(saved).toBe(true);
    }
    const final = Object.keys(JSON.parse(readFileSync(file, 'utf8')).notes);
    const lostConfirmed = Array.from({ length: ROUNDS }, (_, i) => `c_${i}`).filter((key) => !final.includes(key));
    const lostHand = Array.from({ length: ROUNDS }, (_, i) => `hand_${i}`).filter((key) => !final.includes(key));
    expect(lostConfirmed).toEqual([]);
    expect(lostHand.length, `hand saves replaced: ${lostHand.join(', ')}`).toBeLessThanOrEqual(MAX_REPLACED);
  }, 60_000);

  it('loses no confirmed note, and keeps the hand saves of an editor saving every 137 ms', async () => {
    const live = makeRepo();
    runRounds(live);
    server = await startLive(live.dir);
    const file = live.review('notes.json');
    mkdirSync(live.review(''), { recursive: true });
    writeFileSync(file, JSON.stringify({ contract: 1, notes: {} }));
    const NOTES = 60;
    let viewerDone = false;
    const handSaves: string[] = [];
    // The editor: read, add its own note, write through a temporary file and a rename, every
    // 137 ms; like the server, it re-reads just before the rename and starts over on a change.
    const editor = (async () => {
      for (let i = 0; !viewerDone; i += 1) {
        for (;;) {
          const before = readFileSync(file, 'utf8');
          const doc = JSON.parse(before);
          doc.notes[`hand_${i}`] = { title: 'hand', refs: [], text: `hand save ${i}`, at: new Date().toISOString() };
          writeFileSync(`${file}.editor`, JSON.stringify(doc, null, 2));
          if (readFileSync(file, 'utf8') !== before) continue;
          renameSync(`${file}.editor`, file);
          break;
        }
        handSaves.push(`hand_${i}`);
        await sleep(137);
      }
    })();
    // The viewer: 60 notes, 10 a second, sent on time whatever the answers' pace, each acknowledged by the server.
    const confirmed: string[] = [];
    const refused: string[] = [];
    const send = async (i: number) => {
      const key = `c_${i}`;
      const response = await liveFetch(server!, `/api/notes/${key}`, {
        method: 'PUT',
        body: JSON.stringify(body(`viewer note ${i}`)),
      });
      if (response.ok) confirmed.push(key);
      else refused.push(`${key}: ${response.status} ${await response.text()}`);
    };
    const viewer = (async () => {
      const sent: Array<Promise<void>> = [];
      for (let i = 0; i < NOTES; i += 1) {
        sent.push(send(i));
        await sleep(100);
      }
      await Promise.all(sent);
      viewerDone = true;
    })();
    await Promise.all([editor, viewer]);
    const final = Object.keys(JSON.parse(readFileSync(file, 'utf8')).notes);
    const lostHand = handSaves.filter((key) => !final.includes(key));
    const lostConfirmed = confirmed.filter((key) => !final.includes(key));
    console.log(
      `editor race: ${handSaves.length} hand saves, ${confirmed.length} confirmed notes, ${refused.length} refused; lost ${lostHand.length} + ${lostConfirmed.length}`,
    );
    expect(refused).toEqual([]);
    expect(lostHand.length, `hand saves replaced: ${lostHand.join(', ')}`).toBeLessThanOrEqual(MAX_REPLACED);
    expect(lostConfirmed).toEqual([]);
    expect(confirmed).toHaveLength(NOTES);
  }, 60_000);
});
