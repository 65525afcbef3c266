/**
 * A structure card read in summary shows its drawing in place of its diff: above the drawing
 * it says which files the drawing stands for, with the way to their diff, so the diff is never
 * behind a button that gives no hint of it.
 */
import { describe, expect, it } from 'vitest';
import { e2e, eventually, text } from '../helpers/browser';

const { open } = e2e();

describe('a drawing in a card’s summary', () => {
  it('names the files it stands for and opens their diff in one click', async () => {
    const { page } = await open('render-tree-schema-table');
    await page
      .locator('nav[aria-label="Cards"]')
      .getByRole('button', { name: /^User management moves/ })
      .click();
    const card = page.locator('article[data-card-id="routes"]');
    await card
      .getByRole('group', { name: 'How much of the card to show' })
      .getByRole('button', { name: /^summary/ })
      .click();
    const hint = card.locator('.inv-drawn-files');
    await eventually(() => text(hint)).toBe('The drawing stands for the diff of src/routes.tsx.Show the diff too');
    expect(await card.locator('section.inv-file').count()).toBe(0);
    await hint.getByRole('button', { name: 'Show the diff too' }).click();
    await eventually(() => card.locator('section.inv-file[data-ref="src/routes.tsx"]').count()).toBe(1);
    expect(await hint.count()).toBe(0);
  });
});
