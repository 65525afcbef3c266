/**
 * The reading tools in headless Chromium against the real server, over `fixtures/review-reading`
 * (an indentation-only file, a file with indentation and one real change, a rename, a Markdown
 * guide with hostile HTML in it, a redrawn sprite sheet): each tool changes what the reader
 * sees, and what it remembers survives a reload.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, text, texts } from '../helpers/browser';

const { open } = e2e();

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const raw = async (page: Page) => {
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw', exact: true }).click();
  await page.locator('main[aria-label="Every changed file"]').waitFor();
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

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
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
