/**
 * How the server builds a note from a write, through the real routes: range keys,
 * resolve and reopen, a follow-up that keeps the answered text once however many times
 * it is sent, and a follow-up withdrawn by clearing it. Nothing the reader wrote is lost.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notes } from '../../schemas/notes';
import { injectApp, makeRepo, PROJECT, putHeaders, removeTempDirs, runRounds, type Repo } from '../helpers/server';

let repo: Repo;
let app: FastifyInstance;

beforeAll(async () => {
  repo = makeRepo({ 'README.md': '# t\n' });
  repo.write('README.md', '# t\nmore\nand more\n');
  runRounds(repo);
  app = await injectApp(repo, path.join(PROJECT, 'dist', 'web'));
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const onDisk = () => Notes.parse(JSON.parse(readFileSync(repo.review('notes.json'), 'utf8'))).notes;
const seenOf = (key: string) => {
  const there = onDisk()[key];
  return there ? { text: there.text, at: there.at } : null;
};
const put = (key: string, body: object, seen: unknown = seenOf(key)) =>
  app.inject({
    method: 'PUT',
    url: `/api/notes/${encodeURIComponent(key)}`,
    headers: putHeaders(),
    payload: JSON.stringify({ title: 'README.md', refs: ['README.md'], seen, ...body }),
  });

describe('a note as the server builds it', () => {
  it('takes a range key on either side and refuses one that runs backwards or stands still', async () => {
    const first = await put('line:README.md:+2-3', { text: 'These two.', quote: '+more\n+and more' }, null);
    expect(first.statusCode, first.body).toBe(200);
    expect((await put('line:README.md:-1-2', { text: 'Old side.' }, null)).statusCode).toBe(200);
    expect(onDisk()['line:README.md:+2-3']).toMatchObject({ text: 'These two.', quote: '+more\n+and more' });
    for (const key of ['line:README.md:+3-2', 'line:README.md:+2-2', 'line:README.md:+0-2']) {
      const refused = await put(key, { text: 'x' }, null);
      expect(refused.statusCode, key).toBe(400);
      expect(refused.json().error.message).toContain("'line:<ref>:+<a>-<b>'");
    }
  });

  it('resolves with when, keeps it while the text changes, and reopens', async () => {
    await put('c_1', { text: 'Split this.' }, null);
    await put('c_1', { text: 'Split this.', resolve: true });
    const resolvedAt = onDisk().c_1!.resolvedAt;
    expect(resolvedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await put('c_1', { text: 'Split this, please.' });
    expect(onDisk().c_1).toMatchObject({ text: 'Split this, please.', resolvedAt });
    await put('c_1', { text: 'Split this, please.', resolve: false });
    expect(onDisk().c_1).toMatchObject({ text: 'Split this, please.' });
    expect(onDisk().c_1!.resolvedAt).toBeUndefined();
  });

  it('moves the followed text into `earlier` once, however many writes carry the follow-up', async () => {
    await put('c_2', { text: 'Why 30?' }, null);
    const answered = onDisk().c_2!;
    const answeredBy = [{ id: 'c_9', title: 'Thirty, explained' }];
    await put('c_2', { text: 'And', follows: answered.at, answeredBy });
    await put('c_2', { text: 'And 60?', follows: answered.at, answeredBy });
    expect(onDisk().c_2).toMatchObject({
      text: 'And 60?',
      earlier: [{ text: 'Why 30?', at: answered.at, answeredBy }],
    });
    // Cleared, the follow-up is withdrawn: the answered text is the note again, as it was.
    const cleared = await put('c_2', { text: '', follows: answered.at, answeredBy });
    expect(cleared.json().note).toMatchObject({ text: 'Why 30?', at: answered.at });
    expect(onDisk().c_2!.earlier).toBeUndefined();
    // A note without a follow-up is deleted when cleared, as before.
    await put('c_2', { text: '' });
    expect(onDisk().c_2).toBeUndefined();
  });
});
