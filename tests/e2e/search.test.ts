/**
 * Search across the whole round, in headless Chromium against the real server: the
 * count comes from the server, and "next" draws the file and the chunk of the match
 * (an undrawn file at the end of a long round, a line deep in a folded large file),
 * scrolls it below the sticky headers and highlights it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildRepo, e2e, eventually, text, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

const FILES = 120;
const name = (i: number) => `src/many/f${String(i).padStart(3, '0')}.ts`;
const body = (i: number, edited: boolean) =>
  Array.from({ length: 30 }, (_, n) => `export const v${n} = ${i} * ${n}${edited && n === 15 ? ' + 1' : ''};`).join(
    '\n',
  ) + '\n';
const BIG = 'src/zz-big/generated-table.ts';
const bigBody = (edited: boolean) =>
  Array.from(
    { length: 4000 },
    (_, n) => `row(${n}, '${edited ? `edited ${n}` : n}');${edited && n === 3500 ? ' // deepUnicorn' : ''}`,
  ).join('\n') + '\n';

/** A round of many small files, the last holding a word no other file has, and a 4,000-line change that starts folded. */
function bigRound(repo: FixtureRepo): void {
  for (let i = 0; i < FILES; i++) repo.write(name(i), body(i, false));
  repo.write(BIG, bigBody(false));
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'Many files');
  for (let i = 0; i < FILES; i++)
    repo.write(name(i), body(i, true).replace(i === FILES - 1 ? 'v29' : '\0', 'lastOnlyZebra'));
  repo.write(BIG, bigBody(true));
  repo.rounds();
}

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const count = (page: Page) => text(page.locator('.inv-search-count'));

/** Where the highlighted row is against the sticky headers: its top must be below both, its bottom inside the window. */
async function hitPlace(page: Page) {
  return page.evaluate(() => {
    const row = document.querySelector('tr.inv-hit');
    if (!row) return null;
    const section = row.closest('section.inv-file')!;
    const bar = document.querySelector('.inv-header')!.getBoundingClientRect().bottom;
    const fileHeader = section.querySelector('.inv-file-header')!.getBoundingClientRect().bottom;
    const r = row.getBoundingClientRect();
    return {
      ref: section.getAttribute('data-ref'),
      text: row.textContent ?? '',
      below: r.top >= Math.max(bar, fileHeader) - 0.5,
      inside: r.bottom <= innerHeight,
    };
  });
}

/**
 * Whether the screen is drawn: every diff chunk on it has its rows (the viewer's own test
 * before work that waits for the first screen). Files take their real heights as they draw.
 */
async function screenDrawn(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main .inv-chunk')].every((chunk) => {
      const rect = chunk.getBoundingClientRect();
      return chunk.firstElementChild || rect.height === 0 || rect.bottom <= 0 || rect.top >= innerHeight;
    }),
  );
}

