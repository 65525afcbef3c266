/**
 * The agent's wrong turns, seen where the reader reads: an earlier card renamed away (its
 * note stays in sight, with its text, in Cards and in Raw), a repeated card id (listed as
 * invalid, readable, with why), an earlier card naming a file the round no longer
 * changes (information, as `involut check` says it, not a red slip), and a notes.json
 * broken by hand (a banner with where, the last good notes kept, typing kept as a draft).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, eventually, text, until } from '../helpers/browser';
import { openViewer, removeLoopDirs, startAgent, type Viewer } from '../helpers/agent-loop';

const LIMIT = {
  id: 'c_1',
  title: 'Limits come from one place',
  intent: 'behavior',
  minutes: 2,
  refs: ['src/limit.ts'],
};
const OTHER = { id: 'c_other', title: 'The other file says b', intent: 'behavior', minutes: 1, refs: ['src/other.ts'] };
const CARD_NOTE = 'Why one place and not a setting?';

let viewer: Viewer | null = null;
afterEach(async () => {
  const errors = viewer?.errors ?? [];
  await viewer?.close();
  viewer = null;
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
afterAll(removeLoopDirs);

const nav = (page: Page) => page.locator('nav[aria-label="Cards"]');
const gone = (page: Page) => page.getByRole('region', { name: 'Notes on cards no longer in cards.json' });

describe('the agent’s wrong turns', () => {
  it('keeps a renamed card’s note in sight, lists a repeated id as invalid, and weighs earlier cards as check does', async () => {
    const agent = startAgent({ 'src/limit.ts': 'export const LIMIT = 10;\n', 'src/other.ts': 'a\n' });
    agent.begin();
    agent.write('src/limit.ts', 'export const LIMIT = 30;\n');
    agent.write('src/other.ts', 'b\n');
    agent.rounds();
    agent.writeCards({ contract: 1, cards: [LIMIT, OTHER] });
    viewer = await openViewer(agent);
    const { page, screenshot } = viewer;

    await page.getByRole('textbox', { name: `Note on card ${LIMIT.title}`, exact: true }).pressSequentially(CARD_NOTE);
    await until(agent.notes, (n) => n?.notes.c_1?.text === CARD_NOTE, 'the card note written');
    expect(await gone(page).count()).toBe(0);

    // Round 2: other.ts is back as it was; the agent rewrites cards.json, renaming c_1 and
    // repeating c_other's id on a new card.
    agent.write('src/limit.ts', 'export const LIMIT = 40;\n');
    agent.write('src/other.ts', 'a\n');
    agent.rounds();
    const renamed = { ...LIMIT, id: 'c_limit', title: 'The limit is forty' };
    const repeated = { ...OTHER, title: 'A second card with the same id', refs: ['src/limit.ts'] };
    const big = {
      id: 'c_table',
      title: 'A thousand limits',
      intent: 'behavior',
      minutes: 1,
      refs: ['src/limit.ts'],
      render: 'table',
      payload: { table: { columns: ['n', 'limit'], rows: Array.from({ length: 1000 }, (_, i) => [i, i * 2]) } },
    };
    agent.writeCards({ contract: 1, cards: [renamed, OTHER, repeated, big] });

    // The note on the renamed card is shown with its text, in a group of its own.
    const box = gone(page).getByRole('textbox', { name: `Note on the card ${LIMIT.title}, no longer in cards.json` });
    await eventually(() => box.inputValue()).toBe(CARD_NOTE);
    expect(await text(gone(page))).toContain('(c_1), which cards.json no longer holds');

    // The repeated id: the banner for invalid cards, and the card listed as invalid, with why.
    await eventually(() => text(page.locator('.inv-banner'))).toContain('1 card does not match the contract');
    await nav(page).getByRole('button', { name: '“c_other”' }).click();
    const invalid = page.getByRole('article', { name: 'Invalid card “c_other”' });
    expect(await text(invalid)).toContain('The id "c_other" is already the id of card 2');
    expect(await text(invalid)).toContain('A second card with the same id');
    expect(await page.locator('nav[aria-label="Cards"] [aria-current="true"]').count()).toBe(1);

    // The earlier card names a file this round does not change: information, not a red slip.
    await nav(page).getByRole('button', { name: OTHER.title }).click();
    const dangling = page.locator('.inv-card .inv-dangling');
    await eventually(() => text(dangling)).toContain('For information');
    expect(await text(dangling)).toContain('The card is from round 1, and the code moved on since.');
    expect(await dangling.evaluate((el) => el.classList.contains('inv-dangling-earlier'))).toBe(true);
    // check says the same, with the same weight (it exits 1 on the renamed card and the repeated id).
    const checked = spawnSync(process.execPath, [CLI, 'check', '--json', '--repo', agent.dir], { encoding: 'utf8' });
    const check = JSON.parse(checked.stdout) as { findings: Array<{ level: string; code: string; card?: string }> };
    expect(check.findings.filter((f) => f.level === 'error').map((f) => [f.code, f.card])).toEqual([
      ['duplicate-id', 'c_other'],
      ['missing-earlier', 'c_1'],
    ]);
    expect(check.findings.filter((f) => f.card === 'c_other' && f.code === 'unknown-ref')).toEqual([
      expect.objectContaining({ level: 'info' }),
    ]);
    await screenshot('wrong-turns-cards');

    // A big table is drawn in pieces, with a count of what is not drawn yet.
    await nav(page).getByRole('button', { name: big.title }).click();
    const rows = page.locator('.inv-table-grid tbody tr');
    await eventually(() => rows.count()).toBe(200);
    expect(await text(page.locator('.inv-show-more'))).toContain('200 of 1,000 shown, 800 not drawn yet');
    await page.getByRole('button', { name: 'Show 200 more rows' }).click();
    await eventually(() => rows.count()).toBe(400);

    // In Raw too.
    await page.getByRole('button', { name: 'Raw', exact: true }).click();
    await eventually(() => box.inputValue()).toBe(CARD_NOTE);
    await page.getByRole('button', { name: 'Cards', exact: true }).click();

    // notes.json broken by hand: a banner with line and column, the last good notes still shown.
    const notesFile = path.join(agent.dir, '.review', 'notes.json');
    const good = readFileSync(notesFile, 'utf8');
    const lastGood = path.join(agent.dir, '.review', 'notes.last-good.json');
    await eventually(() => (existsSync(lastGood) ? readFileSync(lastGood, 'utf8') : null)).toBe(good);
    // The copy holds the reader's notes: as private as notes.json itself.
    expect(statSync(lastGood).mode & 0o777).toBe(0o600);
    expect(statSync(notesFile).mode & 0o777).toBe(0o600);
    const broken = good.replace(/\}\s*$/, '');
    writeFileSync(notesFile, broken);
    const lines = broken.split('\n');
    const banner = page.locator('.inv-banner-error');
    await eventually(() => text(banner)).toContain(
      `.review/notes.json does not parse at line ${lines.length}, column ${lines.at(-1)!.length + 1}`,
    );
    expect(await text(banner)).toContain('cp .review/notes.last-good.json .review/notes.json');
    expect(await box.inputValue()).toBe(CARD_NOTE);
    // A viewer opened while the file is broken has read no notes yet: the kept copy stands in.
    await page.reload();
    await eventually(() => text(banner)).toContain('.review/notes.json does not parse');
    await eventually(() => box.inputValue()).toBe(CARD_NOTE);
    const checkedNotes = spawnSync(process.execPath, [CLI, 'check', '--json', '--repo', agent.dir], {
      encoding: 'utf8',
    });
    expect(JSON.parse(checkedNotes.stdout).findings).toContainEqual(
      expect.objectContaining({
        code: 'notes-not-json',
        fix: expect.stringContaining('cp .review/notes.last-good.json'),
      }),
    );

    // Typing into a note box meanwhile never fires a shortcut (r is Raw, j the next card);
    // the text is kept and saved once the file is put back.
    await nav(page).getByRole('button', { name: renamed.title }).click();
    const limitBox = page.getByRole('textbox', { name: `Note on card ${renamed.title}`, exact: true });
    await limitBox.click();
    await page.keyboard.type('rj keep this');
    expect(await limitBox.inputValue()).toBe('rj keep this');
    expect(await page.getByRole('button', { name: 'Cards', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(readFileSync(notesFile, 'utf8')).toBe(broken);
    copyFileSync(path.join(agent.dir, '.review', 'notes.last-good.json'), notesFile);
    await until(
      agent.notes,
      (n) => n?.notes.c_limit?.text === 'rj keep this',
      'the draft saved once notes.json is back',
    );
    expect(agent.notes()?.notes.c_1?.text).toBe(CARD_NOTE);
    await eventually(() => banner.count()).toBe(0);
  });
});
