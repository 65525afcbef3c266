/**
 * The reading tools in headless Chromium against the real server, over `fixtures/review-reading`
 * (an indentation-only file, a file with indentation and one real change, a rename, a Markdown
 * guide with hostile HTML in it, a redrawn sprite sheet): each tool changes what the reader
 * sees, and what it remembers survives a reload.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, text, texts } from '../helpers/browser';
import { png } from '../helpers/git-repo';

const { open } = e2e();

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const raw = async (page: Page) => {
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw', exact: true }).click();
  await page.locator('main[aria-label="Every changed file"]').waitFor();
};
/** Opens the top bar's View menu (whitespace, wrapping, theme) unless it is open. */
const openView = async (page: Page) => {
  if (await page.locator('#inv-view-menu').evaluate((menu) => menu.matches(':popover-open'))) return;
  await page.getByRole('button', { name: /^View/ }).click();
  await page.getByRole('group', { name: 'Diff options' }).waitFor();
};
/** The text of each drawn diff line of a file (trimmed: indentation is not what these tests read). */
const codeLines = (page: Page, ref: string) => texts(fileOf(page, ref).locator('.d2h-code-line-ctn'));

describe('hide whitespace', () => {
  it('hides an indentation-only change, keeps the real change, and shows both again when turned off', async () => {
    const { page, screenshot, reload } = await open('review-reading');
    await raw(page);
    const toggle = page.getByRole('button', { name: 'Hide whitespace' });
    await fileOf(page, 'src/mixed.ts').scrollIntoViewIfNeeded();
    await eventually(() => codeLines(page, 'src/mixed.ts')).toContain("return 'Hello, whoever you are';");
    expect(await texts(fileOf(page, 'src/mixed.ts').locator('td.d2h-del .d2h-code-line-ctn'))).toContain(
      'const trimmed = name.trim();',
    );

    await openView(page);
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    // The menu closes on Escape, and the View button says what is on.
    await page.keyboard.press('Escape');
    await page.getByRole('group', { name: 'Diff options' }).waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: /^View/ }).textContent()).toContain('1');
    // The re-indented lines are no longer changes (nor context: -w keeps three lines around); the real change still is.
    await eventually(() => texts(fileOf(page, 'src/mixed.ts').locator('td.d2h-del .d2h-code-line-ctn'))).toEqual([
      "return 'Hello, stranger';",
    ]);
    const changed = await texts(fileOf(page, 'src/mixed.ts').locator('td.d2h-ins .d2h-code-line-ctn'));
    expect(changed).toEqual(["return 'Hello, whoever you are';"]);
    expect(await text(fileOf(page, 'src/mixed.ts').locator('.inv-file-header'))).toContain('whitespace hidden');
    await fileOf(page, 'src/layout.ts').scrollIntoViewIfNeeded();
    await eventually(() => text(fileOf(page, 'src/layout.ts').locator('.inv-file-message'))).toBe(
      'Only whitespace changed: show whitespace changes to read it.',
    );
    await screenshot('reading-whitespace-hidden');

    // Remembered across a reload.
    await reload();
    await raw(page);
    await openView(page);
    expect(await page.getByRole('button', { name: 'Hide whitespace' }).getAttribute('aria-pressed')).toBe('true');
    await fileOf(page, 'src/layout.ts').scrollIntoViewIfNeeded();
    await eventually(() => text(fileOf(page, 'src/layout.ts').locator('.inv-file-message'))).toContain(
      'Only whitespace changed',
    );

    // Turned off (by its key this time), both files read as captured.
    await page.keyboard.press('w');
    await eventually(() => codeLines(page, 'src/layout.ts')).toContain("return 'wide';");
    expect(await fileOf(page, 'src/layout.ts').locator('.inv-file-message').count()).toBe(0);
    await fileOf(page, 'src/mixed.ts').scrollIntoViewIfNeeded();
    await eventually(() => texts(fileOf(page, 'src/mixed.ts').locator('td.d2h-del .d2h-code-line-ctn'))).toContain(
      'const trimmed = name.trim();',
    );
  });
});

