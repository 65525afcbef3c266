import { chmodSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { injectApp, makeRepo, putHeaders, removeTempDirs, runRounds } from '../helpers/server';

afterAll(removeTempDirs);

describe('a note write keeps notes.json as the reader made it', () => {
  it('writes a new notes.json 0600, and keeps the mode of one that is there', async () => {
    const repo = makeRepo();
    runRounds(repo);
    const app = await injectApp(repo);
    const put = (key: string, seen: unknown) =>
      app.inject({
        method: 'PUT',
        url: `/api/notes/${encodeURIComponent(key)}`,
        headers: putHeaders(),
        payload: JSON.stringify({ title: 'README.md', refs: ['README.md'], text: 'Why?', seen }),
      });
    const mode = () => statSync(repo.review('notes.json')).mode & 0o777;
    const first = await put('file:README.md', null);
    expect(first.statusCode, first.body).toBe(200);
    expect(mode()).toBe(0o600);
    chmodSync(repo.review('notes.json'), 0o640);
    const second = await put('file:other', null);
    expect(second.statusCode, second.body).toBe(200);
    expect(mode()).toBe(0o640);
    await app.close();
  });
});
