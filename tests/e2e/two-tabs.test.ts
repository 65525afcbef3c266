/**
 * Two tabs typing into the same note at the same moment, with nothing held back, in
 * headless Chromium against the real built server: one text is saved, the other tab is
 * told and keeps its own text to choose from, and nothing is overwritten silently.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2e, eventually, fixtureCards, text, until } from '../helpers/browser';

const { open } = e2e();

const basic = fixtureCards('review-basic');
const key = 'c_signout';
const titleOf = (id: string) => String(basic.cards.find((c) => c.id === id)!.title);
const label = `Note on card ${titleOf(key)}`;
const noteBox = (page: Page) => page.getByRole('textbox', { name: label, exact: true });
const statusOf = (page: Page) => text(page.locator(`[data-note-key="${key}"] .inv-note-status`).first());

describe('two tabs on one note', () => {
  it('typed into at once: one text is saved, the other tab keeps its text and is asked to choose', async () => {
    const { page: first, repo, context, url } = await open('review-basic');
    const second = await context.newPage();
    await second.goto(url);
    await second.locator('.inv-layout').waitFor();
    const typed = new Map([
      [first, 'Typed in the first tab.'],
      [second, 'Typed in the second tab.'],
    ]);
    await Promise.all(
      [...typed].map(async ([page, words]) => {
        await noteBox(page).click();
        await noteBox(page).pressSequentially(words);
      }),
    );
    const saved = await until(
      repo.notes,
      (n) => [...typed.values()].includes(n?.notes[key]?.text ?? ''),
      'one of the two texts in notes.json',
    );
    const winnerText = saved!.notes[key]!.text;
    const [winner, loser] = typed.get(first) === winnerText ? [first, second] : [second, first];
    await eventually(() => statusOf(winner)).toBe('saved');
    await eventually(() => statusOf(loser)).toBe('not saved: changed elsewhere');
    // The losing tab still holds its own words, beside the saved ones.
    expect(await noteBox(loser).inputValue()).toBe(typed.get(loser));
    const choice = loser.locator(`[data-note-key="${key}"] .inv-note-choice`);
    expect(await text(choice.locator('.inv-note-theirs'))).toBe(winnerText);
    // Its words are not written over the saved ones until the reader says so: a note typed
    // after them in the same tab, on another card, is saved, and they still are not.
    await loser
      .locator('nav[aria-label="Cards"]')
      .getByRole('button', { name: titleOf('c_expire') })
      .click();
    await loser
      .getByRole('textbox', { name: `Note on card ${titleOf('c_expire')}`, exact: true })
      .fill('Typed later in the losing tab.');
    await until(repo.notes, (n) => n?.notes.c_expire !== undefined, 'the later note');
    await loser
      .locator('nav[aria-label="Cards"]')
      .getByRole('button', { name: titleOf(key) })
      .click();
    expect(repo.notes()!.notes[key]!.text).toBe(winnerText);
    await choice.getByRole('button', { name: 'Keep mine' }).click();
    await until(repo.notes, (n) => n?.notes[key]?.text === typed.get(loser), 'the chosen text');
    await eventually(() => statusOf(loser)).toBe('saved');
    await eventually(() => noteBox(winner).inputValue()).toBe(typed.get(loser));
    await second.close();
  });
});