describe('Markdown preview', () => {
  it('renders a changed .md file before and after, its raw HTML as text, nothing run, nothing loaded', async () => {
    const { page, dialogs, screenshot } = await open('review-reading');
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await raw(page);
    const guide = fileOf(page, 'docs/guide.md');
    await guide.scrollIntoViewIfNeeded();
    await guide.getByRole('button', { name: 'Preview docs/guide.md rendered' }).click();
    const before = guide.getByRole('region', { name: 'before (rendered)' });
    const after = guide.getByRole('region', { name: 'after (rendered)' });
    await eventually(() => text(after.locator('h1'))).toBe('Reading guide');
    expect(await text(before.locator('h1'))).toBe('Reading guide');
    expect(await texts(before.locator('li'))).toEqual(['Cards group the change by intent', 'Raw shows every file']);
    expect(await texts(after.locator('li'))).toContain('Notes go back to the agent');
    expect(await text(after.locator('em'))).toBe('Raw');

    // The hostile HTML reads as text; no element of it exists; the script link is no link.
    const afterText = await text(after);
    expect(afterText).toContain("<script>window.__involutPwned = 'script';</script>");
    expect(afterText).toContain('<img src="x" onerror="window.__involutPwned = \'onerror\'">');
    expect(await after.locator('script, img, iframe').count()).toBe(0);
    expect(await after.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await after.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe('https://example.com/docs');
    expect(afterText).toContain('[image: remote logo]');
    // Where the javascript: link would be is plain text, and clicking it runs nothing either.
    expect(await after.getByText('run me').evaluate((el) => el.closest('a'))).toBeNull();
    await after.getByText('run me').click();
    expect(
      await page.evaluate(() => (window as unknown as { __involutPwned?: string }).__involutPwned),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    // Nothing but the viewer's own server was asked for anything (blob: URLs are the sprite sheet's bytes, already loaded).
    const origin = new URL(page.url()).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:'))).toEqual([]);
    await screenshot('reading-markdown-preview');

    // Folded again by the same button.
    await guide.getByRole('button', { name: 'Preview docs/guide.md rendered' }).click();
    expect(await guide.locator('.inv-md-preview').count()).toBe(0);
  });
});

describe('images in Raw', () => {
  it('compares a pair of 4,000×4,000 images in a worker, not on the page', async () => {
    const BIG = 'art/backdrop.png';
    const { page } = await open('review-reading', {
      prepare: (repo) => {
        writeFileSync(path.join(repo.dir, BIG), png(4000, 4000, [20, 90, 200]));
        repo.git('add', '--all');
        repo.git('commit', '--quiet', '--no-verify', '-m', 'Backdrop');
        writeFileSync(path.join(repo.dir, BIG), png(4000, 4000, [200, 90, 20]));
        repo.rounds();
      },
    });
    // In Cards, where no card shows the image; then Raw, where it is drawn and compared.
    await page.locator('main[aria-label="Selected card"]').waitFor();
    const backdrop = fileOf(page, BIG);
    await raw(page);
    await eventually(() => text(backdrop.locator('.inv-img-differ')), 30_000).toBe(
      '16,000,000 pixels of 16,000,000 differ',
    );
    // 16 million pixels a side are read back and compared in a worker, not on the page's thread
    // (on the page's thread, reading them back alone held it for 400 ms; npm run bench times the
    // longest task of a load with images).
    // The page's one decoding worker stays for the next image.
    expect(page.workers().some((worker) => worker.url().includes('decode.worker'))).toBe(true);
  });

  it('shows both sides at their size while their pixels are still being compared', async () => {
    const { page, context } = await open('review-reading');
    // The decoding worker is held back: the pictures must not wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route('**/decode.worker*', async (route) => {
      await held;
      await route.continue();
    });
    await raw(page);
    const SHEET = 'art/hero-sheet.png';
    const sheet = fileOf(page, SHEET);
    await sheet.scrollIntoViewIfNeeded();
    const after = sheet.getByRole('img', { name: `${SHEET}, after` });
    await after.waitFor();
    await eventually(() => after.evaluate((img) => (img as HTMLImageElement).complete)).toBe(true);
    // The sheet is 128×128, drawn at 3× to fit the box; its size is known from the material.
    expect(await after.evaluate((img) => (img as HTMLImageElement).style.width)).toBe('384px');
    expect(await sheet.getByRole('img', { name: `${SHEET}, before` }).count()).toBe(1);
    expect(await text(sheet.locator('.inv-img-facts[data-side="after"]'))).toContain('128×128 px');
    expect(await sheet.locator('.inv-img-differ').count()).toBe(0);

    release();
    await eventually(() => text(sheet.locator('.inv-img-differ'))).toBe('21 pixels of 16,384 differ');
  });

  it('compares an image side by side, by difference, with a slider and an onion skin', async () => {
    const { page, screenshot } = await open('review-reading');
    await raw(page);
    const SHEET = 'art/hero-sheet.png';
    const sheet = fileOf(page, SHEET);
    await sheet.scrollIntoViewIfNeeded();
    const modes = sheet.getByRole('group', { name: `How to compare ${SHEET}` });
    await modes.waitFor();
    expect(await modes.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    await eventually(() => sheet.getByRole('img', { name: `${SHEET}, before` }).count()).toBe(1);
    expect(await sheet.getByRole('img', { name: `${SHEET}, after` }).count()).toBe(1);
    // Under the file's own header, the drawing does not name the file again.
    expect(await sheet.locator('.inv-img-head h3').count()).toBe(0);

    await modes.getByRole('button', { name: 'Difference' }).click();
    const canvas = sheet.getByRole('img', {
      name: `${SHEET}: the pixels that differ, in magenta, over the after image dimmed`,
    });
    await eventually(() => canvas.count()).toBe(1);
    const magenta = await canvas.evaluate((c) => {
      const data = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 128, 128).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 255 && data[i + 3] === 255) n++;
      return n;
    });
    expect(magenta).toBe(21);
    await screenshot('reading-raw-image-difference');

    await modes.getByRole('button', { name: 'Slider' }).click();
    await sheet.getByRole('slider', { name: 'Slider: before left of the line, after right of it' }).fill('25');
    const layers = sheet.locator('.inv-img-stage .inv-img-layer');
    expect(await layers.evaluateAll((ls) => ls.map((l) => (l as HTMLElement).style.clipPath))).toEqual([
      'inset(0px 75% 0px 0px)',
      'inset(0px 0px 0px 25%)',
    ]);

    await modes.getByRole('button', { name: 'Onion skin' }).click();
    await sheet.getByRole('slider', { name: 'Onion skin: opacity of the after image over the before' }).fill('20');
    expect(await layers.nth(1).evaluate((l) => getComputedStyle(l).opacity)).toBe('0.2');
  });
});

