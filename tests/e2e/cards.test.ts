/**
 * Reading by cards, in headless Chromium against the real server: what the reader sees
 * of the agent's cards (groups, invalid cards, null vs empty, questions, marks), that
 * agent-written text never runs, and the keyboard.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, eventually, fixtureCards, newSideLine, text, texts } from '../helpers/browser';

const { open } = e2e();

const card = (page: Page, title: string) => page.locator(`article[aria-label=${JSON.stringify(`Card ${title}`)}]`);
const nav = (page: Page) => page.locator('nav[aria-label="Cards"]');
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
/** The text of a card's field (`Why`, `Skipped`, …) as the reader sees it, and how it is drawn. */
async function field(page: Page, title: string, label: string): Promise<{ text: string; kind: string }> {
  const item = card(page, title)
    .locator('.inv-field')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
  return { text: await text(item.locator('dd')), kind: (await item.getAttribute('class')) ?? '' };
}

const basic = fixtureCards('review-basic');
const titleOf = (id: string) => String(basic.cards.find((c) => c.id === id)!.title);

describe('reading by cards', () => {
  it('groups the cards by intent with their titles and minutes, the request on top, and the coverage line', async () => {
    const { page, screenshot } = await open('review-basic');
    const sidebar = nav(page);
    await eventually(() => text(sidebar.locator('.inv-request'))).toContain(
      'make sessions expire after half an hour of inactivity',
    );
    // The request comes first in the sidebar, above the groups.
    expect(await sidebar.locator(':scope > *').first().getAttribute('class')).toContain('inv-request');
    expect(await text(sidebar.locator('.inv-coverage'))).toBe('4 of 6 changed files are explained by cards');

    const groups = await sidebar.locator('section.inv-group').evaluateAll((sections) =>
      sections.map((s) => ({
        intent: s.querySelector('h3')!.textContent!.trim(),
        items: [...s.querySelectorAll('li .inv-nav-item')].map((b) => [
          b.querySelector('.inv-nav-title')?.textContent?.trim(),
          b.querySelector('.inv-nav-minutes')?.textContent?.trim() ?? null,
        ]),
      })),
    );
    expect(groups.slice(0, 4)).toEqual([
      // Its before-question is not answered yet: the list says a question waits.
      { intent: 'risk', items: [[`${titleOf('c_signout')} question waits`, '5′']] },
      { intent: 'behavior', items: [[titleOf('c_expire'), '3′']] },
      { intent: 'structure', items: [[titleOf('c_rename'), '1′']] },
      { intent: 'cleanup', items: [[titleOf('c_docs'), '1′']] },
    ]);
    // The files no card claims are listed under the cards.
    const unclaimed = sidebar.locator('section.inv-group').filter({ hasText: 'files no card claims' });
    await eventually(() => texts(unclaimed.locator('.inv-unclaimed-list li'))).toEqual([
      'README.md',
      'scripts/seed.ts',
    ]);

    // The first card of the first group is open, with its title and minutes.
    const first = card(page, titleOf('c_signout'));
    await eventually(() => text(first.locator('h2'))).toBe(titleOf('c_signout'));
    await eventually(() => text(first.locator('.inv-minutes'))).toBe('5 min');
    await eventually(() => text(first.locator('.inv-intent'))).toBe('risk');
    await screenshot('cards-grouped');
  });

  it('shows an invalid card as invalid, with its issues and raw JSON, while every other card renders', async () => {
    const { page, screenshot } = await open('review-basic');
    await eventually(() => text(page.locator('.inv-banner'))).toContain('1 card does not match the contract');
    await nav(page).getByRole('button', { name: '“c_broken”' }).click();
    const invalid = page.locator('article[aria-label="Invalid card “c_broken”"]');
    await invalid.waitFor();
    await eventually(() => text(invalid.locator('h2'))).toContain('does not match the contract');
    const issues = await invalid.locator('.inv-issues li').allInnerTexts();
    expect(issues.some((issue) => issue.startsWith('intent'))).toBe(true);
    expect(issues.some((issue) => issue.startsWith('minutes'))).toBe(true);
    const raw = JSON.parse(await text(invalid.locator('pre.inv-raw-json')));
    expect(raw).toEqual(basic.cards.find((c) => c.id === 'c_broken'));
    await screenshot('cards-invalid');

    for (const id of ['c_signout', 'c_expire', 'c_rename', 'c_docs']) {
      await nav(page)
        .getByRole('button', { name: titleOf(id) })
        .click();
      await eventually(() => text(card(page, titleOf(id)).locator('h2'))).toBe(titleOf(id));
    }
  });

  it('draws null as "not stated" and [] or "" as "looked, found nothing", visibly apart', async () => {
    const { page, screenshot } = await open('review-basic');
    const expire = titleOf('c_expire');
    await nav(page).getByRole('button', { name: expire }).click();
    await card(page, expire).waitFor();
    // c_expire: skipped "", unsure null, unrequested null, might_break [].
    expect(await field(page, expire, 'Skipped')).toEqual({
      text: 'looked, found nothing',
      kind: expect.stringContaining('inv-nothing'),
    });
    expect(await field(page, expire, 'Might break')).toEqual({
      text: 'looked, found nothing',
      kind: expect.stringContaining('inv-nothing'),
    });
    expect(await field(page, expire, 'Unsure')).toEqual({
      text: 'not stated',
      kind: expect.stringContaining('inv-not-stated'),
    });
    expect(await field(page, expire, 'Unrequested')).toEqual({
      text: 'not stated',
      kind: expect.stringContaining('inv-not-stated'),
    });
    await screenshot('cards-null-vs-empty');

    // The two are drawn differently, not only worded differently.
    const style = (kind: string) =>
      card(page, expire)
        .locator(`.${kind} dd`)
        .first()
        .evaluate((dd) => {
          const s = getComputedStyle(dd);
          return `${s.color} ${s.fontStyle} ${getComputedStyle(dd, '::before').content}`;
        });
    expect(await style('inv-nothing')).not.toBe(await style('inv-not-stated'));

    // c_rename (structure, opens as a summary): skipped null, unrequested [], might_break null.
    const rename = titleOf('c_rename');
    await nav(page).getByRole('button', { name: rename }).click();
    await card(page, rename).waitFor();
    expect((await field(page, rename, 'Skipped')).text).toBe('not stated');
    expect((await field(page, rename, 'Unrequested')).text).toBe('looked, found nothing');
    expect((await field(page, rename, 'Might break')).text).toBe('not stated');
  });

  it('hides a card’s diff behind a before-question until the reader picks, then shows the answer beside the pick, also after a reload', async () => {
    const { page, screenshot, reload } = await open('review-basic');
    const signout = basic.cards.find((c) => c.id === 'c_signout') as { title: string; question: { answer: string } };
    const article = card(page, signout.title);
    const question = article.getByRole('region', { name: 'Question' });
    await eventually(() => text(question)).toContain('What do you think this might have broken?');
    await eventually(() => article.locator('section.inv-file').count()).toBe(0);
    expect(await text(article)).not.toContain(signout.question.answer);
    expect(await text(article)).not.toContain('requireSession(cookie');
    await screenshot('question-before');
    // The question hides the diff on the card only: Raw still has the file.
    await page.keyboard.press('r');
    await fileOf(page, 'src/middleware/auth.ts').locator('.d2h-code-line-ctn').first().waitFor();
    await page.keyboard.press('r');

    await question.getByRole('button', { name: 'Long-running exports' }).click();
    await fileOf(page, 'src/middleware/auth.ts').locator('.d2h-code-line-ctn').first().waitFor();
    const said = question.locator('.inv-answer-pair > div');
    await eventually(() => text(said.nth(0))).toContain('You said');
    await eventually(() => text(said.nth(0))).toContain('Long-running exports');
    await eventually(() => text(said.nth(1))).toContain('The agent’s answer');
    await eventually(() => text(said.nth(1))).toContain(signout.question.answer);
    await eventually(() => text(article)).toContain('signed out: the session expired or never existed');
    await screenshot('question-answered');

    await reload();
    await eventually(() => text(card(page, signout.title).locator('.inv-answer-pair'))).toContain(
      'Long-running exports',
    );
    await eventually(() =>
      card(page, signout.title).getByRole('button', { name: 'Long-running exports' }).count(),
    ).toBe(0);
    await fileOf(page, 'src/middleware/auth.ts').locator('.d2h-code-line-ctn').first().waitFor();
  });

  it('keeps a mark within its diff pane in an 800 px window, unified and side by side', async () => {
    const { page } = await open('review-basic');
    await page.setViewportSize({ width: 800, height: 900 });
    const expire = basic.cards.find((c) => c.id === 'c_expire') as { title: string };
    await nav(page).getByRole('button', { name: expire.title }).click();
    const file = fileOf(page, 'src/auth/session.ts');
    const mark = file.locator('tr.inv-extra-row .inv-mark').filter({ visible: true }).first();
    // The mark's text is read without scrolling sideways: it ends where its pane ends, or before.
    const overhang = () =>
      mark.evaluate((m) => {
        const pane = m.closest('.d2h-file-diff, .d2h-file-side-diff')!.getBoundingClientRect();
        const box = m.getBoundingClientRect();
        return Math.max(0, box.right - pane.right, pane.left - box.left);
      });
    await mark.waitFor();
    expect(await overhang()).toBeLessThanOrEqual(1);
    await page.getByRole('button', { name: 'Side by side' }).click();
    await eventually(() => file.locator('.d2h-file-side-diff').count()).toBe(2);
    await mark.waitFor();
    expect(await overhang()).toBeLessThanOrEqual(1);
  });

  it('pins a matched mark in the row right under its line, and shows an unmatched one at the top of the file quoting what it looked for', async () => {
    const { page, screenshot } = await open('review-basic');
    const expire = basic.cards.find((c) => c.id === 'c_expire') as {
      title: string;
      marks: Array<{ at: string; text: string }>;
    };
    const [matched, unmatched] = expire.marks as [{ at: string; text: string }, { at: string; text: string }];
    await nav(page).getByRole('button', { name: expire.title }).click();
    const file = fileOf(page, 'src/auth/session.ts');
    await eventually(() => text(file.locator('tr.inv-extra-row .inv-mark'))).toContain(matched.text);

    const placement = await file.evaluate((section, at) => {
      const rows = [...section.querySelectorAll<HTMLTableRowElement>('tbody.d2h-diff-tbody > tr')];
      const line = rows.find(
        (r) =>
          !r.classList.contains('inv-extra-row') && r.querySelector('.d2h-code-line-ctn')?.textContent?.includes(at),
      );
      const next = line?.nextElementSibling as HTMLElement | null | undefined;
      return {
        line: line?.querySelector('.d2h-code-line-ctn')?.textContent ?? null,
        lineNumber: line?.querySelector('.line-num2')?.textContent?.trim() ?? null,
        next: next ? { row: next.classList.contains('inv-extra-row'), text: next.textContent } : null,
      };
    }, matched.at);
    expect(placement.line).toContain(matched.at);
    expect(placement.next?.row).toBe(true);
    expect(placement.next?.text).toContain(matched.text);
    // The line the mark sits under is the one the material's diff has `at` on.
    expect(Number(placement.lineNumber)).toBe(newSideLine(await materialDiff(page), matched.at).number);

    const top = file.locator('.inv-mark-unmatched');
    await eventually(() => text(top)).toContain(`no line contains “${unmatched.at}”`);
    await eventually(() => text(top)).toContain(unmatched.text);
    const [topBox, diffBox] = [await top.boundingBox(), await file.locator('.inv-diff').boundingBox()];
    expect(topBox!.y + topBox!.height).toBeLessThanOrEqual(diffBox!.y + 1);
    await screenshot('marks');
  });

  it('shows hostile text in a title, why, mark, request, file name and diff line literally, and runs none of it', async () => {
    const { page, screenshot, dialogs } = await open('review-hostile');
    const cards = fixtureCards('review-hostile');
    const hostile = cards.cards[0] as {
      title: string;
      why: string;
      skipped: string;
      might_break: string[];
      marks: Array<{ text: string }>;
    };
    const article = card(page, hostile.title);
    await eventually(() => text(article.locator('h2'))).toBe(hostile.title);
    await eventually(() => text(nav(page).locator('.inv-request p'))).toBe(cards.request!);
    expect((await field(page, hostile.title, 'Why')).text).toBe(hostile.why);
    expect((await field(page, hostile.title, 'Skipped')).text).toBe(hostile.skipped);
    expect((await field(page, hostile.title, 'Might break')).text).toBe(hostile.might_break[0]);
    const file = fileOf(page, 'src/page.html');
    await eventually(() => text(file.locator('tr.inv-extra-row .inv-mark-text'))).toBe(hostile.marks[0]!.text);
    const lines = file.locator('.d2h-code-line-ctn');
    await eventually(() => lines.filter({ hasText: '<img src=x onerror=window.__pwned=1>' }).count()).toBe(1);
    await eventually(() => lines.filter({ hasText: '<script>window.__pwned=1</script>' }).count()).toBe(1);
    // Highlighting rewrites the lines' markup when the browser is idle: wait for it, then look again.
    await file.locator('.d2h-code-line-ctn .hljs-tag').first().waitFor({ state: 'attached' });
    await eventually(() => lines.filter({ hasText: '<img src=x onerror=window.__pwned=1>' }).count()).toBe(1);
    await eventually(() => texts(nav(page).locator('.inv-unclaimed-list li'))).toEqual([
      'notes/<img src=x onerror=window.__pwned=1>.md',
    ]);
    await screenshot('hostile-cards');

    await page.keyboard.press('r');
    const named = fileOf(page, 'notes/<img src=x onerror=window.__pwned=1>.md');
    await eventually(() => text(named.locator('.inv-file-path'))).toBe('notes/<img src=x onerror=window.__pwned=1>.md');
    await eventually(() => text(page.locator('nav[aria-label="Changed files"]'))).toContain(
      '<img src=x onerror=window.__pwned=1>.md',
    );
    await fileOf(page, 'src/page.html').locator('.d2h-code-line-ctn .hljs-tag').first().waitFor({ state: 'attached' });
    await screenshot('hostile-raw');

    const ran = await page.evaluate(() => ({
      pwned: (window as { __pwned?: unknown }).__pwned,
      images: document.querySelectorAll('img').length,
      iframes: document.querySelectorAll('iframe').length,
      inlineScripts: [...document.querySelectorAll('script')].filter((s) => s.textContent?.includes('__pwned')).length,
      handlers: [...document.querySelectorAll('*')].filter((e) =>
        [...e.attributes].some((a) => a.name.startsWith('on')),
      ).length,
    }));
    expect(ran).toEqual({ pwned: undefined, images: 0, iframes: 0, inlineScripts: 0, handlers: 0 });
    expect(dialogs).toEqual([]);
  });

  it('answers the keyboard: j and k move between cards, r toggles Raw, ? opens the help', async () => {
    const { page, screenshot } = await open('review-basic');
    const current = () => page.locator('main.inv-main > article').first().getAttribute('aria-label');
    expect(await current()).toBe(`Card ${titleOf('c_signout')}`);
    await page.keyboard.press('j');
    await eventually(current).toBe(`Card ${titleOf('c_expire')}`);
    await page.keyboard.press('j');
    await eventually(current).toBe(`Card ${titleOf('c_rename')}`);
    await page.keyboard.press('k');
    await eventually(current).toBe(`Card ${titleOf('c_expire')}`);
    await eventually(() => text(nav(page).locator('[aria-current="true"]'))).toContain(titleOf('c_expire'));

    await page.keyboard.press('r');
    await page.locator('main[aria-label="Every changed file"]').waitFor();
    await eventually(() =>
      page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await page.keyboard.press('r');
    await page.locator('main[aria-label="Selected card"]').waitFor();
    await eventually(current).toBe(`Card ${titleOf('c_expire')}`);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await eventually(() => text(help)).toContain('toggle Raw mode');
    await screenshot('keyboard-help');
    await page.keyboard.press('Escape');
    await eventually(() => help.count()).toBe(0);
  });
});

/** The material's diff of `src/auth/session.ts`, read from the page's own server (`/api/round`, then `/api/diffs`). */
async function materialDiff(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const token = sessionStorage.getItem('involut:token') ?? '';
    const get = async (url: string) => (await fetch(url, { headers: { 'X-Involut-Token': token } })).json();
    const round = await get('/api/round');
    const at = round.data.material.findIndex((e: { ref: string }) => e.ref === 'src/auth/session.ts');
    return (await get(`/api/diffs?v=${round.version}&at=${at}`)).diffs[0] as string;
  });
}
