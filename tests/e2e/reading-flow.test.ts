/**
 * The reading flow, in headless Chromium against the real server: every key and control acts
 * where the reader's eye is. One page, one repository: each step adds its assertions.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, text } from '../helpers/browser';

const { open } = e2e();

const tree = (page: Page) => page.locator('nav[aria-label="Changed files"]');
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const viewedBox = (page: Page, ref: string) => fileOf(page, ref).locator('label.inv-viewed input');
const treeRefs = (page: Page) =>
  tree(page)
    .locator('.inv-tree-file')
    .evaluateAll((b) => b.map((x) => x.getAttribute('title') ?? ''));

describe('the reading flow', () => {
  it('acts on the file the reader chose', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    await page.locator('main[aria-label="Every changed file"]').waitFor();
    await eventually(() => treeRefs(page)).toHaveLength(6);
    const all = await treeRefs(page);
    const first = all[0]!;
    const last = all[all.length - 1]!;

    // 1. The last file is chosen in the tree: it cannot scroll up to the top of the page, so
    // the file at the top is another one; v and n act on the chosen one, and say so.
    await tree(page)
      .locator(`.inv-tree-file[title=${JSON.stringify(last)}]`)
      .click();
    await page.keyboard.press('v');
    await eventually(() => viewedBox(page, last).isChecked()).toBe(true);
    expect(await viewedBox(page, first).isChecked()).toBe(false);
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${last}: marked viewed`);
    await page.keyboard.press('v');
    await eventually(() => viewedBox(page, last).isChecked()).toBe(false);
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${last}: no longer viewed`);
    await page.keyboard.press('n');
    await eventually(() =>
      page.evaluate(() => document.activeElement?.closest<HTMLElement>('section.inv-file')?.dataset.ref),
    ).toBe(last);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${last}: writing a note`);
  });
});
