/**
 * The app bar with everything it can hold (the budget, the hand-over with the agent's
 * state beside it, Copy prompt, help): one line at 1440 px with the state read whole, and
 * at 800 px wrapped inside the window, nothing cut off or pushed past its right edge.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2e, eventually, text } from '../helpers/browser';

const { open } = e2e();

/** Each piece of the bar: its class and its box. */
function pieces(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.inv-header > *, .inv-header-end > *')]
      .map((element) => ({ name: element.className, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0)
      .map(({ name, box }) => ({ name, left: box.left, right: box.right, middle: box.top + box.height / 2 })),
  );
}

describe('the app bar', () => {
  it('stays one line at 1440 px and wraps inside the window at 800 px, the agent’s state read whole', async () => {
    const { page, screenshot } = await open('review-basic', {
      // An agent waiting for the hand-over: this test's own process, alive while it runs.
      prepare: (repo) =>
        writeFileSync(
          repo.review('waiting.json'),
          JSON.stringify({ pid: process.pid, since: new Date().toISOString() }),
        ),
    });
    const state = page.locator('.inv-handover-state');
    await eventually(() => text(state)).toBe('The agent is waiting for your hand-over');

    await page.setViewportSize({ width: 1440, height: 900 });
    const header = page.locator('.inv-header');
    await eventually(async () => (await header.boundingBox())!.height).toBeLessThan(60); // one line is 45 px
    // The sentence is not cut: the state shows all of its text.
    expect(await state.evaluate((el) => el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth)).toBe(
      true,
    );
    await screenshot('app-bar-1440');

    await page.setViewportSize({ width: 800, height: 900 });
    await eventually(async () => Math.max(...(await pieces(page)).map((p) => p.right))).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800);
    const laid = await pieces(page);
    expect(laid.every((p) => p.left >= 0)).toBe(true);
    // Hand over, Copy prompt and help wrap as one piece, on one row.
    const end = laid.filter((p) => /inv-handover|inv-copy|inv-icon-button/.test(p.name));
    expect(end).toHaveLength(3);
    expect(Math.max(...end.map((p) => p.middle)) - Math.min(...end.map((p) => p.middle))).toBeLessThan(4);
    await page.getByRole('button', { name: /^Hand over/ }).waitFor({ state: 'visible' });
    await screenshot('app-bar-800');
  });
});
