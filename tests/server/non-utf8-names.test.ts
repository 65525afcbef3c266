/**
 * Names keep their bytes: two files whose names differ only in bytes that are not UTF-8
 * are two entries, with their own note keys and their own before and after bytes, over
 * a real repository, the real emitter and the real app.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Diffs, RoundState } from '../../schemas/api';
import {
  injectApp,
  makeRepo,
  putHeaders,
  removeTempDirs,
  runRounds,
  viewerHeaders,
  type Repo,
} from '../helpers/server';

/** `caf<byte>.txt` and the like: a name git stores as these exact bytes (Linux allows any but / and NUL). */
const named = (before: string, byte: number, after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from([byte]), Buffer.from(after)]);
const NAMES = {
  textE9: named('caf', 0xe9, '.txt'),
  textE8: named('caf', 0xe8, '.txt'),
  binE9: named('img', 0xe9, '.bin'),
  binE8: named('img', 0xe8, '.bin'),
  folder: named('d', 0xff, '/x.txt'),
};

let repo: Repo;
let app: FastifyInstance;
const write = (name: Buffer, content: string | Buffer) =>
  writeFileSync(Buffer.concat([Buffer.from(`${repo.dir}/`), name]), content);

beforeAll(async () => {
  repo = makeRepo();
  write(NAMES.textE9, 'one\n');
  write(NAMES.textE8, 'two\n');
  write(NAMES.binE9, Buffer.from([0, 1, 2, 0xe9]));
  write(NAMES.binE8, Buffer.from([0, 1, 2, 0xe8]));
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '-m', 'named in Latin-1');
  write(NAMES.textE9, 'one, changed\n');
  write(NAMES.textE8, 'two, changed\n');
  write(NAMES.binE9, Buffer.from([0, 1, 2, 0xe9, 0xe9]));
  write(NAMES.binE8, Buffer.from([0, 1, 2, 0xe8, 0xe8]));
  mkdirSync(Buffer.concat([Buffer.from(`${repo.dir}/`), Buffer.from('d'), Buffer.from([0xff])]));
  write(NAMES.folder, 'three\n');
  runRounds(repo);
  app = await injectApp(repo);
});
afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: viewerHeaders() });

/** The round as the viewer reads it: the index from /api/round, each entry's diff from /api/diffs. */
const material = async () => {
  const state = RoundState.parse((await get('/api/round')).json());
  if (state.state !== 'ok') throw new Error(`no round: ${state.state}`);
  const at = state.data.material.map((_, i) => i).join(',');
  const { diffs } = Diffs.parse((await get(`/api/diffs?v=${state.version}&at=${at}`)).json());
  return { ...state.data, material: state.data.material.map((entry, i) => ({ ...entry, diff: diffs[i] })) };
};
const entryOf = async (name: Buffer) => {
  const found = (await material()).material.find((e) => e.ref_base64 === name.toString('base64'));
  expect(found, `an entry for ${name.toString('base64')}`).toBeDefined();
  return found!;
};

describe('file names that are not UTF-8', () => {
  it('are distinct entries, each with its exact bytes and a name that shows them', async () => {
    const { material: entries } = await material();
    expect(entries.map((e) => e.ref).sort()).toEqual([
      'caf⟨0xE8⟩.txt',
      'caf⟨0xE9⟩.txt',
      'd⟨0xFF⟩/x.txt',
      'img⟨0xE8⟩.bin',
      'img⟨0xE9⟩.bin',
    ]);
    for (const name of Object.values(NAMES)) {
      const entry = await entryOf(name);
      expect(Buffer.from(entry.ref_base64!, 'base64').equals(name)).toBe(true);
    }
    expect((await entryOf(NAMES.textE9)).diff).toContain('+one, changed');
    expect((await entryOf(NAMES.textE8)).diff).toContain('+two, changed');
  });

  it('serve each file its own after bytes, before lines and before copy', async () => {
    for (const [name, text] of [
      [NAMES.textE9, 'one'],
      [NAMES.textE8, 'two'],
    ] as const) {
      const { ref } = await entryOf(name);
      const after = await get(`/api/after/${encodeURIComponent(ref)}`);
      expect(after.statusCode, after.body).toBe(200);
      expect(after.body).toBe(`${text}, changed\n`);
      const before = await get(`/api/lines/${encodeURIComponent(ref)}?side=before`);
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json().lines).toEqual([text]);
    }
    for (const [name, byte] of [
      [NAMES.binE9, 0xe9],
      [NAMES.binE8, 0xe8],
    ] as const) {
      const entry = await entryOf(name);
      const after = await get(`/api/after/${encodeURIComponent(entry.ref)}`);
      expect(after.rawPayload.equals(Buffer.from([0, 1, 2, byte, byte]))).toBe(true);
      const before = await get(`/api/blob/${encodeURIComponent(entry.before!.slice('blobs/'.length))}`);
      expect(before.rawPayload.equals(Buffer.from([0, 1, 2, byte]))).toBe(true);
    }
    const inFolder = await get(`/api/after/${encodeURIComponent((await entryOf(NAMES.folder)).ref)}`);
    expect(inFolder.body).toBe('three\n');
  });

  it('keep a note each, under keys of their own', async () => {
    for (const [name, text] of [
      [NAMES.textE9, 'on é'],
      [NAMES.textE8, 'on è'],
    ] as const) {
      const { ref } = await entryOf(name);
      const response = await app.inject({
        method: 'PUT',
        url: `/api/notes/${encodeURIComponent(`file:${ref}`)}`,
        headers: putHeaders(),
        payload: JSON.stringify({ text, title: ref, refs: [ref], seen: null }),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const notes = (await get('/api/notes')).json().data.notes;
    expect(notes['file:caf⟨0xE9⟩.txt'].text).toBe('on é');
    expect(notes['file:caf⟨0xE8⟩.txt'].text).toBe('on è');
  });
});
