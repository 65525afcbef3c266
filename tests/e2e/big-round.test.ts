/**
 * A round of 10,000 files, in headless Chromium against the real server: the page opens on
 * the round's index and fetches diffs per file or block as they come near the screen, so
 * the first file is drawn without the round's text, the last file is a key press away,
 * and a search finds a string in a file never drawn.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MAX_DIFFS } from '../../schemas/limits';
import { e2e, eventually, text, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

const FILES = 10_000;
const name = (i: number) => `src/d${String(Math.floor(i / 100)).padStart(3, '0')}/f${String(i).padStart(5, '0')}.ts`;
const body = (i: number, edited: boolean) =>
  `export const a${i} = ${i};\nexport const b${i} = ${edited ? `${i} + 1` : i};\nexport const c${i} = ${i};\n`;
const HIDDEN = 5_432;
/** A file near the top whose diff is larger than one request of diffs carries (about 1.2 million characters). */
const LARGE = 3;
const largeBody = () => Array.from({ length: 40_000 }, (_, n) => `export const large${n} = ${n};\n`).join('');

/**
 * Ten thousand files, each with one changed line; one in the middle holds a word no other
 * has, and one near the top is rewritten whole.
 */
function tenThousand(repo: FixtureRepo): void {
  for (let i = 0; i < FILES; i++) repo.write(name(i), body(i, false));
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'Ten thousand files');
  for (let i = 0; i < FILES; i++) repo.write(name(i), body(i, true) + (i === HIDDEN ? '// onlyHereQuokka\n' : ''));
  repo.write(name(LARGE), largeBody());
  repo.rounds();
}

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const rowsOf = (page: Page, ref: string) => fileOf(page, ref).locator('.d2h-code-line-ctn');

/** The positions each request of diffs asked for, in the order asked. */
const diffAsks = (urls: string[]) =>
  urls
    .filter((url) => new URL(url).pathname === '/api/diffs')
    .map((url) => (new URL(url).searchParams.get('at') ?? '').split(','));

/** The diffs the page asked for so far: how many requests, how many files in all, the most in one. */
function diffRequests(urls: string[]) {
  const asked = diffAsks(urls).map((at) => at.length);
  return { requests: asked.length, files: asked.reduce((a, b) => a + b, 0), most: Math.max(0, ...asked) };
}

/** Whether a file's section is drawn on screen, below the sticky headers. */
async function inSight(page: Page, ref: string): Promise<boolean> {
  return fileOf(page, ref).evaluate((section) => {
    const bar = document.querySelector('.inv-header')!.getBoundingClientRect().bottom;
    const top = section.getBoundingClientRect().top;
    return top >= bar - 0.5 && top < innerHeight;
  });
}

describe('a round of 10,000 files', () => {
  it('draws its first file, jumps to its last, and finds a word in a file never drawn, fetching diffs per block', async () => {
    const urls: string[] = [];
    const { page, repo, screenshot } = await open('review-basic', {
      cards: 'none',
      prepare: tenThousand,
      onPage: (page) => page.on('request', (request) => urls.push(request.url())),
    });
    // The fixture's own files come first in the tree; the first of the ten thousand is further down.
    const first = (await page.locator('section.inv-file').first().getAttribute('data-ref'))!;
    await eventually(() => rowsOf(page, first).count()).toBeGreaterThan(0);
    const paths = urls.map((url) => new URL(url).pathname);
    expect(paths, 'the whole material is never fetched').not.toContain('/api/material');
    expect(paths.filter((p) => p === '/api/round')).toHaveLength(1);
    const loaded = diffRequests(urls);
    expect(loaded.files, 'diffs of the files near the screen only').toBeLessThan(500);
    expect(loaded.most).toBeLessThanOrEqual(MAX_DIFFS);
    // The large file near the top comes in an answer of its own: the files asked with it do not wait for it.
    const large = String(repo.material().material.findIndex((entry) => entry.ref === name(LARGE)));
    await eventually(() => diffAsks(urls).some((at) => at.includes(large))).toBe(true);
    expect(diffAsks(urls).filter((at) => at.includes(large))).toEqual([[large]]);

    // The last file: End in the tree, then Enter.
    const last = name(FILES - 1);
    await page.locator('nav[aria-label="Changed files"] [role="treeitem"]').first().focus();
    await page.keyboard.press('End');
    await eventually(() => text(page.locator('nav[aria-label="Changed files"] [role="treeitem"]:focus'))).toContain(
      last.split('/').pop()!,
    );
    await page.keyboard.press('Enter');
    await eventually(() => rowsOf(page, last).count()).toBeGreaterThan(0);
    await eventually(() => inSight(page, last)).toBe(true);
    expect(await text(rowsOf(page, last).first())).toContain(`a${FILES - 1}`);

    // A word only an undrawn file in the middle holds.
    const hidden = name(HIDDEN);
    expect(await rowsOf(page, hidden).count()).toBe(0);
    await page.keyboard.press('/');
    await page.keyboard.type('onlyHereQuokka');
    await eventually(() => text(page.locator('.inv-search-count'))).toBe('1 match in 1 file');
    await page.keyboard.press('Enter');
    await eventually(() => text(page.locator('tr.inv-hit'))).toContain('onlyHereQuokka');
    expect(await page.locator('tr.inv-hit').evaluate((row) => row.closest('section')!.dataset.ref)).toBe(hidden);
    await screenshot('big-round-search');

    const after = diffRequests(urls);
    expect(after.files, 'still a small part of the round').toBeLessThan(2_000);
    expect(after.most).toBeLessThanOrEqual(MAX_DIFFS);
  });
});
