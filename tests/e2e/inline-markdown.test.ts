/**
 * Inline Markdown in what an agent writes on a card (`code`, **bold**, links) is drawn, and
 * drawn safely: no backtick is shown literally, a link opens only an http(s) target, and
 * anything else (a `javascript:` link, raw HTML) stays text.
 */
import { describe, expect, it } from 'vitest';
import { e2e, fixtureCards, text } from '../helpers/browser';

const { open } = e2e();
const basic = fixtureCards('review-basic');
const WHY =
  'Uses `IDLE_MS` so **every** route sees the same clock; see [the RFC](https://example.com/rfc) ' +
  'and not [this](javascript:alert(1)) or <img src=x onerror=alert(2)>.';
const cards = {
  ...basic,
  cards: basic.cards.map((card) =>
    card.id === 'c_expire' ? { ...card, title: 'Sessions use `IDLE_MS`', why: WHY } : card,
  ),
};

describe('inline Markdown on cards', () => {
  it('draws code, bold and safe links, and leaves everything else as text', async () => {
    const { page, dialogs, screenshot } = await open('review-basic', { cards: { text: JSON.stringify(cards) } });
    await page.locator('nav[aria-label="Cards"]').getByRole('button', { name: 'Sessions use IDLE_MS' }).click();
    const card = page.locator('article[data-card-id="c_expire"]');
    const why = card.locator('.inv-field').filter({ hasText: 'Why' }).locator('dd');
    await why.waitFor();
    expect(await text(card.locator('h2'))).toBe('Sessions use IDLE_MS');
    expect(await text(card.locator('h2 code'))).toBe('IDLE_MS');
    expect(await text(why.locator('code'))).toBe('IDLE_MS');
    expect(await text(why.locator('strong'))).toBe('every');
    const links = why.locator('a');
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute('href')).toBe('https://example.com/rfc');
    expect(await links.getAttribute('rel')).toBe('noopener noreferrer');
    const shown = await text(why);
    expect(shown).not.toContain('`');
    expect(shown).not.toContain('**');
    expect(shown).toContain('[this](javascript:alert(1))');
    expect(shown).toContain('<img src=x onerror=alert(2)>');
    expect(await why.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await screenshot('inline-markdown');
  });
});