describe('file headers', () => {
  it("say how alike a renamed file is to its old path, and copy a file's path", async () => {
    const { page, repo, context } = await open('review-reading');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await raw(page);
    const renamed = repo.material().material.find((e) => e.ref === 'src/sizes.ts') as { similarity?: number };
    expect(renamed.similarity).toBeGreaterThan(50);
    expect(renamed.similarity).toBeLessThan(100);
    const sizes = fileOf(page, 'src/sizes.ts');
    await sizes.scrollIntoViewIfNeeded();
    expect(await texts(sizes.locator('.inv-file-header .inv-tag'))).toContain(`${renamed.similarity}% similar`);

    const copy = sizes.getByRole('button', { name: 'Copy path: src/sizes.ts' });
    await copy.click();
    await eventually(() => text(copy)).toContain('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('src/sizes.ts');
    // It reads "Copy path" again after a moment.
    await eventually(() => text(copy)).toBe('Copy path');
  });
});

describe('wrapped lines', () => {
  it('wraps long lines in side by side with both sides level and no sideways scroll, and remembers', async () => {
    const { page, reload, screenshot } = await open('review-reading');
    await page.setViewportSize({ width: 800, height: 900 });
    await raw(page);
    await page.getByRole('group', { name: 'Diff format' }).getByRole('button', { name: 'Side by side' }).click();
    const message = fileOf(page, 'src/message.ts');
    await message.scrollIntoViewIfNeeded();
    const sides = message.locator('.d2h-file-side-diff');
    await eventually(() => sides.count()).toBe(2);
    // Wrapping makes the files above taller: the file is brought back into view before each look.
    const scrolls = async () => {
      await message.scrollIntoViewIfNeeded();
      return sides.evaluateAll((s) => s.map((x) => x.scrollWidth > x.clientWidth + 1));
    };
    // Cut, not wrapped: each side scrolls sideways.
    expect(await scrolls()).toEqual([true, true]);

    await openView(page);
    await page.getByRole('button', { name: 'Wrap lines' }).click();
    await eventually(scrolls).toEqual([false, false]);
    const rows = () =>
      sides.evaluateAll((s) =>
        s.map((side) => [...side.querySelectorAll('tbody > tr')].map((r) => r.getBoundingClientRect().height)),
      );
    // The long line takes several rows' height, the same on both sides, every other row too.
    await eventually(async () => {
      const [left, right] = await rows();
      return (
        left!.length === right!.length && left!.every((h, i) => Math.abs(h - right![i]!) < 1) && Math.max(...left!) > 40
      );
    }).toBe(true);
    await screenshot('reading-wrap-side-by-side');

    await reload();
    await raw(page);
    await openView(page);
    expect(await page.getByRole('button', { name: 'Wrap lines' }).getAttribute('aria-pressed')).toBe('true');
    await fileOf(page, 'src/message.ts').scrollIntoViewIfNeeded();
    await eventually(scrolls).toEqual([false, false]);
  });
});

describe('theme', () => {
  it('switches light and dark whatever the system says, diffs and highlighting included, and remembers', async () => {
    const { page, reload, screenshot } = await open('review-reading');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const theme = page.getByRole('combobox', { name: 'Theme' });
    await raw(page);
    // The system (this browser) is light.
    expect(await background()).toBe('rgb(255, 255, 255)');
    await openView(page);
    await theme.selectOption('dark');
    await eventually(background).toBe('rgb(15, 18, 23)');
    const row = fileOf(page, 'src/mixed.ts').locator('.d2h-wrapper').first();
    await fileOf(page, 'src/mixed.ts').scrollIntoViewIfNeeded();
    await eventually(() => row.getAttribute('class')).toContain('d2h-dark-color-scheme');
    await eventually(() => page.locator('link#inv-highlight').getAttribute('href')).toContain('github-dark');
    await screenshot('reading-theme-dark');

    await reload();
    await openView(page);
    expect(await page.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('dark');
    expect(await background()).toBe('rgb(15, 18, 23)');
    // A dark system, read in light.
    await page.emulateMedia({ colorScheme: 'dark' });
    await openView(page);
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
    await eventually(background).toBe('rgb(255, 255, 255)');
    // Back to the system's: dark.
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    await eventually(background).toBe('rgb(15, 18, 23)');
  });
});
