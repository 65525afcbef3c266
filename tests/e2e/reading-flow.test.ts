/**
 * The reading flow, in headless Chromium against the real server: every key and control acts
 * where the reader's eye is. One page, one repository: each step adds its assertions.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, text, treeRow, type FixtureRepo } from '../helpers/browser';

const { open } = e2e();

const tree = (page: Page) => page.locator('nav[aria-label="Changed files"]');
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const viewedBox = (page: Page, ref: string) => fileOf(page, ref).locator('label.inv-viewed input');
const pageRefs = (page: Page) =>
  page.locator('main section.inv-file').evaluateAll((s) => s.map((x) => x.getAttribute('data-ref') ?? ''));
const treeRefs = (page: Page) =>
  tree(page)
    .locator('.inv-tree-file')
    .evaluateAll((b) => b.map((x) => x.getAttribute('title') ?? ''));

/** A round of many small files (each edited on one line), far more than one screen holds. */
const MANY = 80;
const manyName = (i: number) => `many/f${String(i).padStart(2, '0')}.ts`;
function manyFiles(repo: FixtureRepo): void {
  const body = (i: number, edited: boolean) =>
    Array.from({ length: 30 }, (_, n) => `export const v${n} = ${i} * ${n}${edited && n === 15 ? ' + 1' : ''};`).join(
      '\n',
    ) + '\n';
  for (let i = 0; i < MANY; i++) repo.write(manyName(i), body(i, false));
  repo.git('add', '--all');
  repo.git('commit', '--quiet', '--no-verify', '-m', 'Many files');
  for (let i = 0; i < MANY; i++) repo.write(manyName(i), body(i, true));
  repo.rounds();
}

/** The first element matching `selector` wholly in the window below the sticky headers (the app bar, its file's header), or null. */
const inSight = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const bar = document.querySelector('.inv-header')!.getBoundingClientRect().bottom;
    for (const element of document.querySelectorAll(selector)) {
      const r = element.getBoundingClientRect();
      const section = element.closest('section.inv-file');
      const fileHeader = section?.querySelector('.inv-file-header')?.getBoundingClientRect().bottom ?? bar;
      if (r.top >= Math.max(bar, fileHeader) - 0.5 && r.bottom <= innerHeight)
        return `${section?.getAttribute('data-ref')}: ${element.textContent?.trim().slice(0, 40)}`;
    }
    return null;
  }, selector);

