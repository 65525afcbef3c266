/**
 * Raw mode in headless Chromium against the real server: every changed file is there
 * whatever the cards say, the viewer falls back to it when the cards are missing or
 * broken, and viewed checkmarks follow each file's hash across reloads and rounds.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, text, texts } from '../helpers/browser';

const { open } = e2e();

const rawMain = (page: Page) => page.locator('main[aria-label="Every changed file"]');
const tree = (page: Page) => page.locator('nav[aria-label="Changed files"]');
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const viewedBox = (page: Page, ref: string) => fileOf(page, ref).locator('label.inv-viewed input[type="checkbox"]');
const modeButton = (page: Page, name: 'Cards' | 'Raw') =>
  page.getByRole('group', { name: 'Mode' }).getByRole('button', { name, exact: true });

describe('Raw mode', () => {
  it('shows every changed path of the round: unclaimed, deleted and renamed files included', async () => {
    const { page, repo, screenshot } = await open('review-basic');
    await modeButton(page, 'Raw').click();
    await rawMain(page).waitFor();
    const material = repo.material().material;
    const refs = material.map((e) => e.ref).sort();
    expect(refs).toEqual([
      'README.md',
      'docs/legacy-auth.md',
      'scripts/seed.ts',
      'src/auth/session.ts',
      'src/middleware/auth.ts',
      'src/util/text.ts',
    ]);

    expect(await text(tree(page).locator('.inv-coverage'))).toMatch(/^6 changed files/);
    expect(
      (
        await tree(page)
          .locator('.inv-tree-file')
          .evaluateAll((b) => b.map((x) => x.getAttribute('title')))
      ).sort(),
    ).toEqual(refs);
    expect(
      (
        await rawMain(page)
          .locator('section.inv-file')
          .evaluateAll((s) => s.map((x) => x.getAttribute('data-ref')))
      ).sort(),
    ).toEqual(refs);

    // Each file says what happened to it; the rename names where it came from.
    for (const entry of material) {
      // A file far below the window is drawn once it comes near.
      await fileOf(page, entry.ref).scrollIntoViewIfNeeded();
      expect(await text(fileOf(page, entry.ref).locator('.inv-status'))).toBe(entry.status);
    }
    expect(await text(fileOf(page, 'src/util/text.ts').locator('.inv-file-path'))).toBe(
      'src/util/strings.ts → src/util/text.ts',
    );
    // The deleted file's lines, and the file no card claims, are readable.
    await fileOf(page, 'docs/legacy-auth.md').scrollIntoViewIfNeeded();
    await eventually(() => texts(fileOf(page, 'docs/legacy-auth.md').locator('.d2h-code-line-ctn'))).toContain(
      'Sessions used to live in a cookie signed with a shared secret.',
    );
    await fileOf(page, 'scripts/seed.ts').scrollIntoViewIfNeeded();
    await eventually(() => text(fileOf(page, 'scripts/seed.ts').locator('.d2h-diff-tbody'))).toContain(
      "for (const user of ['ada', 'grace', 'linus'])",
    );
    // Highlighting (done when the browser is idle) keeps an added line green under its text.
    const added = fileOf(page, 'scripts/seed.ts').locator('td.d2h-ins .d2h-code-line-ctn').first();
    await eventually(() => added.getAttribute('class')).toContain('hljs');
    const colours = await added.evaluate((span) => {
      const paint = (e: Element | null): string => {
        for (; e; e = e.parentElement) {
          const bg = getComputedStyle(e).backgroundColor;
          if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
        }
        return 'none';
      };
      return { text: paint(span), number: paint(span.closest('tr')!.querySelector('.d2h-code-linenumber')) };
    });
    expect(colours.text).toBe(colours.number);
    await screenshot('raw-every-file', { fullPage: true });
  });

  it('opens in Raw when there is no cards.json', async () => {
    const { page, screenshot } = await open('review-basic', { cards: 'none' });
    await rawMain(page).waitFor();
    expect(await modeButton(page, 'Raw').getAttribute('aria-pressed')).toBe('true');
    expect(await modeButton(page, 'Cards').isDisabled()).toBe(true);
    expect(await rawMain(page).locator('section.inv-file').count()).toBe(6);
    expect(await page.locator('.inv-banner').count()).toBe(0);
    await screenshot('raw-no-cards');
  });

  it('opens in Raw, with a banner, when cards.json is not JSON', async () => {
    const { page, screenshot } = await open('review-basic', {
      cards: { text: '{ "contract": 1, "cards": [ { "id": "c_1", ' },
    });
    await rawMain(page).waitFor();
    expect(await modeButton(page, 'Cards').isDisabled()).toBe(true);
    await eventually(() => text(page.locator('.inv-banner'))).toMatch(
      /^cards\.json does not parse.*Every change is in Raw\.$/,
    );
    expect(await rawMain(page).locator('section.inv-file').count()).toBe(6);
    await screenshot('raw-broken-cards');
  });

  it('keeps viewed checkmarks across reloads and resets one when its file’s hash changes in a new round', async () => {
    const { page, repo, reload, screenshot } = await open('review-basic', { cards: 'none' });
    await rawMain(page).waitFor();
    const treeItem = (ref: string) => tree(page).locator(`.inv-tree-file[title=${JSON.stringify(ref)}]`);
    for (const ref of ['src/auth/session.ts', 'README.md']) {
      await viewedBox(page, ref).check();
      await eventually(() => treeItem(ref).getAttribute('class')).toContain('inv-is-viewed');
    }
    await reload();
    for (const ref of ['src/auth/session.ts', 'README.md']) expect(await viewedBox(page, ref).isChecked()).toBe(true);
    expect(await viewedBox(page, 'scripts/seed.ts').isChecked()).toBe(false);

    const before = repo.material().material.find((e) => e.ref === 'src/auth/session.ts')!.hash;
    repo.write('src/auth/session.ts', `${repo.read('src/auth/session.ts')}\nexport const VERSION = 2;\n`);
    repo.rounds();
    const after = repo.material().material.find((e) => e.ref === 'src/auth/session.ts')!.hash;
    expect(after).not.toBe(before);
    await reload();
    await eventually(() => text(fileOf(page, 'src/auth/session.ts').locator('.d2h-diff-tbody'))).toContain(
      'export const VERSION = 2;',
    );
    expect(await viewedBox(page, 'src/auth/session.ts').isChecked()).toBe(false);
    expect(await treeItem('src/auth/session.ts').getAttribute('class')).not.toContain('inv-is-viewed');
    // The last file, folded as viewed, is drawn once it comes near the screen.
    await fileOf(page, 'README.md').scrollIntoViewIfNeeded();
    expect(await viewedBox(page, 'README.md').isChecked()).toBe(true);
    await screenshot('raw-viewed-after-new-round');
  });

  it('says when the working tree moved after the round, once the page has drawn and when the reader comes back', async () => {
    let asked: Promise<unknown> | null = null;
    const { page, repo } = await open('review-basic', {
      cards: 'none',
      onPage: (p) => {
        asked = p.waitForResponse((r) => r.url().endsWith('/api/freshness'));
      },
    });
    await rawMain(page).waitFor();
    const moved = page.getByRole('status').filter({ hasText: 'The working tree has moved since this round' });
    // Asked once the first files are drawn: nothing moved yet.
    await asked!;
    expect(await moved.count()).toBe(0);
    repo.write('src/util/text.ts', 'export const changedAgain = true;\n');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await moved.waitFor();
  });
});
