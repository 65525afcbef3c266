/**
 * Reading by cards with the reading tools, in headless Chromium against the real server over
 * `fixtures/review-reading`: marks name their card, the request folds, a folded card says
 * what it is, a malformed drawing (or one that cannot be loaded) leaves every file's diff on
 * its card, wide screens are used, the copied message goes, and a page without its key says
 * how to get one.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, fixtureCards, text } from '../helpers/browser';

const { open } = e2e();

const reading = fixtureCards('review-reading');
const titleOf = (id: string) => String(reading.cards.find((c) => c.id === id)!.title);
const card = (page: Page, title: string) => page.locator(`article[aria-label=${JSON.stringify(`Card ${title}`)}]`);
const nav = (page: Page) => page.locator('nav[aria-label="Cards"]');
const select = (page: Page, id: string) =>
  nav(page)
    .getByRole('button', { name: titleOf(id) })
    .click();
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);

describe('cards with the reading tools', () => {
  it("labels a mark with its card's title, in Cards and in Raw", async () => {
    const { page } = await open('review-reading');
    await select(page, 'c_greet');
    const label = card(page, titleOf('c_greet')).locator('.inv-mark .inv-mark-label');
    await eventually(() => text(label)).toBe(titleOf('c_greet'));
    await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw', exact: true }).click();
    await fileOf(page, 'src/mixed.ts').scrollIntoViewIfNeeded();
    await eventually(() => text(fileOf(page, 'src/mixed.ts').locator('.inv-mark-label'))).toBe(titleOf('c_greet'));
  });

  it('folds a long request to one line, unfolds it on demand, and remembers', async () => {
    const { page, reload, screenshot } = await open('review-reading');
    const box = nav(page).locator('.inv-request');
    const toggle = box.getByRole('button', { name: 'You asked' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const folded = await box.evaluate((b) => b.getBoundingClientRect().height);
    expect(folded).toBeLessThan(80);
    // Folded, the whole request is still in the page for a reader of the text.
    expect(await text(box.locator('p'))).toBe(reading.request);
    await toggle.click();
    const unfolded = await box.evaluate((b) => b.getBoundingClientRect().height);
    expect(unfolded).toBeGreaterThan(folded * 2);
    await screenshot('reading-request-open');
    await reload();
    expect(await nav(page).getByRole('button', { name: 'You asked' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('shows a folded cleanup card as its one-line why, and opens it from there', async () => {
    const { page } = await open('review-reading');
    await select(page, 'c_indent');
    const folded = card(page, titleOf('c_indent'));
    await eventually(() => text(folded.locator('.inv-card-folded-line'))).toBe(
      String(reading.cards.find((c) => c.id === 'c_indent')!.why),
    );
    const line = await folded.locator('.inv-card-folded-line').evaluate((l) => ({
      height: l.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(l).lineHeight),
    }));
    expect(line.height).toBeLessThanOrEqual(line.lineHeight + 1);
    await folded.getByRole('button', { name: 'Show the summary' }).click();
    expect(
      await folded
        .getByRole('group', { name: 'How much of the card to show' })
        .getByRole('button', { name: 'summary' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await folded.locator('.inv-card-folded').count()).toBe(0);
  });

  it('keeps the diff of every file a malformed image drawing names, and the text file beside the image', async () => {
    const { page, screenshot } = await open('review-reading');
    await select(page, 'c_blink');
    const blink = card(page, titleOf('c_blink'));
    await eventually(() => text(blink.locator('.inv-render-absent'))).toContain('The image drawing is absent');
    // The card starts at its summary (assets), and still shows every file it names.
    await eventually(() =>
      blink.locator('section.inv-file').evaluateAll((s) => s.map((x) => x.getAttribute('data-ref'))),
    ).toEqual(['art/hero-sheet.png', 'src/mixed.ts']);
    await blink.locator('section.inv-file[data-ref="src/mixed.ts"]').scrollIntoViewIfNeeded();
    const added = blink.locator('section.inv-file[data-ref="src/mixed.ts"] td.d2h-ins .d2h-code-line-ctn');
    await eventually(() => added.filter({ hasText: 'whoever you are' }).count()).toBe(1);
    await screenshot('reading-malformed-image-card');
  });

  it('says when a card’s drawing cannot be loaded, and keeps the diff of every file it names', async () => {
    // As when the server was updated under an open page: the drawings' chunk is gone.
    const { page } = await open('review-reading', {
      onPage: (p) => void p.route(/\/assets\/registry-[^/]*\.js$/, (route) => route.abort()),
    });
    await select(page, 'c_blink');
    const blink = card(page, titleOf('c_blink'));
    await eventually(() => text(blink.locator('.inv-render-absent'))).toContain(
      'The image drawing could not be loaded',
    );
    await eventually(() =>
      blink.locator('section.inv-file').evaluateAll((s) => s.map((x) => x.getAttribute('data-ref'))),
    ).toEqual(['art/hero-sheet.png', 'src/mixed.ts']);
  });

  it('lets a card and its diff use a 2,560 px screen', async () => {
    const { page, screenshot } = await open('review-reading');
    await page.setViewportSize({ width: 2560, height: 1200 });
    await select(page, 'c_greet');
    const main = page.locator('main');
    const file = card(page, titleOf('c_greet')).locator('section.inv-file').first();
    await file.waitFor();
    const [mainBox, fileBox] = await Promise.all([main.boundingBox(), file.boundingBox()]);
    // The diff spans the main column but for its padding.
    expect(fileBox!.width).toBeGreaterThan(mainBox!.width - 60);
    await screenshot('reading-wide-card');
  });

  it('clears the copied message after a few seconds', async () => {
    const { page, context } = await open('review-reading');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await select(page, 'c_greet');
    const box = card(page, titleOf('c_greet')).getByRole('textbox', { name: `Note on card ${titleOf('c_greet')}` });
    await box.fill('Why "whoever"?');
    const copy = page.getByRole('button', { name: 'Copy prompt: 1 note', exact: true });
    await eventually(() => copy.isEnabled()).toBe(true);
    await copy.click();
    const status = page.locator('.inv-copied');
    await eventually(() => text(status)).toBe('Copied: paste it to your agent.');
    await eventually(() => status.count(), 15_000).toBe(0);
  });
});

describe('a page opened without its key', () => {
  it('says to open the URL involut printed, which carries the key, not that the server is down', async () => {
    const { page, url } = await open('review-reading');
    // Another browser (a context of its own) has never seen the key.
    const elsewhere = await page.context().browser()!.newContext();
    const keyless = await elsewhere.newPage();
    await keyless.goto(new URL(url).origin + '/');
    const banner = keyless.locator('.inv-banner-error');
    await eventually(() => text(banner)).toContain(
      'open the URL `involut` printed in its terminal, which carries the key',
    );
    expect(await text(banner)).not.toContain('cannot be reached');
    await elsewhere.close();
  });

  it('opens a link without the key (as `involut notes` prints it) where it points, in the browser that has the viewer open', async () => {
    const { page, url } = await open('review-reading');
    const link = await page.context().newPage();
    await link.goto(`${new URL(url).origin}/#mode=cards&card=c_greet`);
    await eventually(() => link.locator('article[data-card-id="c_greet"]').isVisible()).toBe(true);
    expect(await link.locator('.inv-banner-error').count()).toBe(0);
    expect(await link.locator('nav.inv-sidebar [aria-current="true"]').textContent()).toContain(titleOf('c_greet'));
    await link.close();
  });
});
