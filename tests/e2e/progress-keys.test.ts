/**
 * The file tree's filter and progress, folding, and every key, in headless Chromium
 * against the real server: the filter narrows the tree and counts what it shows; "N of M
 * viewed" follows the checkmarks; a viewed file folds; collapse and expand all; the help
 * overlay lists every key; the keys move and toggle, and none fires while typing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LINE_SHORTCUTS, SHORTCUTS } from '../../src/components/HelpOverlay';
import { KEYS } from '../../src/state/useKeyboard';
import { buildRepo, e2e, eventually, FIXTURES, fixtureCards, text, texts, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

// The fixture's round, with and without its cards, built once: the tests read them and
// change nothing in them (viewed marks live in the page's storage).
let plain: FixtureRepo;
let carded: FixtureRepo;
beforeAll(() => {
  plain = buildRepo('review-basic');
  plain.rounds();
  carded = buildRepo('review-basic');
  carded.rounds();
  carded.writeCards(readFileSync(path.join(FIXTURES, 'review-basic', 'cards.json'), 'utf8'));
});

const tree = (page: Page) => page.locator('nav[aria-label="Changed files"]');
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const treeRefs = (page: Page) =>
  tree(page)
    .locator('.inv-tree-file')
    .evaluateAll((b) => b.map((x) => x.getAttribute('title')));
const drawnRows = (page: Page, ref: string) => fileOf(page, ref).locator('tbody.d2h-diff-tbody > tr').count();
const modeButton = (page: Page, name: 'Cards' | 'Raw') =>
  page.getByRole('group', { name: 'Mode' }).getByRole('button', { name, exact: true });

/** A round of one file with two hunks far apart, so a hunk key has somewhere to go (the fixture's own changes are committed first). */
function twoHunks(repo: FixtureRepo): void {
  const lines = Array.from({ length: 160 }, (_, i) => `hunky line ${i + 1}`);
  repo.write('aaa/hunks.ts', `${lines.join('\n')}\n`);
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'Hunks');
  lines[9] = 'hunky line 10 changed';
  // The second hunk is long, so the page can scroll it up to the headers.
  for (let i = 99; i < 140; i++) lines[i] = `hunky line ${i + 1} changed`;
  repo.write('aaa/hunks.ts', `${lines.join('\n')}\n`);
  repo.rounds();
}

/** What is in sight at the top: the top of the first hunk header row or mark below the sticky headers. */
const landed = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const bar = document.querySelector('.inv-header')!.getBoundingClientRect().bottom;
    for (const element of document.querySelectorAll(selector)) {
      const r = element.getBoundingClientRect();
      const section = element.closest('section.inv-file');
      const fileHeader = section?.querySelector('.inv-file-header')?.getBoundingClientRect().bottom ?? bar;
      if (r.top >= Math.max(bar, fileHeader) - 0.5 && r.top < Math.max(bar, fileHeader) + 30)
        return element.textContent?.trim().slice(0, 60) ?? '';
    }
    return null;
  }, selector);

describe('the file tree', () => {
  it('filters by pieces of the path and counts what it shows', async () => {
    const { page, screenshot } = await open('review-basic', { repo: plain });
    const filter = tree(page).getByRole('searchbox', { name: 'Filter files by path' });
    await filter.fill('auth');
    await eventually(() => treeRefs(page)).toEqual(
      ['src/auth/session.ts', 'src/middleware/auth.ts', 'docs/legacy-auth.md'].sort((a, b) =>
        a.startsWith('docs') ? -1 : b.startsWith('docs') ? 1 : a.localeCompare(b),
      ),
    );
    expect(await text(tree(page).locator('.inv-filter-count'))).toBe('3 of 6 files');
    await filter.fill('SRC auth .ts');
    await eventually(() => treeRefs(page)).toEqual(['src/auth/session.ts', 'src/middleware/auth.ts']);
    await screenshot('tree-filter');
    await filter.fill('');
    await eventually(() => treeRefs(page).then((r) => r.length)).toBe(6);
    expect(await tree(page).locator('.inv-filter-count').count()).toBe(0);
  });

  it('counts viewed files, folds a file marked viewed, and collapses and expands all', async () => {
    const { page } = await open('review-basic', { repo: plain });
    const count = () => text(tree(page).locator('.inv-viewed-count'));
    expect(await count()).toBe('0 of 6 viewed');
    const ref = 'src/auth/session.ts';
    await eventually(() => drawnRows(page, ref)).toBeGreaterThan(0);
    await fileOf(page, ref).locator('label.inv-viewed input').check();
    await eventually(count).toBe('1 of 6 viewed');
    await eventually(() => drawnRows(page, ref)).toBe(0);
    expect(await text(fileOf(page, ref).locator('button.inv-fold'))).toMatch(/^Viewed: \d+ lines/);

    await tree(page).getByRole('button', { name: 'Expand all' }).click();
    await eventually(() => drawnRows(page, ref)).toBeGreaterThan(0);
    await tree(page).getByRole('button', { name: 'Collapse all' }).click();
    await eventually(() => page.locator('main tbody.d2h-diff-tbody').count()).toBe(0);
    await tree(page).getByRole('button', { name: 'Expand all' }).click();
    await eventually(() => drawnRows(page, 'src/middleware/auth.ts')).toBeGreaterThan(0);
    // A reload keeps the viewed file folded, and the count.
    await page.reload();
    await eventually(count).toBe('1 of 6 viewed');
    await eventually(() => fileOf(page, ref).locator('button.inv-fold').count()).toBe(1);
  });
});

