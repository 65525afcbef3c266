import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, gitRepo, removeTemporaryFolders, runCli } from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

type CardJson = Record<string, unknown>;
interface Finding {
  level: 'error' | 'warning' | 'info';
  code: string;
  file: string;
  card?: string;
  position?: number;
  message: string;
  fix: string;
}

/** Two cards that explain the round of `repoWithRound` completely. */
function goodCards(): { contract: 1; request: string; cards: CardJson[] } {
  return {
    contract: 1,
    request: 'make the limit thirty',
    cards: [
      {
        id: 'c_1',
        title: 'The limit is thirty',
        intent: 'behavior',
        minutes: 2,
        refs: ['src/limit.ts'],
        marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 30', text: 'The whole change.' }],
        continues: null,
        addresses: null,
      },
      { id: 'c_2', title: 'The README says so', intent: 'cleanup', minutes: 1, refs: ['README.md'], continues: 'c_1' },
    ],
  };
}

/** A repository whose round changed README.md and added src/limit.ts, captured by the real `involut rounds`. */
async function repoWithRound(): Promise<string> {
  const { dir } = await gitRepo();
  await writeFile(path.join(dir, 'README.md'), '# test\n\nThe limit is thirty.\n');
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'src', 'limit.ts'), 'export const LIMIT = 30;\n');
  const rounds = await runCli(['rounds', '--quiet'], { cwd: dir });
  expect(rounds.code).toBe(0);
  return dir;
}

let dir = '';

async function writeReview(file: 'cards.json' | 'notes.json', content: unknown): Promise<void> {
  await writeFile(
    path.join(dir, '.review', file),
    typeof content === 'string' ? content : JSON.stringify(content, null, 2),
  );
}

async function check(...args: string[]) {
  const result = await runCli(['check', ...args], { cwd: dir });
  return { ...result, lines: result.stdout.trimEnd().split('\n') };
}

async function checkJson(
  ...args: string[]
): Promise<{ code: number | null; errors: number; warnings: number; findings: Finding[] }> {
  const result = await runCli(['check', '--json', ...args], { cwd: dir });
  expect(result.stderr).toBe('');
  return {
    code: result.code,
    ...(JSON.parse(result.stdout) as { errors: number; warnings: number; findings: Finding[] }),
  };
}

