import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Material } from '../../schemas/material';
import { assertBuilt, gitRepo, removeTemporaryFolders, runCli } from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

const LONG_AGO = '2000-01-01T00:00:00Z';
const LATER = '2999-01-01T00:00:00Z';

const note = (title: string, refs: string[], text: string, extra: Record<string, unknown> = {}) => ({
  title,
  refs,
  text,
  at: LONG_AGO,
  ...extra,
});

/** Notes of every kind and place; `c_3` addresses two of them. */
const NOTES = {
  contract: 1,
  notes: {
    'line:src/limit.ts:+2': note('src/limit.ts line +2', ['src/limit.ts'], 'Why thirty?\nAnd not sixty?', {
      quote: '+export const LIMIT = 30;',
      kind: 'question',
    }),
    'file:README.md': note('README.md', ['README.md'], 'Say it in the changelog too.', { kind: 'change' }),
    c_2: note('The README says so', ['README.md'], 'Already answered.'),
    c_1: note('The limit is thirty', ['src/limit.ts'], 'Split this card.'),
    'file:src/limit.ts': note('src/limit.ts', ['src/limit.ts'], 'Add a test.'),
    'line:src/limit.ts:+1': note('src/limit.ts line +1', ['src/limit.ts'], 'Keep this comment.', {
      quote: '+// the limit',
      at: LATER,
      extra: 'kept',
    }),
  },
};

const CARDS = {
  contract: 1,
  cards: [
    { id: 'c_1', title: 'The limit is thirty', intent: 'behavior', minutes: 2, refs: ['src/limit.ts'] },
    { id: 'c_2', title: 'The README says so', intent: 'cleanup', minutes: 1, refs: ['README.md'] },
    {
      id: 'c_3',
      title: 'Answers',
      intent: 'cleanup',
      minutes: 1,
      refs: ['README.md'],
      addresses: ['c_2', 'line:src/limit.ts:+1'],
    },
  ],
};

let dir = '';

async function notes(...args: string[]) {
  return runCli(['notes', ...args], { cwd: dir });
}

describe('involut notes', () => {
  beforeAll(async () => {
    ({ dir } = await gitRepo());
    await writeFile(path.join(dir, 'README.md'), '# test\n\nThe limit is thirty.\n');
    await mkdir(path.join(dir, 'src'));
    await writeFile(path.join(dir, 'src', 'limit.ts'), '// the limit\nexport const LIMIT = 30;\n');
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    await writeFile(path.join(dir, '.review', 'cards.json'), JSON.stringify(CARDS));
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(NOTES, null, 2));
  });

  it('prints the open notes as Markdown: card notes first, then each file with its line notes in order', async () => {
    const result = await notes();
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const out = result.stdout;
    expect(out.split('\n')[0]).toBe('# 5 open notes');
    expect(out).toContain('address every note');
    const headings = out.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual([
      '# 5 open notes',
      '## Change on card `c_1`: The limit is thirty',
      // README.md comes first in the material (git's path order), src/limit.ts second.
      '## File `README.md`',
      '### Change on the file',
      '## File `src/limit.ts`',
      '### Change on the file',
      '### Change on line +1',
      '### Question on line +2',
    ]);
  });

  it('gives each note its key, refs, the quoted line of a line note, the reader’s words and the cards that address it', async () => {
    const out = (await notes()).stdout;
    const question = out.slice(out.indexOf('### Question on line +2'));
    expect(question).toContain('- key: `line:src/limit.ts:+2`');
    expect(question).toContain('- refs: `src/limit.ts`');
    expect(question).toContain('```diff\n+export const LIMIT = 30;\n```');
    expect(question).toContain('> Why thirty?\n> And not sixty?');
    // Addressed, but the note was written after the round was captured: still open.
    const reopened = out.slice(out.indexOf('### Change on line +1'), out.indexOf('### Question on'));
    expect(reopened).toContain('- addressed by `c_3` (still open)');
    expect(reopened).toContain('```diff\n+// the limit\n```');
  });

  it('leaves answered notes out, and --all shows every note marked with its state', async () => {
    expect((await notes()).stdout).not.toContain('Already answered.');
    const all = await notes('--all');
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n')[0]).toBe('# 6 notes: 5 open, 1 answered, 0 resolved');
    expect(all.stdout).toContain(
      '## Change on card `c_2`: The README says so (answered)\n\n- key: `c_2`\n- refs: `README.md`\n- answered by `c_3`\n\n> Already answered.',
    );
    expect(all.stdout).toContain('## Change on card `c_1`: The limit is thirty (open)\n');
  });

  it('leaves resolved notes out too, and shows a range note and a follow-up with its earlier text', async () => {
    const life = structuredClone(NOTES) as { contract: 1; notes: Record<string, unknown> };
    Object.assign(life.notes, {
      c_1: note('The limit is thirty', ['src/limit.ts'], 'Split this card.', { resolvedAt: '2000-01-02T00:00:00Z' }),
      'line:src/limit.ts:+1-2': note('src/limit.ts lines +1–2', ['src/limit.ts'], 'One line, not two.', {
        quote: '+// the limit\n+export const LIMIT = 30;',
      }),
      'file:README.md': note('README.md', ['README.md'], 'And in the release notes.', {
        at: LATER,
        earlier: [
          { text: 'Say it in the changelog too.', at: LONG_AGO, answeredBy: [{ id: 'c_3', title: 'Answers' }] },
        ],
      }),
    });
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(life));
    const open = (await notes()).stdout;
    expect(open.split('\n')[0]).toBe('# 5 open notes');
    expect(open).not.toContain('Split this card.');
    expect(open).toContain(
      '### Change on lines +1–2\n\n- key: `line:src/limit.ts:+1-2`\n- refs: `src/limit.ts`\n\n```diff\n+// the limit\n+export const LIMIT = 30;\n```\n\n> One line, not two.',
    );
    expect(open).toContain(
      'Earlier, answered by `c_3`:\n\n> Say it in the changelog too.\n\nFollow-up:\n\n> And in the release notes.',
    );
    const all = (await notes('--all')).stdout;
    expect(all.split('\n')[0]).toBe('# 7 notes: 5 open, 1 answered, 1 resolved');
    expect(all).toContain(
      '## Change on card `c_1`: The limit is thirty (resolved)\n\n- key: `c_1`\n- refs: `src/limit.ts`\n- resolved by the reader at 2000-01-02T00:00:00Z\n\n> Split this card.',
    );
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(NOTES, null, 2));
  });

  it('--json prints notes.json as it is', async () => {
    const result = await notes('--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(NOTES);
    expect(JSON.parse((await notes('--json', '--all')).stdout)).toEqual(NOTES);
  });

  it('says where a line note went when its line moved or left the diff', async () => {
    const moved = structuredClone(NOTES);
    Object.assign(moved.notes, {
      'line:src/limit.ts:+9': note('src/limit.ts line +9', ['src/limit.ts'], 'Moved.', {
        quote: '+export const LIMIT = 30;',
      }),
      'line:src/limit.ts:+7': note('src/limit.ts line +7', ['src/limit.ts'], 'Gone.', {
        quote: '+export const LIMIT = 20;',
      }),
    });
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(moved));
    const out = (await notes()).stdout;
    expect(out).toContain(
      '- key: `line:src/limit.ts:+9`\n- refs: `src/limit.ts`\n- moved: the quoted line is now line +2',
    );
    expect(out).toContain(
      '- key: `line:src/limit.ts:+7`\n- refs: `src/limit.ts`\n- outdated: the quoted line is no longer in the diff',
    );
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(NOTES, null, 2));
  });

  it('says "No open notes." when every note is answered', async () => {
    const answered = { contract: 1, notes: { c_2: NOTES.notes.c_2 } };
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(answered));
    expect(await notes()).toEqual({
      code: 0,
      stdout: 'No open notes.\n1 answered; `involut notes --all` shows them.\n',
      stderr: '',
    });
    await writeFile(path.join(dir, '.review', 'notes.json'), JSON.stringify(NOTES, null, 2));
  });

  it('refuses a notes.json that does not parse, with its line and column, and prints nothing on stdout', async () => {
    const file = path.join(dir, '.review', 'notes.json');
    await writeFile(file, '{\n  "contract": 1,\n  "notes": {\n');
    const result = await notes();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^involut: \.review\/notes\.json is not valid JSON at line 4, column 1; fix it by hand \(no last good copy is kept yet: the viewer keeps one at \.review\/notes\.last-good\.json once it has read a valid notes\.json\)\.\n$/,
    );
    const json = await notes('--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'bad-notes' } });
    expect(await readFile(file, 'utf8')).toBe('{\n  "contract": 1,\n  "notes": {\n');
    await writeFile(file, JSON.stringify(NOTES, null, 2));
  });
});

