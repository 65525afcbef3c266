/**
 * Where each change comes from, in headless Chromium against the real server: a card new
 * in round 2 says so and opens on what changed since round 1, an earlier card says which
 * round it is from; Raw labels each file committed, staged, unstaged or untracked with the
 * subjects of its commits; and a four-commit range reads commit by commit, from git, with
 * the server refusing any commit outside the round.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventually, text, texts } from '../helpers/browser';
import { openViewer, removeLoopDirs, startAgent, type Agent, type Viewer } from '../helpers/agent-loop';

let viewer: Viewer | null = null;
afterEach(async () => {
  const errors = viewer?.errors ?? [];
  await viewer?.close();
  viewer = null;
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
afterAll(removeLoopDirs);

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const card = (page: Page, id: string) => page.locator(`article.inv-card[data-card-id="${id}"]`);
const modeButton = (page: Page, name: 'Cards' | 'Raw') =>
  page.getByRole('group', { name: 'Mode' }).getByRole('button', { name, exact: true });
const changes = (page: Page) => page.getByRole('group', { name: 'Which changes' });
const git = (agent: Agent, ...args: string[]) =>
  execFileSync('git', args, { cwd: agent.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
/** The added and deleted lines a file's diff shows on screen. */
const changedLines = async (page: Page, ref: string) =>
  (await texts(fileOf(page, ref).locator('td.d2h-ins .d2h-code-line-ctn, td.d2h-del .d2h-code-line-ctn'))).filter(
    (line) => line !== '',
  );

const FIRST = { id: 'c_1', title: 'Counters start at one', intent: 'behavior', minutes: 1, refs: ['src/count.ts'] };
const SECOND = {
  id: 'c_2',
  title: 'A second counter',
  intent: 'behavior',
  minutes: 1,
  refs: ['src/count.ts', 'src/names.ts'],
  marks: [{ ref: 'src/names.ts', at: 'a = "A"', text: 'Capital now.' }],
};

describe('cards across rounds', () => {
  it('a card new in round 2 says so and shows only the change since round 1; an earlier card says its round', async () => {
    const agent = startAgent({ 'src/count.ts': 'export const x = 0;\n', 'src/names.ts': 'export const a = "a";\n' });
    agent.begin();
    agent.write('src/count.ts', 'export const x = 1;\n');
    agent.write('src/names.ts', 'export const a = "A";\n');
    agent.rounds();
    agent.writeCards({ contract: 1, cards: [FIRST] });
    agent.write('src/count.ts', 'export const x = 1;\nexport const y = 2;\n');
    agent.rounds();
    agent.writeCards({ contract: 1, cards: [FIRST, SECOND] });

    viewer = await openViewer(agent);
    const { page } = viewer;
    await page.getByRole('button', { name: /A second counter/ }).click();
    const second = card(page, 'c_2');
    expect(await text(second.locator('.inv-card-round'))).toBe('new in round 2');
    await second
      .getByRole('group', { name: 'How much of the card to show' })
      .getByRole('button', { name: 'full' })
      .click();
    // By default: what changed in its files since round 1, one file of the two.
    await eventually(() => changedLines(page, 'src/count.ts')).toEqual(['export const y = 2;']);
    expect(await fileOf(page, 'src/names.ts').count()).toBe(0);
    expect(await texts(second.locator('.inv-card-unchanged'))).toEqual([
      'Unchanged since round 1: src/names.ts. Their whole-round diff is under “Whole round”.',
      'One mark is on lines not in this view; “Whole round” shows it.',
    ]);
    const since = changes(page).getByRole('button', { name: 'Since round 1 (1 file)' });
    expect(await since.getAttribute('aria-pressed')).toBe('true');
    await viewer.screenshot('provenance-new-card-1440');
    await page.setViewportSize({ width: 800, height: 900 });
    await viewer.screenshot('provenance-new-card-800');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The whole round is one click away.
    await changes(page).getByRole('button', { name: 'Whole round' }).click();
    await eventually(() => changedLines(page, 'src/count.ts')).toEqual([
      'export const x = 0;',
      'export const x = 1;',
      'export const y = 2;',
    ]);
    await fileOf(page, 'src/names.ts').waitFor();
    expect(await text(fileOf(page, 'src/names.ts').locator('.inv-mark-text'))).toBe('Capital now.');

    await page.getByRole('button', { name: /Counters start at one/ }).click();
    expect(await text(card(page, 'c_1').locator('.inv-card-round'))).toBe('from round 1');
    // An earlier card shows the round as always: no switch.
    expect(await card(page, 'c_1').getByRole('group', { name: 'Which changes' }).count()).toBe(0);
  });

  it('the first round marks no card', async () => {
    const agent = startAgent({ 'a.txt': 'a\n' });
    agent.write('a.txt', 'b\n');
    agent.rounds();
    agent.writeCards({ contract: 1, cards: [{ ...FIRST, refs: ['a.txt'] }] });
    viewer = await openViewer(agent);
    await card(viewer.page, 'c_1').waitFor();
    // Once the page has the server's answer about the cards' rounds, and has drawn since.
    const page = viewer.page;
    await eventually(() =>
      page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/api/card-rounds'))),
    ).toBe(true);
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    expect(await card(page, 'c_1').locator('.inv-card-round').count()).toBe(0);
  });
});