describe('search across the whole round', () => {
  // One repository for the tests that search the big round and change nothing in it.
  let big: FixtureRepo;
  beforeAll(() => {
    big = buildRepo('review-basic');
    big.rounds();
    bigRound(big);
  });

  it('finds text in a file not drawn yet, counts it, and lands on it below the headers', async () => {
    const { page, screenshot } = await open('review-basic', { repo: big });
    const last = name(FILES - 1);
    expect(await fileOf(page, last).locator('.d2h-code-line-ctn').count()).toBe(0);
    await page.keyboard.press('/');
    await page.keyboard.type('lastOnlyZebra');
    await eventually(() => count(page)).toBe('1 match in 1 file');
    await page.keyboard.press('Enter');
    await eventually(() => hitPlace(page)).toMatchObject({ ref: last, below: true, inside: true });
    expect((await hitPlace(page))!.text).toContain('lastOnlyZebra');
    await eventually(() => count(page)).toBe('1 / 1 in 1 file');
    // Still in sight once the files around it have taken their real heights.
    await eventually(() => screenDrawn(page)).toBe(true);
    expect(await hitPlace(page)).toMatchObject({ ref: last, below: true, inside: true });
    await screenshot('search-last-file');
  });

  it('unfolds a large folded file and lands on a line deep inside it', async () => {
    const { page, screenshot } = await open('review-basic', { repo: big });
    await page.locator('.inv-search-input').fill('deepunicorn');
    await eventually(() => count(page)).toBe('1 match in 1 file');
    await page.locator('button[aria-label="Next match"]').click();
    await eventually(() => hitPlace(page)).toMatchObject({ ref: BIG, below: true, inside: true });
    expect((await hitPlace(page))!.text).toContain("row(3500, 'edited 3500'); // deepUnicorn");
    await eventually(() => screenDrawn(page)).toBe(true);
    expect(await hitPlace(page)).toMatchObject({ ref: BIG, below: true, inside: true });
    await screenshot('search-folded-file');
  });

  it('scrolls a long line sideways to show a match far along it, in a narrow window', async () => {
    const LONG = 'src/long-line.ts';
    const line = `export const settings = { ${Array.from({ length: 30 }, (_, n) => `option${n}: ${n}`).join(', ')}, farRightOtter: true };`;
    const { page, screenshot } = await open('review-basic', {
      cards: 'none',
      prepare: (repo) => {
        repo.write(LONG, `${line}\n`);
        repo.rounds();
      },
    });
    await page.setViewportSize({ width: 800, height: 700 });
    await page.locator('.inv-search-input').fill('farRightOtter');
    await eventually(() => count(page)).toBe('1 match in 1 file');
    await page.locator('.inv-search-input').press('Enter');
    await eventually(() => hitPlace(page)).toMatchObject({ ref: LONG, below: true, inside: true });
    // The word is inside the pane, right of the line numbers that stay at its left edge.
    const place = () =>
      page.evaluate(() => {
        const row = document.querySelector('tr.inv-hit')!;
        const pane = row.closest('.d2h-file-diff, .d2h-file-side-diff')!.getBoundingClientRect();
        const code = row.querySelector('.d2h-code-line-ctn')!;
        const node = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let n = node.nextNode(); n; n = node.nextNode()) {
          const at = n.textContent!.indexOf('farRightOtter');
          if (at === -1) continue;
          const range = document.createRange();
          range.setStart(n, at);
          range.setEnd(n, at + 'farRightOtter'.length);
          const r = range.getBoundingClientRect();
          const numbers = row.querySelector('td')!.getBoundingClientRect().width;
          return r.left >= pane.left + numbers && r.right <= pane.right;
        }
        return null;
      });
    await eventually(place).toBe(true);
    await screenshot('search-long-line-800');
  });

  it('highlights the word found, the second of two on one line too, through the line’s syntax highlighting', async () => {
    const TWICE = 'src/twice.ts';
    const line = "export const pair = ['quokka', 'quokka'];";
    const { page, screenshot } = await open('review-basic', {
      cards: 'none',
      prepare: (repo) => {
        repo.write(TWICE, `${line}\n`);
        repo.rounds();
      },
    });
    // The highlighted text, where it starts in its line, and whether its code is highlighted for TypeScript yet.
    const found = () =>
      page.evaluate(() => {
        const highlight = CSS.highlights.get('inv-found');
        const range = highlight ? [...highlight][0] : undefined;
        if (!(range instanceof Range)) return null;
        const code = range.startContainer.parentElement?.closest('.d2h-code-line-ctn');
        if (!code?.closest('tr.inv-hit')) return 'not in the line the search landed on';
        const before = document.createRange();
        before.setStart(code, 0);
        before.setEnd(range.startContainer, range.startOffset);
        return { text: range.toString(), at: before.toString().length, colored: !!code.querySelector('.hljs-string') };
      });
    const input = page.locator('.inv-search-input');
    await input.fill('quokka');
    await eventually(() => count(page)).toBe('2 matches in 1 file');
    await input.press('Enter');
    await eventually(found).toMatchObject({ text: 'quokka', at: line.indexOf('quokka') });
    await input.press('Enter');
    await eventually(found).toMatchObject({ text: 'quokka', at: line.lastIndexOf('quokka') });
    // highlight.js redraws the line's text once the page is idle; the word stays highlighted.
    await eventually(found).toEqual({ text: 'quokka', at: line.lastIndexOf('quokka'), colored: true });
    await screenshot('search-found-highlighted');
    await input.fill('');
    await eventually(found).toBe(null);
  });

  it('honours match case and whole words, steps through matches, and says when nothing matches', async () => {
    const { page } = await open('review-basic', { repo: big });
    const input = page.locator('.inv-search-input');
    await input.fill('LASTONLYZEBRA');
    await eventually(() => count(page)).toBe('1 match in 1 file');
    await page.locator('button[aria-label="Match case"]').click();
    await eventually(() => count(page)).toBe('No matches');
    await input.fill('v15');
    await page.locator('button[aria-label="Match case"]').click();
    await page.locator('button[aria-label="Whole words only"]').click();
    // Each small file changed its line 16 (`v15`): the deleted and the added line match.
    await eventually(() => count(page)).toBe(`${FILES * 2} matches in ${FILES} files`);
    await input.press('Enter');
    await eventually(() => hitPlace(page)).toMatchObject({ ref: name(0), below: true });
    await input.press('Enter');
    await input.press('Enter');
    await eventually(() => hitPlace(page)).toMatchObject({ ref: name(1), below: true });
    await input.press('Shift+Enter');
    await eventually(() => count(page)).toBe(`2 / ${FILES * 2} in ${FILES} files`);
    await eventually(() => hitPlace(page)).toMatchObject({ ref: name(0), below: true });
  });

  it('keeps the app bar on one line at 1440 px with a count beside the budget, and says the total in its title', async () => {
    const { page } = await open('review-basic');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('.inv-search-input').fill('e');
    await eventually(() => count(page)).toMatch(/^\d+ matches in \d+ files$/);
    const bar = await page.evaluate(() => document.querySelector('.inv-header')!.getBoundingClientRect().height);
    expect(bar).toBeLessThan(60); // one line is 45 px, two are 81
    expect(await page.locator('.inv-budget').getAttribute('title')).toMatch(/^Cards need \d+ min; \d+ of \d+ fit/);
  });

  it('shows a match in the selected card when the card shows its file, and in Raw otherwise', async () => {
    const { page } = await open('review-basic');
    const card = page.locator('main[aria-label="Selected card"]');
    await page.getByRole('button', { name: /strings\.ts is now text\.ts/ }).click();
    await card.getByRole('button', { name: /^full: / }).click();
    await eventually(() => card.locator('section.inv-file[data-ref="src/util/text.ts"]').count()).toBe(1);
    const input = page.locator('.inv-search-input');
    await input.fill('Math.max(0');
    await eventually(() => count(page)).toBe('1 match in 1 file');
    await input.press('Enter');
    // The selected card shows src/util/text.ts: the match is marked there, still in Cards.
    await eventually(() => hitPlace(page)).toMatchObject({ ref: 'src/util/text.ts', below: true, inside: true });
    expect(await card.locator('tr.inv-hit').count()).toBe(1);
    expect(new URL(page.url()).hash).toContain('mode=cards');
    // A file this card does not show: Raw, on that line.
    await input.fill('IDLE_MS');
    await eventually(() => count(page)).not.toBe('1 match in 1 file');
    await input.press('Enter');
    await eventually(() => new URL(page.url()).hash).toContain('mode=raw');
    await eventually(() => hitPlace(page)).toMatchObject({ ref: 'src/auth/session.ts', below: true, inside: true });
    expect(new URL(page.url()).hash).toContain(`file=${encodeURIComponent('src/auth/session.ts')}`);
  });
});
