/**
 * The round in two parts: `GET /api/round` lists every file without its diff, `GET
 * /api/diffs` gives the diffs by position for one version of the round, compressed when
 * the browser asks, and never two versions of material.json mixed in one answer.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Diffs, RoundState } from '../../schemas/api';
import { MAX_DIFFS } from '../../schemas/limits';
import { Material } from '../../schemas/material';
import { injectApp, makeRepo, removeTempDirs, runRounds, viewerHeaders, type Repo } from '../helpers/server';

const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000018', 'hex');

let repo: Repo;
let app: FastifyInstance;

beforeAll(async () => {
  const long = Array.from({ length: 400 }, (_, i) => `line ${i} — é ✓ "quoted" \\ tab\t`).join('\n');
  repo = makeRepo({ 'small.txt': 'a\n', 'logo.png': PNG, 'empty.txt': '' });
  repo.write('small.txt', 'b\n');
  repo.write('long.txt', `${long}\n`);
  repo.write('logo.png', Buffer.concat([PNG, Buffer.from([0])]));
  runRounds(repo);
  app = await injectApp(repo);
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const get = (url: string, headers = viewerHeaders()) => app.inject({ method: 'GET', url, headers });
const onDisk = () => Material.parse(JSON.parse(readFileSync(repo.review('material.json'), 'utf8')));

async function round() {
  const state = RoundState.parse((await get('/api/round')).json());
  if (state.state !== 'ok') throw new Error(`no round: ${state.state}`);
  return state;
}

describe('GET /api/round', () => {
  it('lists every file of material.json, without its diff, with the size of its diff', async () => {
    const { data } = await round();
    const material = onDisk().material;
    expect(data.material.map((e) => e.ref)).toEqual(material.map((e) => e.ref));
    for (const [i, entry] of data.material.entries()) {
      expect(entry).not.toHaveProperty('diff');
      const diff = material[i]!.diff;
      expect(entry.chars).toBe(diff?.length ?? 0);
      expect(entry.lines).toBe(diff === null ? null : diff.split('\n').length - 1);
    }
    const raw = (await get('/api/round')).rawPayload.length;
    expect(raw).toBeLessThan(readFileSync(repo.review('material.json')).length / 2);
  });
});

describe('GET /api/diffs', () => {
  it('answers the diffs asked for, in that order, exactly as material.json holds them', async () => {
    const { version, data } = await round();
    const material = onDisk().material;
    const at = data.material.map((_, i) => i).reverse();
    const answer = Diffs.parse((await get(`/api/diffs?v=${version}&at=${at.join(',')}`)).json());
    expect(answer.version).toBe(version);
    expect(answer.diffs).toEqual(at.map((i) => material[i]!.diff));
    // The long diff is read back from the file, the binary's null and the short one from memory.
    expect(answer.diffs.some((d) => (d?.length ?? 0) > 4000)).toBe(true);
    expect(answer.diffs).toContain(null);
  });

  it('refuses a version of the round that is not the current one, so the viewer reads the round again', async () => {
    const response = await get('/api/diffs?v=0123456789abcdef&at=0');
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('round-changed');
  });

  it.each([
    ['no positions', 'at='],
    ['a position that is not a number', 'at=1,x'],
    ['a position past the last file', 'at=99'],
    ['more than one answer carries', `at=${Array.from({ length: MAX_DIFFS + 1 }, () => 0).join(',')}`],
  ])('refuses %s with one sentence', async (_case, at) => {
    const { version } = await round();
    const response = await get(`/api/diffs?v=${version}&${at}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^[A-Z].*\.$/);
  });
});

describe('compression', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('answers %s when the browser asks, decompressing to the same bytes', async (encoding, decompress) => {
    const { version, data } = await round();
    for (const url of ['/api/round', `/api/diffs?v=${version}&at=${data.material.map((_, i) => i).join(',')}`]) {
      const plain = await get(url, viewerHeaders({ 'accept-encoding': 'identity' }));
      expect(plain.headers['content-encoding']).toBeUndefined();
      const packed = await get(url, viewerHeaders({ 'accept-encoding': `${encoding}, deflate` }));
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decompress(packed.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });
});

describe('a material.json rewritten while it is read', () => {
  /** A round of `files` files whose every diff names the round's letter, long enough to be read back from the file. */
  const version = (letter: string, files: number) => {
    const base = onDisk();
    const material = Array.from({ length: files }, (_, i) => ({
      ref: `f${i}.txt`,
      status: 'modified' as const,
      binary: false,
      hash: `h${i}`,
      diff: `@@ -1 +1 @@\n${`-old ${letter}\n+new ${letter}\n`.repeat(200)}`,
    }));
    return `${JSON.stringify({ ...base, material }, null, 2)}\n`;
  };

  it('answers the old round or the new one, never a mix, whether it is renamed over or written in place', async () => {
    const texts = { A: version('A', 30), B: version('B', 30) };
    const letterOf = new Map(
      Object.entries(texts).map(([letter, text]) => [
        createHash('sha256').update(text).digest('hex').slice(0, 16),
        letter,
      ]),
    );
    const file = repo.review('material.json');
    writeFileSync(file, texts.A);
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const text = n % 2 ? texts.A : texts.B;
        if (n % 4 < 2) writeFileSync(file, text);
        else {
          writeFileSync(`${file}.tmp`, text);
          renameSync(`${file}.tmp`, file);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const seen = { answers: 0, refused: 0, letters: new Set<string>() };
    // Until both rounds were served whole a few times; the deadline is only a safety net.
    const deadline = Date.now() + 30_000;
    while ((seen.answers <= 5 || seen.letters.size < 2) && Date.now() < deadline) {
      const state = RoundState.parse((await get('/api/round')).json());
      if (state.state !== 'ok') continue; // caught between a truncate and a write: a state, never a crash
      const at = state.data.material.map((_, i) => i).join(',');
      const response = await get(`/api/diffs?v=${state.version}&at=${at}`).catch((error: Error) => error);
      // A write in place found once the answer is under way cuts it off: never a whole answer that mixes.
      if (response instanceof Error) {
        expect(response.message).toMatch(/destroyed before completion/);
        seen.refused++;
        continue;
      }
      if (response.statusCode === 409) {
        seen.refused++;
        continue;
      }
      expect(response.statusCode).toBe(200);
      const letters = new Set(Diffs.parse(response.json()).diffs.map((d) => /new ([AB])/.exec(d ?? '')?.[1]));
      expect([...letters], 'one answer holds the diffs of the round it names').toEqual([letterOf.get(state.version)]);
      seen.letters.add([...letters][0]!);
      seen.answers++;
    }
    writing = false;
    await writer;
    expect(seen.answers, `answers (${seen.refused} refused or cut off as changed)`).toBeGreaterThan(5);
    expect(seen.letters.size, 'both rounds were served').toBe(2);
  });
});
