/**
 * Expanding context around hunks, in headless Chromium against the real server: lines in
 * no hunk come from the round's captured tree and show with the right number on each side,
 * above a hunk, below the last one and for the whole file, in unified and side by side, for
 * a modified and a renamed file; an added file is whole already.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildRepo, e2e, eventually, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

const numbered = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} line ${i + 1}`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

/** A modified file (2 lines added at 10, line 50 changed), a renamed one (a line added at 5, line 30 changed), and an added one. */
function contextRound(repo: FixtureRepo): void {
  repo.write('src/long.ts', text(numbered('long', 100)));
  repo.write('src/old-name.ts', text(numbered('moved', 60)));
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'Context files');
  const long = numbered('long', 100);
  long[49] = 'long line 50 changed';
  long.splice(9, 0, 'inserted A', 'inserted B');
  repo.write('src/long.ts', text(long));
  repo.git('mv', 'src/old-name.ts', 'src/new-name.ts');
  const moved = numbered('moved', 60);
  moved[29] = 'moved line 30 changed';
  moved.splice(4, 0, 'moved inserted');
  repo.write('src/new-name.ts', text(moved));
  repo.write('src/brand-new.ts', text(numbered('fresh', 12)));
  // Edited after the capture: context must come from the round, not from the working tree.
  repo.rounds();
  repo.write('src/long.ts', 'not the round\n');
}

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const treeButton = (page: Page, ref: string) =>
  page.locator(`nav[aria-label="Changed files"] .inv-tree-file[title=${JSON.stringify(ref)}]`);

/** Old and new numbers of the unified row whose code reads `code`, or null when no row shows it. */
const unifiedNumbers = (page: Page, ref: string, code: string) =>
  fileOf(page, ref).evaluate((section, code) => {
    for (const row of section.querySelectorAll('tbody.d2h-diff-tbody > tr')) {
      if (row.querySelector('.d2h-code-line-ctn')?.textContent !== code) continue;
      const n = (c: string) => row.querySelector(c)?.textContent?.trim() ?? '';
      return { old: n('.line-num1'), new: n('.line-num2') };
    }
    return null;
  }, code);

/** The numbers beside `code` in the left (old) and right (new) tables of side by side. */
const sideNumbers = (page: Page, ref: string, code: string) =>
  fileOf(page, ref).evaluate((section, code) => {
    const find = (table: Element | undefined) => {
      for (const row of table?.querySelectorAll('tbody.d2h-diff-tbody > tr') ?? []) {
        if (row.querySelector('.d2h-code-line-ctn')?.textContent === code)
          return row.querySelector('.d2h-code-side-linenumber')?.textContent?.trim() ?? '';
      }
      return null;
    };
    // Each drawn chunk is a pair of tables, old on the left.
    for (const pair of section.querySelectorAll('.d2h-files-diff')) {
      const [left, right] = pair.querySelectorAll(':scope > .d2h-file-side-diff');
      const found = { old: find(left), new: find(right) };
      if (found.old !== null || found.new !== null) return found;
    }
    return { old: null, new: null };
  }, code);

const hunkHeader = (page: Page, ref: string, index: number) =>
  fileOf(page, ref).locator('tbody.d2h-diff-tbody td.d2h-info:not(.d2h-code-linenumber)').nth(index);

describe('expand context', () => {
  // One repository for the file: its tests read the round and change nothing in it.
  let round: FixtureRepo;
  beforeAll(() => {
    round = buildRepo('review-basic');
    round.rounds();
    contextRound(round);
  });

  it('shows lines above a hunk and the whole file of a modified file, numbered on both sides, in unified and side by side', async () => {
    const { page, screenshot } = await open('review-basic', { repo: round });
    const ref = 'src/long.ts';
    await treeButton(page, ref).click();
    expect(await unifiedNumbers(page, ref, 'long line 35')).toBeNull();
    // The second hunk starts at old 47 / new 49: 20 lines above it are new 29..48.
    await hunkHeader(page, ref, 1).click();
    await eventually(() => unifiedNumbers(page, ref, 'long line 35')).toEqual({ old: '35', new: '37' });
    expect(await unifiedNumbers(page, ref, 'long line 26')).toBeNull();
    await fileOf(page, ref)
      .getByRole('button', { name: /whole file/ })
      .click();
    await eventually(() => unifiedNumbers(page, ref, 'long line 90')).toEqual({ old: '90', new: '92' });
    expect(await unifiedNumbers(page, ref, 'long line 1')).toEqual({ old: '1', new: '1' });
    expect(await unifiedNumbers(page, ref, 'long line 20')).toEqual({ old: '20', new: '22' });
    expect(
      await fileOf(page, ref)
        .getByRole('button', { name: /whole file/ })
        .count(),
    ).toBe(0);
    await screenshot('context-whole-file');
    await page.keyboard.press('s');
    await eventually(() => sideNumbers(page, ref, 'long line 90')).toEqual({ old: '90', new: '92' });
    expect(await sideNumbers(page, ref, 'long line 35')).toEqual({ old: '35', new: '37' });
    await screenshot('context-side-by-side');
  });

  it('shows lines below the last hunk of a renamed file, from its base under the old path', async () => {
    const { page } = await open('review-basic', { repo: round });
    const ref = 'src/new-name.ts';
    await treeButton(page, ref).click();
    expect(await unifiedNumbers(page, ref, 'moved line 45')).toBeNull();
    await fileOf(page, ref)
      .getByRole('button', { name: /more lines below/ })
      .click();
    // After the added line 5, old n is new n + 1: the last hunk ends at new 34, so 35..54 show.
    await eventually(() => unifiedNumbers(page, ref, 'moved line 45')).toEqual({ old: '45', new: '46' });
    expect(await unifiedNumbers(page, ref, 'moved line 53')).toEqual({ old: '53', new: '54' });
    expect(await unifiedNumbers(page, ref, 'moved line 54')).toBeNull();
    await fileOf(page, ref)
      .getByRole('button', { name: /more lines below/ })
      .click();
    await eventually(() => unifiedNumbers(page, ref, 'moved line 60')).toEqual({ old: '60', new: '61' });
    await eventually(() =>
      fileOf(page, ref)
        .getByRole('button', { name: /more lines below/ })
        .count(),
    ).toBe(0);
  });

  it('offers nothing to expand in an added file: its one hunk is the whole file', async () => {
    const { page } = await open('review-basic', { repo: round });
    const ref = 'src/brand-new.ts';
    await treeButton(page, ref).click();
    await eventually(() => unifiedNumbers(page, ref, 'fresh line 12')).toEqual({ old: '', new: '12' });
    expect(await fileOf(page, ref).locator('.inv-context-bar').count()).toBe(0);
    expect(await hunkHeader(page, ref, 0).getAttribute('title')).toBeNull();
  });
});
