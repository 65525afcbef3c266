/**
 * Links that keep the reader's place, and jumps that land in sight, in headless Chromium
 * against the real server: the URL fragment says the mode, card, file and line beside the
 * token; a reload and the browser's back and forward restore them; a jump's target (a
 * file from the tree or ] / [, a chosen line) sits below the sticky headers.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, fixtureCards } from '../helpers/browser';

const { open } = e2e();

const nav = (page: Page) => page.locator('nav.inv-sidebar');
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const treeButton = (page: Page, ref: string) =>
  page.locator(`nav[aria-label="Changed files"] .inv-tree-file[title=${JSON.stringify(ref)}]`);
const fragment = (page: Page) => Object.fromEntries(new URLSearchParams(new URL(page.url()).hash.slice(1)));

/** The file's top against the app bar: a jump must leave its header fully below the bar. */
const fileTop = (page: Page, ref: string) =>
  fileOf(page, ref).evaluate((section) => {
    const bar = document.querySelector('.inv-header')!.getBoundingClientRect().bottom;
    const top = section.getBoundingClientRect().top;
    return { belowBar: top >= bar - 0.5, nearTop: top - bar < 40 };
  });

/** The marked line, against both sticky headers. */
const hit = (page: Page) =>
  page.evaluate(() => {
    const row = document.querySelector('tr.inv-hit');
    if (!row) return null;
    const section = row.closest('section.inv-file')!;
    const below = Math.max(
      document.querySelector('.inv-header')!.getBoundingClientRect().bottom,
      section.querySelector('.inv-file-header')!.getBoundingClientRect().bottom,
    );
    const r = row.getBoundingClientRect();
    return {
      ref: section.getAttribute('data-ref'),
      number: row.querySelector('.line-num2')?.textContent?.trim() ?? '',
      inSight: r.top >= below - 0.5 && r.bottom <= innerHeight,
    };
  });

describe('the URL keeps the reader’s place', () => {
  it('says the card in Cards mode, and a reload opens that card again', async () => {
    const { page, reload } = await open('review-basic');
    const second = fixtureCards('review-basic').cards[1] as { id: string; title: string };
    await nav(page).getByRole('button', { name: second.title }).click();
    await eventually(() => fragment(page)).toMatchObject({ mode: 'cards', card: second.id });
    expect(fragment(page).token).toBeTruthy();
    await reload();
    await eventually(() => page.locator('article.inv-card').getAttribute('data-card-id')).toBe(second.id);
    expect(fragment(page)).toMatchObject({ mode: 'cards', card: second.id });
  });

  it('says the file and the chosen line in Raw, and a reload lands on that line in sight', async () => {
    const { page, reload, screenshot } = await open('review-basic', { cards: 'none' });
    const ref = 'src/auth/session.ts';
    await treeButton(page, ref).click();
    await eventually(() => fragment(page)).toMatchObject({ mode: 'raw', file: ref });
    const cell = fileOf(page, ref)
      .locator('td.d2h-code-linenumber')
      .filter({ has: page.locator('.line-num2', { hasText: /^\s*12\s*$/ }) });
    await cell.click();
    await eventually(() => fragment(page)).toMatchObject({ mode: 'raw', file: ref, line: '+12' });
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.scrollTo(0, 0));
    await reload();
    await eventually(() => hit(page)).toEqual({ ref, number: '12', inSight: true });
    expect(fragment(page)).toMatchObject({ mode: 'raw', file: ref, line: '+12' });
    await screenshot('place-reload-line');
  });

  it('goes back and forward between the files the reader jumped to', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    await treeButton(page, 'src/util/text.ts').click();
    await eventually(() => fragment(page).file).toBe('src/util/text.ts');
    await treeButton(page, 'scripts/seed.ts').click();
    await eventually(() => fragment(page).file).toBe('scripts/seed.ts');
    await page.goBack();
    await eventually(() => fragment(page).file).toBe('src/util/text.ts');
    await eventually(() => fileTop(page, 'src/util/text.ts')).toEqual({ belowBar: true, nearTop: true });
    await eventually(() =>
      page.locator('nav[aria-label="Changed files"] .inv-tree-file[aria-selected="true"]').getAttribute('title'),
    ).toBe('src/util/text.ts');
    await page.goForward();
    await eventually(() => fragment(page).file).toBe('scripts/seed.ts');
    await eventually(() => fileTop(page, 'scripts/seed.ts')).toEqual({ belowBar: true, nearTop: true });
  });
});

describe('jumps land in sight', () => {
  it('puts a file jumped to from the tree, or with ] and [, fully below the app bar', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    for (const ref of ['src/middleware/auth.ts', 'docs/legacy-auth.md', 'README.md']) {
      await treeButton(page, ref).click();
      // The last file cannot scroll up to the bar: it only has to be below it.
      await eventually(() => fileTop(page, ref)).toMatchObject(
        ref === 'README.md' ? { belowBar: true } : { belowBar: true, nearTop: true },
      );
    }
    await treeButton(page, 'docs/legacy-auth.md').click();
    await eventually(() => fileTop(page, 'docs/legacy-auth.md')).toEqual({ belowBar: true, nearTop: true });
    await page.keyboard.press(']');
    await eventually(() => fragment(page).file).not.toBe('docs/legacy-auth.md');
    const after = fragment(page).file!;
    await eventually(() => fileTop(page, after)).toEqual({ belowBar: true, nearTop: true });
    await page.keyboard.press('[');
    await eventually(() => fragment(page).file).toBe('docs/legacy-auth.md');
    await eventually(() => fileTop(page, 'docs/legacy-auth.md')).toEqual({ belowBar: true, nearTop: true });
  });
});
