/**
 * The viewer by keyboard alone, in headless Chromium against the real server: the skip
 * link reaches the first file past the tree, the tree follows the WAI-ARIA tree pattern
 * (one tab stop, arrows, Home and End, Enter opens), the help dialog keeps the focus until
 * closed, and on a round of 10,000 files the tree draws only the rows in view while its
 * filter and the jump to the last file still work.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2e, eventually, text, treeRow, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

/** Commits `count` small files in folders of 100, then changes every one of them. */
function manyFiles(count: number) {
  const name = (i: number) => `pkg/p${String(Math.floor(i / 100)).padStart(3, '0')}/f${String(i).padStart(5, '0')}.ts`;
  return {
    name,
    prepare: (repo: FixtureRepo) => {
      for (let i = 0; i < count; i++) repo.write(name(i), `export const v${i} = ${i};\n`);
      repo.git('add', 'pkg');
      repo.git('commit', '--quiet', '--no-verify', '-m', 'Many files');
      for (let i = 0; i < count; i++) repo.write(name(i), `export const v${i} = ${i + 1};\n`);
      repo.rounds();
    },
  };
}

const tree = (page: Page) => page.locator('nav[aria-label="Changed files"] [role="tree"]');
const focused = (page: Page) =>
  page.evaluate(() => {
    const at = document.activeElement;
    return {
      role: at?.getAttribute('role') ?? at?.tagName.toLowerCase(),
      title: at?.getAttribute('title') ?? null,
      text: at?.textContent?.trim().slice(0, 60) ?? '',
      name: at?.querySelector('.inv-tree-name')?.textContent ?? null,
      expanded: at?.getAttribute('aria-expanded') ?? null,
      file: at?.closest('section.inv-file')?.getAttribute('data-ref') ?? null,
      inDialog: !!at?.closest('dialog'),
    };
  });
/** Whether some of the file's diff rows are drawn inside the viewport. */
const rowsOnScreen = (page: Page, ref: string) =>
  page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`).evaluate((section) =>
    [...section.querySelectorAll('.d2h-diff-tbody > tr')].some((row) => {
      const r = row.getBoundingClientRect();
      return r.height > 0 && r.bottom > 45 && r.top < innerHeight;
    }),
  );

describe('by keyboard alone', () => {
  it('reaches the first file past a 211-file tree in at most 5 Tab presses', async () => {
    const { prepare } = manyFiles(205);
    const { page, screenshot } = await open('review-basic', { cards: 'none', prepare });
    await tree(page).waitFor();
    const first = await page.locator('main section.inv-file').first().getAttribute('data-ref');
    expect(await text(page.locator('nav[aria-label="Changed files"] .inv-coverage'))).toMatch(/^211 changed files/);
    let tabs = 0;
    while (tabs < 5 && (await focused(page)).file !== first) {
      await page.keyboard.press('Tab');
      tabs++;
      const now = await focused(page);
      if (now.text === 'Skip to the changes') {
        await screenshot('keyboard-skip-link');
        await page.keyboard.press('Enter');
      }
    }
    expect((await focused(page)).file, `after ${tabs} Tab presses`).toBe(first);
  });

  it('moves in the tree with the arrow keys, Home and End, and opens a file with Enter', async () => {
    const { page, screenshot } = await open('review-basic', { cards: 'none' });
    await tree(page).waitFor();
    // The tree is one tab stop: Tab reaches its first row, the next Tab leaves it.
    for (let i = 0; i < 30 && (await focused(page)).role !== 'treeitem'; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ role: 'treeitem', name: 'docs/', expanded: 'true' });
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatchObject({ role: 'treeitem', title: 'docs/legacy-auth.md' });
    // Left from a file goes to its folder; Left again closes it; Right opens it, and Right again enters it.
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toMatchObject({ name: 'docs/', expanded: 'true' });
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toMatchObject({ name: 'docs/', expanded: 'false' });
    expect(await tree(page).locator('[title="docs/legacy-auth.md"]').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ expanded: 'true' });
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ title: 'docs/legacy-auth.md' });
    await page.keyboard.press('End');
    expect(await focused(page)).toMatchObject({ title: 'README.md' });
    await page.keyboard.press('Home');
    expect(await focused(page)).toMatchObject({ name: 'docs/' });
    // Enter on a file opens it: its diff comes on screen and it is the tree's selected row.
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    const ref = (await focused(page)).title!;
    expect(ref).toBe('src/util/text.ts');
    await page.keyboard.press('Enter');
    await eventually(() => rowsOnScreen(page, ref)).toBe(true);
    await eventually(() => tree(page).locator('[aria-selected="true"]').getAttribute('title')).toBe(ref);
    await screenshot('keyboard-tree');
    await page.keyboard.press('Tab');
    expect((await focused(page)).role).not.toBe('treeitem');
  });

  it('keeps the focus in the help dialog until it is closed, then gives it back', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    await tree(page).waitFor();
    for (let i = 0; i < 30 && (await focused(page)).role !== 'treeitem'; i++) await page.keyboard.press('Tab');
    const before = await focused(page);
    expect(before.role).toBe('treeitem');
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await focused(page)).toMatchObject({ inDialog: true, text: 'Close' });
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect((await focused(page)).inDialog, `after ${key}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await eventually(() => dialog.count()).toBe(0);
    expect(await focused(page)).toEqual(before);
  });
});

describe('the tree of a 10,000-file round', () => {
  it('draws only the rows in view, and still filters and jumps to the last file', async () => {
    const files = 10_000;
    const { name, prepare } = manyFiles(files);
    const { page, screenshot } = await open('review-basic', { cards: 'none', prepare });
    await tree(page).waitFor({ timeout: 30_000 });
    const rows = () => tree(page).locator('[role="treeitem"]').count();
    expect(await rows()).toBeLessThan(300);
    expect(await text(page.locator('nav[aria-label="Changed files"] .inv-coverage'))).toMatch(/^10006 changed files/);

    // Scrolled down to the last file of the folders, the tree draws the rows there instead, and a click opens it.
    const last = name(files - 1);
    await (await treeRow(page, last)).click();
    await eventually(() => rowsOnScreen(page, last)).toBe(true);
    expect(await rows()).toBeLessThan(300);

    // The filter finds a file far down, among all of them.
    await page.getByRole('searchbox', { name: 'Filter files by path' }).fill('f09999');
    await eventually(() => text(page.locator('.inv-filter-count'))).toBe('1 of 10006 files');
    await eventually(() => tree(page).locator(`[title="${last}"]`).count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Filter files by path' }).fill('');
    await eventually(() => page.locator('.inv-filter-count').count()).toBe(0);

    // The jump to the tree's last file by keyboard (End, Enter), and to the last of the folder by mouse once scrolled to it.
    await tree(page).locator('[tabindex="0"]').focus();
    await page.keyboard.press('End');
    expect(await focused(page)).toMatchObject({ title: 'README.md' });
    await page.keyboard.press('Enter');
    await eventually(() => rowsOnScreen(page, 'README.md')).toBe(true);
    expect(await rows()).toBeLessThan(300);
    await screenshot('tree-10000-last');
  }, 400_000);
});
