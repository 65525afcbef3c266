import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, gitRepo, removeTemporaryFolders, runCli } from '../helpers/cli';
import { png } from '../helpers/git-repo';

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

async function checkJson(dir: string, ...args: string[]) {
  const result = await runCli(['check', '--json', ...args], { cwd: dir });
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

async function repoWithLimit(limit: number) {
  const repo = await gitRepo();
  await mkdir(path.join(repo.dir, 'src'));
  await writeFile(path.join(repo.dir, 'src', 'limit.ts'), `export const LIMIT = ${limit};\n`);
  return repo;
}

describe('involut check and the viewer agree', () => {
  it("flags every drawing and question the viewer reports, in the viewer's words", async () => {
    const { dir } = await repoWithLimit(30);
    await mkdir(path.join(dir, 'art'));
    await writeFile(path.join(dir, 'art', 'sheet.png'), png(64, 64));
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    await writeCards(dir, [
      card('c_question', { question: { when: 'after', text: 'What breaks?', options: null } }),
      card('c_graph', {
        render: 'graph',
        payload: { graph: { nodes: [{ id: 'a' }, { id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'x' }] } },
      }),
      card('c_table', { render: 'table', payload: { table: { columns: ['k', 'v'], rows: [['a', 1], ['b']] } } }),
      card('c_image', {
        refs: ['art/sheet.png'],
        render: 'image',
        payload: { frames: [{ name: 'ghost', x: 64, y: 0, w: 16, h: 16 }] },
      }),
    ]);
    const { code, findings } = await checkJson(dir);
    expect(code).toBe(0);
    const said = (id: string) => findings.filter((f) => f.card === id).map((f) => [f.level, f.code, f.message]);
    expect(said('c_question')).toEqual([
      [
        'warning',
        'no-answer',
        'The question has no `answer`, so after the reader answers, “The agent’s answer” says “not stated”.',
      ],
    ]);
    // The sentences the viewer draws above the graph, the table and the frames (see tests/e2e-renders).
    expect(said('c_graph')).toEqual([
      ['warning', 'graph-dangling', '1 edge names a node that is not in the graph, so it is not drawn: a → x.'],
      [
        'warning',
        'graph-duplicate',
        "1 node id appears more than once: a (2 times); each is drawn once, with the first one's label and state.",
      ],
    ]);
    expect(said('c_table')).toEqual([
      [
        'warning',
        'table-ragged',
        'One row does not have 2 cells, one per column: row 2 has 1 (1 missing, marked “no cell”).',
      ],
    ]);
    expect(said('c_image')).toEqual([
      [
        'warning',
        'frames-outside',
        'art/sheet.png: 1 frame lies outside the image and could not be compared: ghost (x 64, y 0, 16×16) is outside the after image (64×64).',
      ],
    ]);
    expect((await checkJson(dir, '--strict')).code).toBe(1);
  });

  it('checks the marks, refs and files of a card that fails the schema in the same run', async () => {
    const { dir } = await repoWithLimit(30);
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    await writeCards(dir, [
      card('c_1', {
        intent: 'feature',
        minutes: 'two',
        refs: ['src/limit.ts', 'src/gone.ts'],
        marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 99', text: 'x' }],
      }),
    ]);
    const { code, findings } = await checkJson(dir);
    expect(code).toBe(1);
    expect(findings.map((f) => [f.level, f.code])).toEqual([
      ['error', 'card-schema'],
      ['error', 'card-schema'],
      ['warning', 'mark-unmatched'],
      ['warning', 'unknown-ref'],
    ]);
    // Its file counts as claimed, and its broken `minutes` is reported once, as the schema error.
    expect(findings.some((f) => f.code === 'unclaimed' || f.code === 'no-minutes')).toBe(false);
  });
});

describe('involut check scoped to the round', () => {
  it("reports an earlier card's stale mark as information, so --strict passes without editing it", async () => {
    const { dir } = await repoWithLimit(30);
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    const first = card('c_1', { marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 30', text: 'The whole change.' }] });
    await writeCards(dir, [first]);
    expect((await checkJson(dir, '--strict')).code).toBe(0);

    await writeFile(path.join(dir, 'src', 'limit.ts'), 'export const LIMIT = 40;\n');
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    const second = card('c_2', { marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 40', text: 'Now forty.' }] });
    await writeCards(dir, [first, second]);
    const clean = await checkJson(dir, '--strict');
    expect(clean).toMatchObject({ code: 0, warnings: 0, information: 1, round: 2 });
    expect(clean.findings).toEqual([
      {
        level: 'info',
        code: 'mark-unmatched',
        file: 'cards.json',
        card: 'c_1',
        position: 1,
        round: 1,
        message:
          'The mark at "LIMIT = 30" matches no line of src/limit.ts\'s diff: the card is from round 1, and the code moved on since.',
      },
    ]);
    const text = await runCli(['check', '--strict'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('fix:');
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      'cards.json is clean; and 1 line of information about earlier cards, nothing to fix',
    );

    // The same slip on this round's new card is still a warning, with its fix.
    await writeCards(dir, [first, card('c_2', { marks: [{ ref: 'src/limit.ts', at: 'LIMIT = 50', text: '?' }] })]);
    const stale = await checkJson(dir, '--strict');
    expect(stale.code).toBe(1);
    expect(stale.findings.find((f) => f.card === 'c_2')).toMatchObject({
      level: 'warning',
      code: 'mark-unmatched',
      fix: expect.stringContaining('Copy `at`'),
    });
  });
});