describe('a card’s progress', () => {
  it('says how many of the card’s files are viewed', async () => {
    const { page } = await open('review-basic', { repo: carded });
    const expire = fixtureCards('review-basic').cards.find((c) => c.id === 'c_expire') as { title: string };
    await page.locator('nav.inv-sidebar').getByRole('button', { name: expire.title }).click();
    const card = page.locator('article.inv-card');
    await eventually(() => text(card.locator('.inv-card-progress'))).toBe('0 of 1 file viewed');
    await card.locator('section.inv-file label.inv-viewed input').first().check();
    await eventually(() => text(card.locator('.inv-card-progress'))).toBe('1 of 1 file viewed');
  });
});

describe('keys', () => {
  it('the help overlay lists every key the viewer answers', async () => {
    const { page } = await open('review-basic', { repo: carded });
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const listed = (await texts(dialog.locator('table').first().locator('kbd'))).flatMap((k) => k.split(' / '));
    // The keys of a focused line number are listed apart, each one.
    expect(await texts(dialog.locator('table').nth(1).locator('kbd'))).toEqual(LINE_SHORTCUTS.map(([k]) => k));
    const named = Object.keys(KEYS).map((key) => (key === 'Escape' ? 'Esc' : key));
    expect([...listed].sort()).toEqual([...named].sort());
    expect(SHORTCUTS.flatMap(([k]) => k.split(' / ')).sort()).toEqual([...named].sort());
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('fires none while typing in the search field or a note box', async () => {
    const { page } = await open('review-basic', { repo: plain });
    await page.keyboard.press('/');
    await page.keyboard.type('rs?v.m]');
    expect(await page.locator('.inv-search-input').inputValue()).toBe('rs?v.m]');
    expect(await modeButton(page, 'Raw').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await text(tree(page).locator('.inv-viewed-count'))).toBe('0 of 6 viewed');
    expect(
      await page
        .getByRole('group', { name: 'Diff format' })
        .getByRole('button', { name: 'Unified' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('n focuses a note box after ] in Cards', async () => {
    const { page } = await open('review-basic', { repo: carded });
    await page.locator('article.inv-card').waitFor();
    await page.keyboard.press(']');
    await page.keyboard.press('n');
    await eventually(() =>
      page.evaluate(() => document.activeElement?.classList.contains('inv-note-text') ?? false),
    ).toBe(true);
  });

  it('m steps to the next mark, in sight below the headers', async () => {
    // The fixture's cards pin marks on lines; Raw shows them too.
    const { page } = await open('review-basic', { repo: carded });
    await modeButton(page, 'Raw').click();
    await page.locator('main[aria-label="Every changed file"]').waitFor();
    // m steps through the marks drawn: the files holding them are drawn once their diffs arrive.
    await eventually(() => page.locator('.inv-mark').count()).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('m');
    await eventually(() => landed(page, '.inv-mark')).not.toBeNull();
    const first = await landed(page, '.inv-mark');
    await page.keyboard.press('m');
    await eventually(() => landed(page, '.inv-mark')).not.toBe(first);
    await page.keyboard.press('M');
    await eventually(() => landed(page, '.inv-mark')).toBe(first);
  });

  it('. and , step through hunks, v marks the file on screen viewed', async () => {
    const { page } = await open('review-basic', { prepare: twoHunks });
    await modeButton(page, 'Raw').click();
    await page.locator('main[aria-label="Every changed file"]').waitFor();
    // From the file's top (its first hunk just under its header), . goes to the second hunk.
    await tree(page).locator('.inv-tree-file[title="aaa/hunks.ts"]').click();
    await eventually(() => landed(page, '.inv-diff tr:has(> td.d2h-info)')).toMatch(/^@@ -7,7 \+7,7 @@/);
    await page.keyboard.press('.');
    await eventually(() => landed(page, '.inv-diff tr:has(> td.d2h-info)')).toMatch(/^@@ -97,47 \+97,47 @@/);
    await page.keyboard.press(',');
    await eventually(() => landed(page, '.inv-diff tr:has(> td.d2h-info)')).toMatch(/^@@ -7,7 \+7,7 @@/);
    await page.keyboard.press('.');
    await eventually(() => landed(page, '.inv-diff tr:has(> td.d2h-info)')).toMatch(/^@@ -97,47 \+97,47 @@/);
    await page.keyboard.press('v');
    await eventually(() => text(tree(page).locator('.inv-viewed-count'))).toBe('1 of 1 viewed');
    await eventually(() => drawnRows(page, 'aaa/hunks.ts')).toBe(0);
    await page.keyboard.press('v');
    await eventually(() => text(tree(page).locator('.inv-viewed-count'))).toBe('0 of 1 viewed');
  });
});