describe('involut check', () => {
  beforeAll(async () => {
    dir = await repoWithRound();
  });

  it('says cards.json is clean and exits 0 when nothing is wrong', async () => {
    await writeReview('cards.json', goodCards());
    await rm(path.join(dir, '.review', 'notes.json'), { force: true });
    const result = await check();
    expect(result).toMatchObject({ code: 0, stdout: 'cards.json is clean\n', stderr: '' });
    expect(await checkJson()).toEqual({ code: 0, errors: 0, warnings: 0, information: 0, round: 1, findings: [] });
    expect((await check('--strict')).code).toBe(0);
  });

  it('runs from a subfolder of the repository, and on another one with --repo', async () => {
    await writeReview('cards.json', goodCards());
    expect(await runCli(['check'], { cwd: path.join(dir, 'src') })).toMatchObject({
      code: 0,
      stdout: 'cards.json is clean\n',
    });
    const { dir: elsewhere } = await gitRepo();
    expect(await runCli(['check', '--repo', dir], { cwd: elsewhere })).toMatchObject({
      code: 0,
      stdout: 'cards.json is clean\n',
    });
  });

  it('reports cards.json that is not JSON with its line and column', async () => {
    await writeReview('cards.json', '{\n  "contract": 1,\n  "cards": [}\n');
    const result = await check();
    expect(result.code).toBe(1);
    expect(result.lines[0]).toBe(
      "error cards.json: cards.json is not valid JSON at line 3, column 13 (Unexpected token '}').",
    );
    expect(result.lines[1]).toMatch(/^ {2}fix: /);
    expect(result.lines.at(-1)).toBe('1 error, 0 warnings');
    const json = await checkJson();
    expect(json.findings).toEqual([expect.objectContaining({ level: 'error', code: 'not-json', file: 'cards.json' })]);
  });

  it('reports a file whose frame is wrong, naming the field', async () => {
    await writeReview('cards.json', { contract: 2, cards: {} });
    const result = await check();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error cards.json: In cards.json, `contract` is 2, not 1.');
    expect(result.stdout).toContain('error cards.json: In cards.json, `cards` should be a list, not an object.');
  });

  type Case = [
    name: string,
    change: (cards: CardJson[]) => void,
    code: string,
    card: string | undefined,
    message: RegExp,
  ];

  const errors: Case[] = [
    [
      'a field of the wrong shape, per card by id',
      (c) => (c[1]!.intent = 'feature'),
      'card-schema',
      'c_2',
      /`intent` is "feature", not one of structure, behavior/,
    ],
    ['a missing field', (c) => delete c[0]!.refs, 'card-schema', 'c_1', /`refs` is missing/],
    ['a repeated id', (c) => (c[1]!.id = 'c_1'), 'duplicate-id', 'c_1', /Cards 1 and 2 have the same id "c_1"/],
    [
      'continues naming an unknown id',
      (c) => (c[1]!.continues = 'c_9'),
      'unknown-continues',
      'c_2',
      /`continues` names "c_9", which is no card's id/,
    ],
    [
      "a mark on a file that is not one of its card's refs",
      (c) => (c[1]!.marks = [{ ref: 'src/limit.ts', at: 'LIMIT', text: 'x' }]),
      'mark-ref',
      'c_2',
      /A mark is on "src\/limit.ts", which is not one of the card's refs/,
    ],
  ];

  it.each(errors)('exits 1 on %s, naming the card and the fix', async (_name, change, code, card, message) => {
    const cards = goodCards();
    change(cards.cards);
    await writeReview('cards.json', cards);
    const result = await check();
    expect(result.code).toBe(1);
    const line = result.lines.findIndex((l) => l.startsWith(`error ${card}`) && message.test(l));
    expect(line, result.stdout).toBeGreaterThanOrEqual(0);
    expect(result.lines[line + 1]).toMatch(/^ {2}fix: \S.*\.$/);
    expect(result.lines.at(-1)).toMatch(/^\d+ errors?, \d+ warnings?$/);
    const json = await checkJson();
    expect(json.code).toBe(1);
    expect(json.errors).toBeGreaterThan(0);
    expect(json.findings).toContainEqual(
      expect.objectContaining({
        level: 'error',
        code,
        card,
        file: 'cards.json',
        message: expect.stringMatching(message),
        fix: expect.any(String),
      }),
    );
  });

  it('names a card without an id by its place in the list', async () => {
    const cards = goodCards();
    cards.cards.push({ title: 'no id', intent: 'risk', refs: [] });
    await writeReview('cards.json', cards);
    const result = await check();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('error card 3: `id` is missing.');
    expect((await checkJson()).findings).toContainEqual(expect.objectContaining({ code: 'card-schema', position: 3 }));
    expect((await checkJson()).findings[0]).not.toHaveProperty('card');
  });

  const warnings: Case[] = [
    [
      'a ref that is not in the material',
      (c) => (c[0]!.refs = ['src/limit.ts', 'src/gone.ts']),
      'unknown-ref',
      'c_1',
      /"src\/gone.ts" is not a changed file of this round/,
    ],
    [
      "a mark whose at matches no line of its file's diff",
      (c) => (c[0]!.marks = [{ ref: 'src/limit.ts', at: 'LIMIT = 40', text: 'x' }]),
      'mark-unmatched',
      'c_1',
      /The mark at "LIMIT = 40" matches no line of src\/limit.ts's diff/,
    ],
    [
      'a changed file no card claims',
      (c) => c.pop(),
      'unclaimed',
      undefined,
      /1 changed file is on no card: README.md/,
    ],
    [
      'a card without minutes',
      (c) => delete c[1]!.minutes,
      'no-minutes',
      'c_2',
      /The card does not say how many minutes it takes to understand/,
    ],
    [
      'addresses naming a note key not in notes.json',
      (c) => (c[1]!.addresses = ['file:nope.ts']),
      'unknown-note',
      'c_2',
      /`addresses` names "file:nope.ts", which is not a note in notes.json/,
    ],
    [
      'a payload its render cannot draw',
      (c) => Object.assign(c[0]!, { render: 'tree', payload: { before: [] } }),
      'payload',
      'c_1',
      /The tree drawing is absent: payload\.after: after is the list of entries after the change \(\[\] when there are none\)\. The diff below shows the change\./,
    ],
  ];

  it.each(warnings)('exits 0 on %s, 1 with --strict', async (_name, change, code, card, message) => {
    const cards = goodCards();
    change(cards.cards);
    await writeReview('cards.json', cards);
    const result = await check();
    expect(result.code).toBe(0);
    expect(result.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^warning ${card ?? 'cards.json'}: ${message.source}`)),
    );
    expect(result.lines.at(-1)).toBe('0 errors, 1 warning');
    const json = await checkJson();
    expect(json).toMatchObject({ code: 0, errors: 0, warnings: 1 });
    expect(json.findings).toEqual([
      expect.objectContaining({
        level: 'warning',
        code,
        ...(card ? { card } : {}),
        message: expect.stringMatching(message),
      }),
    ]);
    expect((await check('--strict')).code).toBe(1);
  });

  it('checks addresses against the keys of notes.json', async () => {
    const cards = goodCards();
    cards.cards[1]!.addresses = ['c_1', 'line:src/limit.ts:+1'];
    await writeReview('cards.json', cards);
    const note = { title: 't', refs: ['src/limit.ts'], text: 'why?', at: '2026-01-01T00:00:00Z' };
    await writeReview('notes.json', {
      contract: 1,
      notes: { c_1: note, 'line:src/limit.ts:+1': { ...note, quote: '+export const LIMIT = 30;', kind: 'question' } },
    });
    expect(await check()).toMatchObject({ code: 0, stdout: 'cards.json is clean\n' });
    await rm(path.join(dir, '.review', 'notes.json'));
  });

  it('exits 1 on a notes.json that does not parse, or fails the schema', async () => {
    await writeReview('cards.json', goodCards());
    await writeReview('notes.json', '{ "contract": 1, "notes": {');
    const broken = await check();
    expect(broken.code).toBe(1);
    expect(broken.lines[0]).toMatch(/^error notes\.json: notes\.json is not valid JSON at line 1, column \d+/);
    expect(broken.lines[1]).toContain('Fix it by hand (no last good copy is kept yet');

    await writeReview('notes.json', { contract: 1, notes: { c_1: { title: 't', refs: [], at: 'now' } } });
    const invalid = await checkJson();
    expect(invalid.code).toBe(1);
    expect(invalid.findings).toEqual([
      expect.objectContaining({
        level: 'error',
        code: 'notes-schema',
        file: 'notes.json',
        message: 'In notes.json, `notes.c_1.text` is missing.',
      }),
    ]);
    await rm(path.join(dir, '.review', 'notes.json'));
  });

  it('lists every finding, card by card, with the count of each kind', async () => {
    const cards = goodCards();
    cards.cards[0]!.continues = 'c_0';
    delete cards.cards[0]!.minutes;
    cards.cards[1]!.intent = 'docs';
    await writeReview('cards.json', cards);
    const result = await check();
    expect(result.code).toBe(1);
    expect(result.lines.filter((l) => /^(error|warning) /.test(l)).map((l) => l.split(':')[0])).toEqual([
      'error c_1',
      'warning c_1',
      'error c_2',
    ]);
    // c_2 fails the schema, yet its file counts as claimed: README.md is on a card.
    expect(result.lines.at(-1)).toBe('2 errors, 1 warning');
    expect(await checkJson()).toMatchObject({ errors: 2, warnings: 1 });
  });
});

describe('involut check without the files', () => {
  it('warns that there is no cards.json, with the fix, and exits 0', async () => {
    const repo = await repoWithRound();
    const result = await runCli(['check'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('warning cards.json: There is no .review/cards.json');
    expect(result.stdout).toContain('fix: Write .review/cards.json');
    expect((await runCli(['check', '--strict'], { cwd: repo })).code).toBe(1);
  });

  it('skips the checks against the material when material.json is missing, saying to run involut rounds', async () => {
    const { dir: repo } = await gitRepo();
    await mkdir(path.join(repo, '.review'));
    const cards = goodCards();
    cards.cards[0]!.refs = ['src/limit.ts', 'not/in/any/material.ts'];
    await writeFile(path.join(repo, '.review', 'cards.json'), JSON.stringify(cards));
    const result = await runCli(['check', '--json'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      errors: 0,
      warnings: 1,
      information: 0,
      round: 1,
      findings: [
        {
          level: 'warning',
          code: 'no-material',
          file: 'material.json',
          message: 'There is no .review/material.json, so the checks against the changed files were skipped.',
          fix: 'Run `involut rounds` to capture the round into .review/material.json.',
        },
      ],
    });
  });

  it('refuses a folder outside any repository, once, on stderr', async () => {
    const { dir: repo } = await gitRepo();
    const outside = path.dirname(repo);
    const result = await runCli(['check', '--repo', path.join(outside, 'no-such-folder')], { cwd: repo });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^involut: .*no-such-folder is not a folder; pass --repo with the folder of your repository\.\n$/,
    );
  });
});
