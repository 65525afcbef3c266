/**
 * Bad and huge input is a state, never a crash or a frozen page (issue finding 9), in
 * headless Chromium against the real built server: 5,000-level nesting in cards.json, a
 * one-line 10 MB diff, and 100,000 cards.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, e2e, eventually, text, texts } from '../helpers/browser';

const { open } = e2e();

const deepCards = () =>
  `{"contract":1,"cards":[{"id":"c_deep","title":"Deep","intent":"behavior","refs":["README.md"],"payload":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;

describe('bad input is a state', () => {
  it('shows cards.json nested 5,000 levels deep as its error state with a clear sentence, and check reports it', async () => {
    const { page, repo } = await open('review-basic', { cards: { text: deepCards() } });
    await eventually(() => texts(page.locator('.inv-banner'))).toContainEqual(
      expect.stringMatching(
        /^cards\.json does not parse \(nested deeper than 256 levels, which Involut does not read\)\. Every change is in Raw\.$/,
      ),
    );
    expect(await texts(page.locator('.inv-banner'))).not.toContainEqual(expect.stringContaining('cannot be reached'));
    let output = '';
    let code = 0;
    try {
      output = execFileSync(process.execPath, [CLI, 'check', '--repo', repo.dir], { encoding: 'utf8' });
    } catch (error) {
      const e = error as { status: number; stdout: string };
      code = e.status;
      output = e.stdout;
    }
    expect(code).toBe(1);
    expect(output).toContain('cards.json is nested deeper than 256 levels');
  });

  it('folds a one-line 10 MB diff like any large diff, with its size shown', async () => {
    const { page } = await open('review-basic', {
      cards: 'none',
      prepare: (repo) => {
        repo.write('data/one-line.json', `${'x'.repeat(10 * 1024 * 1024)}\n`);
        repo.rounds();
      },
    });
    const file = page.locator('section.inv-file[data-ref="data/one-line.json"]');
    await file.scrollIntoViewIfNeeded();
    await eventually(() => text(file.locator('.inv-fold'))).toMatch(
      /^Large diff: 2 lines, 10\.0 MB\. Show it: data\/one-line\.json$/,
    );
    expect(await file.locator('.d2h-code-line-ctn').count()).toBe(0);
  });
});

describe('100,000 cards', () => {
  it('paints the round and keeps every card reachable from the sidebar', async () => {
    const cards = Array.from({ length: 100_000 }, (_, i) => ({
      id: `c_${i}`,
      title: `Card number ${i}`,
      intent: i % 2 ? 'behavior' : 'cleanup',
      minutes: 1,
      refs: ['src/auth/session.ts'],
    }));
    const { page } = await open('review-basic', { cards: { text: JSON.stringify({ contract: 1, cards }) } });
    const nav = page.locator('nav[aria-label="Cards"]');
    await nav.locator('.inv-nav-title').first().waitFor();
    // A screenful of rows, not 100,000.
    expect(await nav.locator('.inv-nav-item').count()).toBeLessThan(500);
    // The last card, scrolled to at the bottom of the sidebar: the page still holds a screenful of rows.
    await nav.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const last = nav.locator('.inv-nav-window').last().locator('.inv-nav-item').last();
    await eventually(() => text(last.locator('.inv-nav-title'))).toMatch(/^Card number 9999[89]$/);
    expect(await nav.locator('.inv-nav-item').count()).toBeLessThan(500);
    const lastTitle = await text(last.locator('.inv-nav-title'));
    await last.click();
    await eventually(() => text(page.locator('main.inv-main > article h2'))).toBe(lastTitle);
    // One in the middle, by scrolling back up to it.
    await nav.evaluate(async (el) => {
      el.scrollTop = el.scrollHeight * 0.25;
      // The rows in view are drawn on the scroll event's render.
      for (let i = 0; i < 3; i++) await new Promise((done) => requestAnimationFrame(done));
    });
    const middle = nav.locator('.inv-nav-item').nth(20);
    const title = await text(middle.locator('.inv-nav-title'));
    await middle.click();
    await eventually(() => text(page.locator('main.inv-main > article h2'))).toBe(title);
    // By key: j moves to the next card, and its row is scrolled into the sidebar's view.
    await page.keyboard.press('j');
    const heading = page.locator('main.inv-main > article h2');
    await eventually(() => text(heading)).not.toBe(title);
    const next = await text(heading);
    const current = nav.locator('.inv-nav-item[aria-current="true"]');
    await eventually(() => text(current.locator('.inv-nav-title'))).toBe(next);
    expect(
      await current.evaluate((row) => {
        const box = row.closest('nav')!.getBoundingClientRect();
        const r = row.getBoundingClientRect();
        return r.top >= box.top && r.bottom <= box.bottom;
      }),
    ).toBe(true);
  }, 120_000);
});
