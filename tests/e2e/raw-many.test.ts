/**
 * Raw mode on a round of many files, in headless Chromium against the real server: a jump
 * from the tree or the keyboard draws the file it lands on and moves the tree's selection
 * (the files are laid out in blocks, and a jump measures and re-renders only what is near),
 * and a changed line's words are marked only when it was edited, not rewritten.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildRepo, e2e, eventually, texts, treeRow, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

const FILES = 130;
const name = (i: number) => `src/many/${i < FILES / 2 ? 'a' : 'b'}/f${String(i).padStart(3, '0')}.ts`;
const lines = (i: number, edited: boolean) =>
  Array.from({ length: 30 }, (_, n) =>
    edited && (n === 9 || n === 19)
      ? `export const value${n} = ${i} * ${n} + 1;`
      : `export const value${n} = ${i} * ${n};`,
  );

/** Commits FILES small files, edits two lines of each, and adds a file whose two changed lines were edited and rewritten. */
function manyFiles(repo: FixtureRepo): void {
  for (let i = 0; i < FILES; i++) repo.write(name(i), `${lines(i, false).join('\n')}\n`);
  repo.write(
    'src/many/words.ts',
    "export const greeting = 'Hello, world';\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n",
  );
  repo.git('add', 'src/many');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'Many files');
  for (let i = 0; i < FILES; i++) repo.write(name(i), `${lines(i, true).join('\n')}\n`);
  repo.write(
    'src/many/words.ts',
    "export const greeting = 'Hello, reader';\nexport function add(a: number, b: number): number {\n  throw new Error('gone');\n}\n",
  );
  repo.rounds();
}

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const selected = (page: Page) =>
  page
    .locator('nav[aria-label="Changed files"] .inv-tree-file[aria-selected="true"]')
    .evaluateAll((b) => b.map((x) => x.getAttribute('title')));
/** Whether some of the file's diff rows are drawn inside the viewport. */
const rowsOnScreen = (page: Page, ref: string) =>
  fileOf(page, ref).evaluate((section) =>
    [...section.querySelectorAll('.d2h-diff-tbody > tr')].some((row) => {
      const r = row.getBoundingClientRect();
      return r.height > 0 && r.bottom > 45 && r.top < innerHeight;
    }),
  );

describe('Raw mode on a round of many files', () => {
  // One repository for the file: its tests read the round and change nothing in it.
  let many: FixtureRepo;
  beforeAll(() => {
    many = buildRepo('review-basic');
    many.rounds();
    manyFiles(many);
  });

  it('jumps to a file clicked in the tree, draws its rows, and moves the selection there', async () => {
    const { page, screenshot } = await open('review-basic', { repo: many });
    const last = name(FILES - 1);
    await (await treeRow(page, last)).click();
    await eventually(() => rowsOnScreen(page, last)).toBe(true);
    await eventually(() => selected(page)).toEqual([last]);
    expect(await texts(fileOf(page, last).locator('.d2h-code-line-ctn'))).toContain(
      `export const value19 = ${FILES - 1} * 19 + 1;`,
    );
    await screenshot('raw-many-jump-last');

    const other = name(3);
    await (await treeRow(page, other)).click();
    await eventually(() => rowsOnScreen(page, other)).toBe(true);
    await eventually(() => selected(page)).toEqual([other]);
    // Every file is still listed, with its counts.
    expect(await texts(page.locator('nav[aria-label="Changed files"] .inv-coverage'))).toEqual([
      expect.stringMatching(new RegExp(`^${FILES + 7} changed files`)),
    ]);
    expect(await texts((await treeRow(page, other)).locator('.inv-counts'))).toEqual(['+2 −2']);
  });

  it('mounts each block of files as it comes near: scrolled to the end, the page holds every file of the round', async () => {
    const { page } = await open('review-basic', { repo: many });
    const sections = () => page.locator('main section.inv-file').count();
    expect(await sections()).toBeLessThan(FILES);
    for (let i = 0; i < 200 && (await page.locator('main [data-first-ref]').count()) > 0; i++) {
      await page.mouse.wheel(0, 3000);
      // The next step once the page has drawn the scroll.
      await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    }
    await eventually(sections).toBe(FILES + 7);
  });

  it('steps with ] and [ from the last file of one block of files to the first of the next, and back', async () => {
    const { page } = await open('review-basic', { repo: many });
    // The second block is mounted only once near (until then it names its first file).
    const [end, start] = await page.evaluate(() => {
      const blocks = document.querySelectorAll<HTMLElement>('main .inv-files');
      return [
        blocks[0]!.lastElementChild!.getAttribute('data-ref')!,
        blocks[1]!.dataset.firstRef ?? blocks[1]!.firstElementChild!.getAttribute('data-ref')!,
      ];
    });
    await (await treeRow(page, end)).click();
    await eventually(() => selected(page)).toEqual([end]);
    await page.keyboard.press(']');
    await eventually(() => selected(page)).toEqual([start]);
    await eventually(() => rowsOnScreen(page, start)).toBe(true);
    await page.keyboard.press('[');
    await eventually(() => selected(page)).toEqual([end]);
    await eventually(() => rowsOnScreen(page, end)).toBe(true);
  });

  it('marks the words that changed in a line edited in place, and none in a line rewritten whole', async () => {
    const { page, screenshot } = await open('review-basic', { repo: many });
    const ref = 'src/many/words.ts';
    await (await treeRow(page, ref)).click();
    const file = fileOf(page, ref);
    // Marked once the browser is idle, with the highlighting.
    await eventually(() => texts(file.locator('td.d2h-ins ins'))).toEqual(['reader']);
    expect(await texts(file.locator('td.d2h-del del'))).toEqual(['world']);
    expect(await texts(file.locator('td.d2h-del .d2h-code-line-ctn'))).toEqual([
      "export const greeting = 'Hello, world';",
      'return a + b;',
    ]);
    await screenshot('raw-many-words');
  });
});
