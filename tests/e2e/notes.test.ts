/**
 * Talking back, and the page staying live, in headless Chromium against the real
 * server: notes typed in the page land in notes.json and come back after a reload,
 * line notes carry their line, and cards the agent writes while you read appear in
 * place without losing what you were typing.
 */
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { e2e, eventually, fixtureCards, newSideLine, text, texts, until } from '../helpers/browser';

const { open } = e2e();

const basic = fixtureCards('review-basic');
const titleOf = (id: string) => String(basic.cards.find((c) => c.id === id)!.title);
const nav = (page: Page) => page.locator('nav[aria-label="Cards"]');
const noteBox = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);

describe('notes', () => {
  it('takes a note on a folded card', async () => {
    const { page, repo } = await open('review-basic');
    const title = titleOf('c_signout');
    const card = page.locator('article[data-card-id="c_signout"]');
    await nav(page).getByRole('button', { name: title }).click();
    await card
      .getByRole('group', { name: 'How much of the card to show' })
      .getByRole('button', { name: `folded: ${title}` })
      .click();
    await eventually(() => card.locator('.inv-fields').count()).toBe(0);
    await noteBox(page, `Note on card ${title}`).pressSequentially('Later.');
    await until(repo.notes, (n) => n?.notes.c_signout?.text === 'Later.', 'the folded card’s note in notes.json');
  });

  it('keeps the kind chosen before the first key, and still shows it once the note is resolved', async () => {
    const { page, repo } = await open('review-basic');
    const title = titleOf('c_signout');
    const note = page.locator('[data-note-key="c_signout"]');
    await note.getByRole('combobox', { name: `Kind of note on card ${title}` }).selectOption('question');
    await noteBox(page, `Note on card ${title}`).pressSequentially('Why here?');
    const saved = await until(repo.notes, (n) => n?.notes.c_signout?.text === 'Why here?', 'the note in notes.json');
    expect(saved!.notes.c_signout).toMatchObject({ kind: 'question' });
    await eventually(() => text(note.locator('.inv-note-status'))).toBe('saved');
    await note.getByRole('button', { name: 'Resolve' }).click();
    await eventually(() => note.getAttribute('data-note-mode')).toBe('resolved');
    expect(await text(note.locator('.inv-note-kind-read'))).toBe('question');
  });

  it('shows the notes a card answers by the words it answered, and names a key no note has as unknown', async () => {
    const cards = {
      ...basic,
      cards: basic.cards.map((c, i) => (i === 0 ? { ...c, addresses: ['file:src/middleware/auth.ts', 'c_never'] } : c)),
    };
    const { page } = await open('review-basic', {
      cards: { text: JSON.stringify(cards) },
      prepare: (repo) =>
        repo.write(
          '.review/notes.json',
          JSON.stringify({
            contract: 1,
            notes: {
              'file:src/middleware/auth.ts': {
                title: 'src/middleware/auth.ts',
                refs: ['src/middleware/auth.ts'],
                text: 'And log who signed out.',
                at: '2000-01-02T00:00:00Z',
                // A follow-up since: the card answered the earlier text, and quotes that.
                earlier: [
                  {
                    text: 'Log the sign-out.',
                    at: '2000-01-01T00:00:00Z',
                    answeredBy: [{ id: String(basic.cards[0]!.id), title: String(basic.cards[0]!.title) }],
                  },
                ],
              },
            },
          }),
        ),
    });
    await nav(page)
      .getByRole('button', { name: String(basic.cards[0]!.title) })
      .click();
    const answers = page.locator(`article[data-card-id="${String(basic.cards[0]!.id)}"] .inv-addresses li`);
    await eventually(() => texts(answers)).toEqual([
      expect.stringContaining('Log the sign-out.'),
      'an unknown note: no note in notes.json has the key c_never',
    ]);
    expect(await text(answers.first())).not.toContain('who signed out');
  });

  it('saves a note typed on a card to notes.json, shows it again after a reload, and deletes it when cleared', async () => {
    const { page, repo, reload, screenshot } = await open('review-basic');
    const title = titleOf('c_signout');
    const box = noteBox(page, `Note on card ${title}`);
    const typed = 'Handle the mobile app, don’t document it.';
    await box.click();
    await box.pressSequentially(typed);
    const saved = await until(repo.notes, (n) => n?.notes.c_signout?.text === typed, 'the card note in notes.json');
    expect(saved!.notes.c_signout).toMatchObject({ title, refs: ['src/middleware/auth.ts'], text: typed });
    await eventually(() => text(page.locator('[data-note-key="c_signout"] .inv-note-status'))).toBe('saved');
    await screenshot('notes-card-saved');

    await reload();
    expect(await noteBox(page, `Note on card ${title}`).inputValue()).toBe(typed);

    await noteBox(page, `Note on card ${title}`).fill('');
    await until(repo.notes, (n) => n !== null && !('c_signout' in n.notes), 'the card note gone from notes.json');
    await reload();
    expect(await noteBox(page, `Note on card ${title}`).inputValue()).toBe('');
  });

  it('shows a note typed in one tab in a second open tab, without a reload', async () => {
    const { page, repo, context, url } = await open('review-basic');
    const second = await context.newPage();
    await second.goto(url);
    await second.locator('.inv-layout').waitFor();
    const title = titleOf('c_signout');
    await noteBox(page, `Note on card ${title}`).pressSequentially('Seen from the other tab.');
    await until(repo.notes, (n) => n?.notes.c_signout?.text === 'Seen from the other tab.', 'the note in notes.json');
    await eventually(() => noteBox(second, `Note on card ${title}`).inputValue()).toBe('Seen from the other tab.');
    // The tab that typed it never re-reads its own echo over what the reader is typing.
    expect(await noteBox(page, `Note on card ${title}`).inputValue()).toBe('Seen from the other tab.');
    await second.close();
  });

  it('keeps a note typed just before a reload, sends it after, and keeps showing it when an older read of notes.json answers late', async () => {
    const { page, repo, reload, screenshot } = await open('review-basic', { cards: 'none' });
    const box = noteBox(page, 'Note on file scripts/seed.ts');
    await box.fill('Move this under tools/.');
    // The page's first read of notes.json after the reload is answered as the server had
    // it then (without the note), but only after the draft has been sent and confirmed.
    const late: { answered?: Promise<void>; read?: Promise<unknown> } = {};
    await page.route('**/api/notes', async (route) => {
      if (late.answered) return route.continue();
      late.answered = (async () => {
        const response = await route.fetch();
        await until(repo.notes, (n) => n?.notes['file:scripts/seed.ts'] !== undefined, 'the file note in notes.json');
        await page.locator('[data-note-key="file:scripts/seed.ts"] .inv-note-status.inv-saved').waitFor();
        late.read = page.waitForEvent('requestfinished', (request) => request === route.request());
        await route.fulfill({ response });
      })();
      await late.answered;
    });
    // Reload within the save pause: the draft is only in the browser's storage.
    await reload();
    expect(await noteBox(page, 'Note on file scripts/seed.ts').inputValue()).toBe('Move this under tools/.');
    const notes = await until(
      repo.notes,
      (n) => n?.notes['file:scripts/seed.ts'] !== undefined,
      'the file note in notes.json',
    );
    expect(notes!.notes['file:scripts/seed.ts']).toMatchObject({
      title: 'scripts/seed.ts',
      refs: ['scripts/seed.ts'],
      text: 'Move this under tools/.',
    });
    // The late answer read by the page, and a frame drawn since.
    await late.answered;
    await late.read;
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    expect(await noteBox(page, 'Note on file scripts/seed.ts').inputValue()).toBe('Move this under tools/.');
    expect(await text(page.locator('[data-note-key="file:scripts/seed.ts"] .inv-note-status'))).toBe('saved');
    await screenshot('notes-file-after-reload');
  });

  it('saves a line note, opened by clicking a line number, under line:<ref>:+<n> with the diff line as its quote', async () => {
    const { page, repo, screenshot } = await open('review-basic');
    await nav(page)
      .getByRole('button', { name: titleOf('c_expire') })
      .click();
    const ref = 'src/auth/session.ts';
    const diff = repo.material().material.find((e) => e.ref === ref)!.diff!;
    const { text: line, number } = newSideLine(diff, 'const idle = now - session.lastSeen;');
    expect(line).toBe('+  const idle = now - session.lastSeen;');

    const numberCell = fileOf(page, ref)
      .locator('tbody.d2h-diff-tbody > tr')
      .filter({ has: page.locator('.line-num2', { hasText: new RegExp(`^\\s*${number}\\s*$`) }) })
      .locator('.d2h-code-linenumber');
    await numberCell.click();
    const box = noteBox(page, `Note on ${ref} line +${number}`);
    await eventually(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Why not keep lastSeen in the store?');
    const key = `line:${ref}:+${number}`;
    const notes = await until(
      repo.notes,
      (n) => n?.notes[key]?.text === 'Why not keep lastSeen in the store?',
      'the line note in notes.json',
    );
    expect(notes!.notes[key]).toMatchObject({ quote: line, refs: [ref] });
    // The box sits in the row right under the line it is about.
    const under = await numberCell.evaluate((cell) =>
      cell.closest('tr')!.nextElementSibling?.querySelector('textarea')?.getAttribute('aria-label'),
    );
    expect(under).toBe(`Note on ${ref} line +${number}`);
    await screenshot('notes-line');
  });
});

describe('live', () => {
  it('shows a card appended to cards.json without a reload, keeping an unsent draft in another note box', async () => {
    const { page, repo, screenshot } = await open('review-basic');
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    // Hold every note write, so the draft is still unsent while the cards change.
    const held: Route[] = [];
    await page.route('**/api/notes/**', (route) => void held.push(route));
    const title = titleOf('c_signout');
    const draft = 'Half-typed: what about the export jo';
    await noteBox(page, `Note on card ${title}`).click();
    await page.keyboard.type(draft);
    await eventually(() => held.length).toBeGreaterThan(0);

    const appended = fixtureCards('review-basic', 'appended-card.json') as unknown as Record<string, unknown>;
    repo.writeCards({ ...basic, cards: [...basic.cards, appended] });
    const link = nav(page).getByRole('button', { name: String(appended.title) });
    await link.waitFor();
    await eventually(() => text(nav(page).locator('.inv-coverage'))).toBe(
      '5 of 6 changed files are explained by cards',
    );
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await noteBox(page, `Note on card ${title}`).inputValue()).toBe(draft);
    expect(repo.notes()?.notes.c_signout).toBeUndefined();
    await screenshot('live-appended');

    for (const route of held.splice(0)) await route.continue();
    await page.unroute('**/api/notes/**');
    await until(repo.notes, (n) => n?.notes.c_signout?.text === draft, 'the held draft in notes.json');
    await link.click();
    await eventually(() => text(page.locator('main.inv-main > article h2'))).toBe(String(appended.title));
  });

  it('keeps the last good cards on screen, with a banner, when cards.json is rewritten as invalid JSON', async () => {
    const { page, repo, screenshot } = await open('review-basic');
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    repo.writeCards('{ "contract": 1, "cards": [ { "id": "c_new", "title": "Half writ');
    await eventually(() => texts(page.locator('.inv-banner'))).toContainEqual(
      expect.stringMatching(/^cards\.json does not parse.*Showing the last good cards\.$/),
    );
    expect(await page.locator('main[aria-label="Selected card"] article h2').first().textContent()).toBe(
      titleOf('c_signout'),
    );
    const shown = await texts(nav(page).locator('.inv-nav-title'));
    // A title may carry a mark after it (a question that waits).
    for (const id of ['c_signout', 'c_expire', 'c_rename', 'c_docs'])
      expect(shown.some((title) => title.startsWith(titleOf(id)))).toBe(true);
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await screenshot('live-invalid-json');

    // Once the agent finishes the write, the banner goes and the new cards show.
    repo.writeCards({ ...basic, cards: basic.cards.filter((c) => c.id !== 'c_broken') });
    await eventually(() => texts(page.locator('.inv-banner'))).toEqual([]);
  });
});