describe('provenance in Raw and the by-commit view', () => {
  it('labels each state, lists commit subjects, and reads a four-commit range commit by commit, a binary one included', async () => {
    const agent = startAgent({
      'one.ts': 'one v0\n',
      'two.ts': 'two v0\n',
      'staged.ts': 'staged v0\n',
      'unstaged.ts': 'unstaged v0\n',
    });
    const base = git(agent, 'rev-parse', 'HEAD');
    git(agent, 'switch', '--quiet', '-c', 'feature');
    const commit = (message: string, files: Record<string, string>) => {
      for (const [file, content] of Object.entries(files)) agent.write(file, content);
      git(agent, 'add', '--all');
      git(agent, 'commit', '--quiet', '-m', message);
    };
    commit('feat: one learns to count', { 'one.ts': 'one v1\n' });
    commit('feat: two follows', { 'two.ts': 'two v1\n' });
    writeFileSync(path.join(agent.dir, 'logo.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
    git(agent, 'add', 'logo.bin');
    git(agent, 'commit', '--quiet', '-m', 'chore: a binary logo');
    commit('feat: three joins one', { 'one.ts': 'one v2\n', 'three.ts': 'three v1\n' });
    agent.write('one.ts', 'one v3, not committed\n');
    agent.write('staged.ts', 'staged v1\n');
    git(agent, 'add', 'staged.ts');
    agent.write('unstaged.ts', 'unstaged v1\n');
    agent.write('untracked.ts', 'untracked v1\n');
    agent.rounds();

    viewer = await openViewer(agent);
    const { page } = viewer;
    await modeButton(page, 'Raw').waitFor();
    const states = (ref: string) => texts(fileOf(page, ref).locator('.inv-state'));
    await fileOf(page, 'one.ts').locator('.inv-file-header').waitFor();
    expect(await states('one.ts')).toEqual(['committed', 'unstaged']);
    expect(await texts(fileOf(page, 'one.ts').locator('.inv-file-commits li'))).toEqual([
      'feat: one learns to count',
      'feat: three joins one',
    ]);
    expect(await states('two.ts')).toEqual(['committed']);
    expect(await states('three.ts')).toEqual(['committed']);
    expect(await states('staged.ts')).toEqual(['staged']);
    expect(await states('unstaged.ts')).toEqual(['unstaged']);
    expect(await states('untracked.ts')).toEqual(['untracked']);
    expect(await fileOf(page, 'untracked.ts').locator('.inv-file-commits').count()).toBe(0);
    await viewer.screenshot('provenance-raw-1440');

    // By commit: the first commit is shown at once, the others one keypress away.
    await changes(page).getByRole('button', { name: 'By commit (4)' }).click();
    const picker = page.getByRole('list', { name: 'Commits of this round, oldest first' });
    expect(await texts(picker.locator('.inv-commit-subject'))).toEqual([
      'feat: one learns to count',
      'feat: two follows',
      'chore: a binary logo',
      'feat: three joins one',
    ]);
    const shownRefs = () =>
      page.locator('main.inv-raw section.inv-file').evaluateAll((s) => s.map((x) => x.getAttribute('data-ref')));
    await eventually(shownRefs).toEqual(['one.ts']);
    await eventually(() => changedLines(page, 'one.ts')).toEqual(['one v0', 'one v1']);

    await picker.getByRole('button', { name: /feat: two follows/ }).focus();
    await page.keyboard.press('Enter');
    await eventually(shownRefs).toEqual(['two.ts']);
    await eventually(() => changedLines(page, 'two.ts')).toEqual(['two v0', 'two v1']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // The byte routes serve the round's sides, not a commit's: its binary is named, never drawn wrong.
    await eventually(shownRefs).toEqual(['logo.bin']);
    await eventually(() => text(fileOf(page, 'logo.bin').locator('.inv-file-message'))).toContain(
      'A binary file this commit changed',
    );
    expect(await fileOf(page, 'logo.bin').locator('img').count()).toBe(0);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await eventually(shownRefs).toEqual(['one.ts', 'three.ts']);
    await eventually(() => changedLines(page, 'one.ts')).toEqual(['one v1', 'one v2']);
    expect(await text(page.locator('.inv-commit-state'))).toBe('2 files; notes are taken on the whole round.');
    // A commit's lines are not the round's: no notes are taken on them, and no round context is added.
    expect(await fileOf(page, 'one.ts').getByRole('textbox').count()).toBe(0);
    expect(
      await fileOf(page, 'one.ts')
        .getByRole('button', { name: /more lines/ })
        .count(),
    ).toBe(0);
    // The tree follows the commit.
    expect(
      await page
        .locator('nav[aria-label="Changed files"] li.inv-tree-file, .inv-tree-file')
        .evaluateAll((b) => b.map((x) => x.getAttribute('title'))),
    ).toEqual(['one.ts', 'three.ts']);
    await viewer.screenshot('provenance-by-commit-1440');
    await page.setViewportSize({ width: 800, height: 900 });
    await viewer.screenshot('provenance-by-commit-800');

    // The route answers only the round's own commits.
    const ask = (id: string) =>
      page.evaluate(async (commitId) => {
        const token = sessionStorage.getItem('involut:token') ?? '';
        const response = await fetch(`/api/commits/${encodeURIComponent(commitId)}`, {
          headers: { 'X-Involut-Token': token },
        });
        return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
      }, id);
    for (const outside of [base, 'HEAD', '../../etc/passwd']) {
      const refused = await ask(outside);
      expect(refused.status).toBe(404);
      expect(refused.body.error?.message).toContain("is not one of this round's commits");
    }
    const head = await ask(git(agent, 'rev-parse', 'HEAD'));
    expect(head.status).toBe(200);
  });
});
