/**
 * A question the reader has not answered is never missed: the app bar counts the cards
 * whose question waits (and opens the first), the card list marks each, and a card read
 * in summary says its "after" question waits below the diff, with the way to it.
 */
import { describe, expect, it } from 'vitest';
import { e2e, eventually, fixtureCards, text, texts } from '../helpers/browser';

const { open } = e2e();
const basic = fixtureCards('review-basic');
const AFTER = 'Would you have set the limit lower?';
const cards = {
  ...basic,
  cards: basic.cards.map((card) =>
    card.id === 'c_expire'
      ? { ...card, question: { when: 'after', text: AFTER, options: ['Yes', 'No'], answer: 'No.' } }
      : card,
  ),
};
const title = (id: string) => String(cards.cards.find((c) => c.id === id)!.title);

describe('questions that wait', () => {
  it('are counted in the app bar, marked in the list and in the summary, and stop being so once answered', async () => {
    const { page, screenshot } = await open('review-basic', { cards: { text: JSON.stringify(cards) } });
    const count = page.locator('.inv-questions-waiting');
    await eventually(() => text(count)).toBe('2 questions');
    expect(await count.getAttribute('aria-label')).toBe('2 questions wait for your answer: open the first');

    const list = page.locator('nav[aria-label="Cards"]');
    const marked = () => texts(list.locator('.inv-nav-item:has(.inv-question-waits) .inv-nav-title'));
    expect((await marked()).map((t) => t.replace(/ question waits$/, '')).sort()).toEqual(
      [title('c_expire'), title('c_signout')].sort(),
    );

    await list.getByRole('button', { name: title('c_expire') }).click();
    const card = page.locator('article[data-card-id="c_expire"]');
    await card
      .getByRole('group', { name: 'How much of the card to show' })
      .getByRole('button', { name: /^summary/ })
      .click();
    const waiting = card.locator('.inv-question-waiting');
    await eventually(() => text(waiting)).toContain(AFTER);
    await screenshot('questions-waiting-summary');
    await waiting.getByRole('button', { name: 'Read the diff and answer' }).click();
    await card.getByRole('region', { name: 'Question' }).getByRole('button', { name: 'No' }).click();
    await card.getByText('The agent’s answer').waitFor();

    await eventually(() => text(count)).toBe('1 question');
    expect(await marked()).toHaveLength(1);
    await count.click();
    await page.locator('article[data-card-id="c_signout"]').waitFor();
  });
});
