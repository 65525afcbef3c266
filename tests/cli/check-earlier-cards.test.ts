import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, gitRepo, removeTemporaryFolders, runCli } from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

interface Finding {
  level: 'error' | 'warning' | 'info';
  code: string;
  card?: string;
  message: string;
  fix?: string;
  round?: number;
}

async function checkJson(dir: string) {
  const result = await runCli(['check', '--json'], { cwd: dir });
  expect(result.stderr).toBe('');
  return { code: result.code, ...(JSON.parse(result.stdout) as { warnings: number; findings: Finding[] }) };
}

const writeCards = (dir: string, cards: unknown[]) =>
  writeFile(path.join(dir, '.review', 'cards.json'), JSON.stringify({ contract: 1, cards }, null, 2));

const card = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  intent: 'behavior',
  minutes: 1,
  refs: ['src/limit.ts'],
  ...extra,
});

const rounds = async (dir: string) => expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
const setLimit = (dir: string, limit: number) =>
  writeFile(path.join(dir, 'src', 'limit.ts'), `export const LIMIT = ${limit};\n`);

describe('involut check and the cards of earlier rounds', () => {
  it('names an earlier card the agent renamed, with the round to restore it from', async () => {
    const { dir } = await gitRepo();
    await mkdir(path.join(dir, 'src'));
    await setLimit(dir, 30);
    await rounds(dir);
    const first = card('c_1');
    await writeCards(dir, [first]);
    await setLimit(dir, 40);
    await rounds(dir);
    // The agent rewrote the file and called its first card something else.
    await writeCards(dir, [card('c_limit'), card('c_2')]);
    const { code, findings } = await checkJson(dir);
    expect(code).toBe(1);
    expect(findings).toContainEqual({
      level: 'error',
      code: 'missing-earlier',
      file: 'cards.json',
      card: 'c_1',
      round: 1,
      message: 'The card "c_1" of round 1 is no longer in cards.json; earlier cards are never renamed or deleted.',
      fix: 'Put it back as it was, from .review/rounds/1/cards.json; to revise it, add a new card whose `continues` is "c_1".',
    });
    const text = await runCli(['check'], { cwd: dir });
    expect(text.stdout).toContain('error c_1: The card "c_1" of round 1 is no longer in cards.json');
    expect(text.stdout).toContain('  fix: Put it back as it was, from .review/rounds/1/cards.json');
    // The kept round holds it as it was: putting it back makes check pass.
    const kept = JSON.parse(await readFile(path.join(dir, '.review', 'rounds', '1', 'cards.json'), 'utf8')) as {
      cards: unknown[];
    };
    await writeCards(dir, [...kept.cards, card('c_2')]);
    expect((await checkJson(dir)).findings.filter((f) => f.level === 'error')).toEqual([]);
  });

  it('keeps a card the agent may fix while the captured tree stays the same', async () => {
    const { dir } = await gitRepo();
    await mkdir(path.join(dir, 'src'));
    await setLimit(dir, 30);
    await rounds(dir);
    await writeCards(dir, [card('c_1', { marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 99', text: '?' }] })]);
    const before = await checkJson(dir);
    // `involut rounds` again with no change to the code: the same tree is captured.
    await rounds(dir);
    const after = await checkJson(dir);
    expect(after.findings).toEqual(before.findings);
    expect(after.findings.find((f) => f.card === 'c_1')).toMatchObject({
      level: 'warning',
      code: 'mark-unmatched',
      fix: expect.stringContaining('Copy `at`'),
    });
    expect(after.findings.some((f) => f.message.includes('moved on'))).toBe(false);
    // Still the agent's card: renaming it is no error.
    await writeCards(dir, [card('c_one')]);
    expect((await checkJson(dir)).findings.some((f) => f.code === 'missing-earlier')).toBe(false);
  });

  it('counts information apart from the warnings', async () => {
    const { dir } = await gitRepo();
    await mkdir(path.join(dir, 'src'));
    await setLimit(dir, 30);
    await rounds(dir);
    const first = card('c_1', { marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 30', text: 'Thirty.' }] });
    await writeCards(dir, [first]);
    await setLimit(dir, 40);
    await rounds(dir);
    await writeCards(dir, [first, card('c_2', { minutes: null })]);
    const text = await runCli(['check'], { cwd: dir });
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      '0 errors, 1 warning; and 1 line of information about earlier cards, nothing to fix',
    );
    // A card too big to open quickly: a warning, per card, with the fix.
    const rows = Array.from({ length: 40_000 }, (_, i) => [i, `limit ${i}`]);
    await writeCards(dir, [first, card('c_2', { render: 'table', payload: { table: { columns: ['n', 'v'], rows } } })]);
    const big = (await checkJson(dir)).findings.find((f) => f.code === 'card-size');
    expect(big).toMatchObject({ level: 'warning', card: 'c_2', fix: expect.stringContaining('Split the card') });
    expect(big!.message).toContain('over the 512 KiB a card should hold');
  });
});