describe('the reading flow', () => {
  it('acts on the file the reader chose', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    await page.locator('main[aria-label="Every changed file"]').waitFor();
    await eventually(() => treeRefs(page)).toHaveLength(6);
    const all = await treeRefs(page);
    const first = all[0]!;
    const last = all[all.length - 1]!;

    // 1. The last file is chosen in the tree: it cannot scroll up to the top of the page, so
    // the file at the top is another one; v and n act on the chosen one, and say so.
    await tree(page)
      .locator(`.inv-tree-file[title=${JSON.stringify(last)}]`)
      .click();
    await page.keyboard.press('v');
    await eventually(() => viewedBox(page, last).isChecked()).toBe(true);
    expect(await viewedBox(page, first).isChecked()).toBe(false);
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${last}: marked viewed`);
    await page.keyboard.press('v');
    await eventually(() => viewedBox(page, last).isChecked()).toBe(false);
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${last}: no longer viewed`);
    await page.keyboard.press('n');
    await eventually(() =>
      page.evaluate(() => document.activeElement?.closest<HTMLElement>('section.inv-file')?.dataset.ref),
    ).toBe(last);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${last}: writing a note`);
  });

  it('narrows the page to the files the filter keeps, and says how many', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    await eventually(() => treeRefs(page)).toHaveLength(6);
    const filter = tree(page).getByRole('searchbox', { name: 'Filter files by path' });
    await filter.fill('auth');
    await eventually(() => treeRefs(page)).toHaveLength(3);
    // The page shows exactly what the tree shows, in its order, and says so.
    await eventually(() => pageRefs(page)).toEqual(await treeRefs(page));
    expect(await text(page.locator('.inv-page-filter'))).toMatch(/^3 of 6 files/);
    // ] steps through the kept files only, to the last one.
    const kept = await treeRefs(page);
    const fileInHash = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('file'));
    await filter.blur();
    for (let i = 0; i < kept.length; i++) {
      await page.keyboard.press(']');
      await eventually(fileInHash).not.toBeNull();
      expect(kept).toContain(await fileInHash());
    }
    await eventually(fileInHash).toBe(kept[kept.length - 1]);
    // A search match in a file the filter hides clears the filter and lands there.
    await page.locator('.inv-search-input').fill('linus');
    await eventually(() => text(page.locator('.inv-search-count'))).toBe('1 match in 1 file');
    await page.keyboard.press('Enter');
    await eventually(() => filter.inputValue()).toBe('');
    await eventually(() => pageRefs(page).then((r) => r.length)).toBe(6);
    await eventually(() => page.locator('tr.inv-hit').count()).toBe(1);
    expect(await page.locator('tr.inv-hit').evaluate((r) => r.closest('section')?.dataset.ref)).toBe('scripts/seed.ts');
    // Cleared from the page, the filter lets every file back.
    await filter.fill('seed');
    await eventually(() => pageRefs(page)).toEqual(['scripts/seed.ts']);
    await page.getByRole('button', { name: 'Clear the filter' }).click();
    await eventually(() => pageRefs(page).then((r) => r.length)).toBe(6);
    expect(await filter.inputValue()).toBe('');
  });

  it('folds the notes of a collapsed file, and keeps their count in sight', async () => {
    const { page, repo } = await open('review-basic', { cards: 'none' });
    await eventually(() => treeRefs(page)).toHaveLength(6);
    const ref = 'src/auth/session.ts';
    await fileOf(page, ref)
      .getByRole('textbox', { name: `Note on file ${ref}` })
      .fill('Why 30 minutes?');
    await eventually(() => repo.notes()?.notes[`file:${ref}`]?.text).toBe('Why 30 minutes?');
    const boxes = page.locator('main textarea.inv-note-text');
    expect(await boxes.count()).toBeGreaterThan(0);

    // Collapse all: no note box stays open on the page; the file with a note says it holds one.
    await tree(page).getByRole('button', { name: 'Collapse all' }).click();
    await eventually(() => boxes.count()).toBe(0);
    const count = fileOf(page, ref).locator('.inv-folded-notes');
    expect(await text(count)).toBe(`1 note folded with this file: show ${ref}`);
    expect(await page.locator('.inv-folded-notes').count()).toBe(1);

    // One click shows the file and its note again.
    await count.getByRole('button').click();
    await eventually(() => fileOf(page, ref).locator('textarea.inv-note-text').inputValue()).toBe('Why 30 minutes?');
    expect(await fileOf(page, ref).locator('.inv-folded-notes').count()).toBe(0);

    // n on a collapsed file unfolds it and writes there, not on another file's open box.
    await tree(page).getByRole('button', { name: 'Collapse all' }).click();
    await eventually(() => boxes.count()).toBe(0);
    const other = 'scripts/seed.ts';
    await tree(page)
      .locator(`.inv-tree-file[title=${JSON.stringify(other)}]`)
      .click();
    await page.keyboard.press('n');
    await eventually(() =>
      page.evaluate(() => document.activeElement?.closest<HTMLElement>('section.inv-file')?.dataset.ref),
    ).toBe(other);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
  });

  it('m reaches a mark in a file not drawn yet, from the top of Raw', async () => {
    const far = manyName(60);
    const { page } = await open('review-basic', {
      cards: {
        text: JSON.stringify({
          contract: 1,
          cards: [
            {
              id: 'c_last',
              title: 'A file far down',
              intent: 'behavior',
              minutes: 1,
              refs: [far],
              marks: [{ ref: far, at: 'v15 = 60 * 15 + 1', text: 'Read this line.' }],
            },
          ],
        }),
      },
      prepare: manyFiles,
    });
    await page.keyboard.press('r');
    await page.locator('main[aria-label="Every changed file"]').waitFor();
    await eventually(() => treeRefs(page).then((r) => r.length)).toBeGreaterThan(0);
    expect(await page.locator(`section.inv-file[data-ref="${far}"]`).count()).toBe(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.keyboard.press('m');
    await eventually(() => inSight(page, '.inv-mark')).toBe(`${far}: A file far downRead this line.`);
    // Past the last one, m says there is none below.
    await page.keyboard.press('m');
    await eventually(() => text(page.locator('.inv-key-status'))).toBe('No mark or note below.');
  });

  it('opens every file the Cards sidebar lists as claimed by no card', async () => {
    const { page } = await open('review-basic', { prepare: manyFiles });
    const sidebar = page.locator('nav[aria-label="Cards"]');
    const listed = sidebar.locator('.inv-unclaimed-list');
    const chosen = manyName(40);
    await listed.getByRole('button', { name: chosen, exact: true }).click();
    const main = page.locator('main[aria-label="Selected card"]');
    await main.getByRole('heading', { name: 'Files no card claims' }).waitFor();
    // The chosen file is at the top of the page, just below the app bar.
    const place = () =>
      page.evaluate((ref) => {
        const bar = document.querySelector('.inv-header')!.getBoundingClientRect().bottom;
        const top = document.querySelector(`section.inv-file[data-ref="${ref}"]`)?.getBoundingClientRect().top;
        return top !== undefined && top >= bar - 1 && top <= bar + 30;
      }, chosen);
    await eventually(place).toBe(true);
    // v acts on it.
    await page.keyboard.press('v');
    await eventually(() => text(page.locator('.inv-key-status'))).toBe(`${chosen}: marked viewed`);
    // Past the first fifty, one button shows them all.
    await listed.getByRole('button', { name: /… and \d+ more: show them all/ }).click();
    await eventually(() => page.evaluate(() => window.scrollY)).toBe(0);
    const unclaimed = sidebar.locator('section.inv-group').filter({ hasText: 'files no card claims' });
    const [count] = (await text(unclaimed.locator('.inv-nav-item'))).split(' ');
    expect(Number(count)).toBeGreaterThan(50);
    expect(await main.locator('section.inv-file').count()).toBe(Number(count));
  });

  it('gives a folded diff the size of what is folded, not of the whole file', async () => {
    const ref = 'data/table.ts';
    const rows = (edited: boolean) =>
      Array.from({ length: 1000 }, (_, n) => `row(${n}, '${edited && n === 500 ? 'edited' : 'some text here'}');`);
    const { page } = await open('review-basic', {
      cards: 'none',
      prepare: (repo) => {
        repo.write(ref, `${rows(false).join('\n')}\n`);
        repo.git('add', '--all');
        repo.git('commit', '--quiet', '--no-verify', '-m', 'A large table');
        repo.write(ref, `${rows(true).join('\n')}\n`);
        repo.rounds();
      },
    });
    await fileOf(page, ref)
      .getByRole('checkbox', { name: `Viewed: ${ref}` })
      .check();
    // The file is about 27 KB; its diff is 9 lines of a few hundred bytes.
    await eventually(() => text(fileOf(page, ref).locator('button.inv-fold'))).toMatch(
      new RegExp(`^Viewed: 9 lines, \\d{3} B\\. Show it: ${ref}$`),
    );
  });

  it('draws removed lines in one colour, unified or split, light or dark', async () => {
    const { page } = await open('review-basic', { cards: 'none' });
    const ref = 'src/auth/session.ts';
    const removalColours = () =>
      fileOf(page, ref)
        .locator('td.d2h-del:not(.d2h-code-linenumber, .d2h-code-side-linenumber)')
        .evaluateAll((cells) => [...new Set(cells.map((c) => getComputedStyle(c).backgroundColor))]);
    const both = async () => {
      await eventually(() => removalColours().then((c) => c.length)).toBeGreaterThan(0);
      const unified = await removalColours();
      await page.keyboard.press('s');
      await eventually(() => fileOf(page, ref).locator('.d2h-file-side-diff').count()).toBeGreaterThan(0);
      const split = await removalColours();
      await page.keyboard.press('s');
      await eventually(() => fileOf(page, ref).locator('.d2h-file-side-diff').count()).toBe(0);
      return { unified, split };
    };
    const light = await both();
    expect(light.unified).toHaveLength(1);
    expect(light.split).toEqual(light.unified);
    await page.emulateMedia({ colorScheme: 'dark' });
    await eventually(() => fileOf(page, ref).locator('.d2h-dark-color-scheme').count()).toBeGreaterThan(0);
    const dark = await both();
    expect(dark.unified).toHaveLength(1);
    expect(dark.split).toEqual(dark.unified);
    expect(dark.unified).not.toEqual(light.unified);
  });

  it('says what a note is for once on the page, not in every note box', async () => {
    const { page } = await open('review-basic');
    const hint = 'Leave a note for the agent: a question, an objection, an instruction…';
    const placeholders = () =>
      page
        .locator('main textarea.inv-note-text')
        .evaluateAll((boxes) => boxes.map((b) => b.getAttribute('placeholder')));
    const title = 'Sessions now expire after 30 idle minutes';
    await page.locator('nav[aria-label="Cards"]').getByRole('button', { name: title }).click();
    await page.getByRole('button', { name: `full: ${title}` }).click();
    // The card's box and its file's box: the hint once.
    await eventually(() => placeholders().then((p) => p.length)).toBeGreaterThan(1);
    expect((await placeholders()).filter((p) => p === hint)).toHaveLength(1);
    // Raw: every file has a box; the hint is said once above them.
    await page.keyboard.press('r');
    await eventually(() => placeholders().then((p) => p.length)).toBeGreaterThan(2);
    expect((await placeholders()).filter((p) => p === hint)).toHaveLength(0);
    expect(await page.locator('main').getByText('Leave a note for the agent').count()).toBe(1);
  });

  it('folds generated files the same way, by .gitattributes or by name', async () => {
    const body = (n: number) => `${Array.from({ length: 40 }, (_, i) => `var a${i} = ${n + i};`).join('\n')}\n`;
    const { page } = await open('review-basic', {
      cards: 'none',
      prepare: (repo) => {
        repo.write('.gitattributes', 'dist/*.js linguist-generated\n');
        repo.write('dist/app.js', body(0));
        repo.write('vendor/lib.min.js', body(0));
        repo.git('add', '--all');
        repo.git('commit', '--quiet', '--no-verify', '-m', 'Built files');
        repo.write('dist/app.js', body(1));
        repo.write('vendor/lib.min.js', body(1));
        repo.rounds();
      },
    });
    for (const ref of ['dist/app.js', 'vendor/lib.min.js']) {
      await fileOf(page, ref).scrollIntoViewIfNeeded();
      await eventually(() => text(fileOf(page, ref).locator('button.inv-fold'))).toMatch(
        new RegExp(`^Generated or lock file: \\d+ lines, [\\d.]+ K?B\\. Show it: ${ref}$`),
      );
      expect(await fileOf(page, ref).locator('.inv-file-header .inv-tag').allTextContents()).toContain('generated');
      expect(await fileOf(page, ref).locator('.d2h-code-line-ctn').count()).toBe(0);
    }
  });

  it('goes back from Raw to the top of the card holding the file in view', async () => {
    const half = (from: number) => Array.from({ length: MANY / 2 }, (_, i) => manyName(from + i));
    const card = (id: string, title: string, refs: string[]) => ({ id, title, intent: 'behavior', minutes: 1, refs });
    const { page } = await open('review-basic', {
      cards: {
        text: JSON.stringify({
          contract: 1,
          cards: [card('c_first', 'The first half', half(0)), card('c_second', 'The second half', half(MANY / 2))],
        }),
      },
      prepare: manyFiles,
    });
    await page.getByRole('heading', { name: 'The first half' }).waitFor();
    await page.keyboard.press('r');
    const chosen = manyName(60);
    await (await treeRow(page, chosen)).click();
    await eventually(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
    await page.keyboard.press('r');
    // The card holding the file, from its top.
    const heading = page.getByRole('heading', { name: 'The second half' });
    await heading.waitFor();
    await eventually(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.locator('nav[aria-label="Cards"] [aria-current="true"]').textContent()).toContain(
      'The second half',
    );
  });

  it('hides, shows and resizes the sidebar, and remembers it', async () => {
    const { page, reload, screenshot } = await open('review-basic', { cards: 'none' });
    const width = () => tree(page).evaluate((nav) => Math.round(nav.getBoundingClientRect().width));
    const mainWidth = () => page.locator('main').evaluate((m) => Math.round(m.getBoundingClientRect().width));
    await eventually(() => treeRefs(page)).toHaveLength(6);
    const wide = await mainWidth();
    // A key hides it and shows it again; the diffs take the room.
    await page.keyboard.press('b');
    await eventually(() => tree(page).isVisible()).toBe(false);
    expect(await mainWidth()).toBeGreaterThan(wide + 200);
    await page.keyboard.press('b');
    await eventually(() => tree(page).isVisible()).toBe(true);
    // So does a control.
    await page.getByRole('button', { name: 'Hide the sidebar' }).click();
    await eventually(() => tree(page).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show the sidebar' }).click();
    await eventually(() => tree(page).isVisible()).toBe(true);
    // Its edge drags it wider, and the arrow keys move it.
    const edge = page.getByRole('separator', { name: 'Sidebar width' });
    const box = (await edge.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(520, box.y + 220, { steps: 5 });
    await page.mouse.up();
    await eventually(width).toBe(520);
    await edge.focus();
    await page.keyboard.press('ArrowLeft');
    await eventually(width).toBe(500);
    // Remembered in this browser.
    await page.keyboard.press('b');
    await reload();
    await eventually(() => tree(page).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show the sidebar' }).click();
    await eventually(width).toBe(500);
    // At 800 px the diffs keep their room.
    await page.setViewportSize({ width: 800, height: 900 });
    await eventually(width).toBe(480);
    await screenshot('sidebar-800');
  });

  it('search in Cards highlights the match in the card and links to it', async () => {
    const { page, context, url } = await open('review-basic');
    const title = 'Sessions now expire after 30 idle minutes';
    await page.locator('nav[aria-label="Cards"]').getByRole('button', { name: title }).click();
    await page.getByRole('button', { name: `full: ${title}` }).click();
    const card = page.locator('main[aria-label="Selected card"]');
    await card.locator('section.inv-file[data-ref="src/auth/session.ts"] .d2h-code-line-ctn').first().waitFor();
    await page.locator('.inv-search-input').fill('idle > IDLE_MS');
    await eventually(() => text(page.locator('.inv-search-count'))).toMatch(/^1 match/);
    await page.keyboard.press('Enter');
    // Highlighted in the card, not in Raw.
    await eventually(() => card.locator('tr.inv-hit').count()).toBe(1);
    expect(await card.locator('tr.inv-hit').textContent()).toContain('idle > IDLE_MS');
    expect(await page.evaluate(() => CSS.highlights.has('inv-found'))).toBe(true);
    expect(await page.locator('main[aria-label="Selected card"]').count()).toBe(1);
    // The URL says where: a second tab opened on it lands on the same card and line.
    const hash = await page.evaluate(() => location.hash);
    expect(new URLSearchParams(hash.slice(1)).get('file')).toBe('src/auth/session.ts');
    expect(new URLSearchParams(hash.slice(1)).get('line')).toMatch(/^[+-]\d+$/);
    const other = await context.newPage();
    await other.goto(`${url.split('#')[0]}${hash}`);
    const otherCard = other.locator('main[aria-label="Selected card"]');
    await otherCard.getByRole('heading', { name: title }).waitFor();
    await eventually(() => otherCard.locator('tr.inv-hit').count()).toBe(1);
    await other.close();
  });

  it('deletes a note with one button, and brings it back with Undo', async () => {
    const { page, repo } = await open('review-basic', { cards: 'none' });
    const ref = 'src/auth/session.ts';
    const box = fileOf(page, ref).getByRole('textbox', { name: `Note on file ${ref}` });
    await box.fill('Keep the old limit as a setting.');
    await eventually(() => repo.notes()?.notes[`file:${ref}`]?.text).toBe('Keep the old limit as a setting.');
    await fileOf(page, ref)
      .getByRole('button', { name: `Delete: Note on file ${ref}` })
      .click();
    await eventually(() => repo.notes()?.notes[`file:${ref}`]).toBeUndefined();
    expect(await box.inputValue()).toBe('');
    const undo = page.locator('.inv-undo');
    expect(await text(undo.locator('span'))).toBe(`Deleted the note on file ${ref}.`);
    await undo.getByRole('button', { name: 'Undo' }).click();
    await eventually(() => repo.notes()?.notes[`file:${ref}`]?.text).toBe('Keep the old limit as a setting.');
    await eventually(() => box.inputValue()).toBe('Keep the old limit as a setting.');
    expect(await undo.count()).toBe(0);
  });
});