describe('the rounds summary', () => {
  it('says how many notes are still open once the round is captured, and nothing without notes', async () => {
    const { dir: repo } = await gitRepo();
    await writeFile(path.join(repo, 'x.txt'), 'x\n');
    const first = await runCli(['rounds'], { cwd: repo });
    expect(first.stdout).not.toContain('  notes ');
    await writeFile(path.join(repo, '.review', 'cards.json'), JSON.stringify(CARDS));
    await writeFile(path.join(repo, '.review', 'notes.json'), JSON.stringify(NOTES));
    await writeFile(path.join(repo, 'x.txt'), 'y\n');
    // c_3 answers c_2 (written before this round); its other note was written after, so it stays open.
    const second = await runCli(['rounds'], { cwd: repo });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^ {2}notes {5}5 open: `.*notes` shows them; a card answers one by naming it in `addresses`$/m,
    );
    const json = await runCli(['rounds', '--json'], { cwd: repo });
    expect(JSON.parse(json.stdout).open_notes).toBe(5);
  });
});

describe('involut notes without notes.json', () => {
  it('says "No open notes." and --json prints an empty notes file', async () => {
    const { dir: repo } = await gitRepo();
    expect(await runCli(['notes'], { cwd: repo })).toEqual({ code: 0, stdout: 'No open notes.\n', stderr: '' });
    const json = await runCli(['notes', '--json'], { cwd: repo });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ contract: 1, notes: {} });
  });

  it('still prints the notes when cards.json is broken, warning once on stderr', async () => {
    const { dir: repo } = await gitRepo();
    await writeFile(path.join(repo, 'x.txt'), 'x\n');
    expect((await runCli(['rounds', '--quiet'], { cwd: repo })).code).toBe(0);
    Material.parse(JSON.parse(await readFile(path.join(repo, '.review', 'material.json'), 'utf8')));
    await writeFile(path.join(repo, '.review', 'cards.json'), '{ nope');
    await writeFile(
      path.join(repo, '.review', 'notes.json'),
      JSON.stringify({ contract: 1, notes: { 'file:x.txt': note('x.txt', ['x.txt'], 'Why?', { kind: 'question' }) } }),
    );
    const result = await runCli(['notes'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('### Question on the file');
    expect(result.stderr).toBe(
      'involut: warning: cards.json cannot be read, so no note shows the cards that address it; run `involut check` to see why.\n',
    );
  });
});
