/**
 * A draft survives its server (issue finding 8): a server started again on another port
 * (another origin, whose page cannot read the first one's storage) shows and sends the
 * draft typed before the first one stopped, and a new URL with a new token pasted into the
 * same tab is taken without a reload. The built CLI, a real repository, headless Chromium.
 */
import net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRepo, eventually, fixtureCards, until } from '../helpers/browser';
import { launchBrowser } from '../helpers/find-browser';
import { childEnv, startLive, type LiveServer } from '../helpers/server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const basic = fixtureCards('review-basic');
const title = String(basic.cards.find((c) => c.id === 'c_signout')!.title);
const box = (page: Page) => page.getByRole('textbox', { name: `Note on card ${title}`, exact: true });
/** Resolves once the note says it could not be saved (the draft is kept in the tab). */
const refused = (page: Page) =>
  page.locator('[data-note-key="c_signout"] .inv-note-status', { hasText: /^not saved:/ }).waitFor();

/** A fixture repository with its round and cards, and one state folder for every server of the test. */
function repository() {
  const repo = buildRepo('review-basic');
  repo.rounds();
  repo.writeCards(basic);
  return { repo, env: childEnv() };
}

async function viewer(url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  await page.locator('.inv-layout').waitFor();
  return page;
}

describe('a draft and its server', () => {
  it('is shown and sent by a server started again on another port', async () => {
    const { repo, env } = repository();
    const first = await startLive(repo.dir, env);
    const page = await viewer(first.url);
    // Note writes never reach this server: the draft stays a draft.
    await page.route('**/api/notes/**', (route) => void route.abort());
    await box(page).click();
    await box(page).pressSequentially('Typed before the server stopped.');
    await refused(page);
    await first.stop();
    await page.context().close();

    // The port is taken by something else now, so the next server is another origin.
    const blocker = net.createServer().listen(Number(new URL(first.base).port), '127.0.0.1');
    let second: LiveServer | null = null;
    try {
      second = await startLive(repo.dir, env);
      expect(second.base).not.toBe(first.base);
      const again = await viewer(second.url);
      await eventually(() => box(again).inputValue()).toBe('Typed before the server stopped.');
      const notes = await until(
        repo.notes,
        (n) => n?.notes.c_signout?.text === 'Typed before the server stopped.',
        'the draft written as a note',
      );
      expect(notes!.notes.c_signout!.title).toBe(title);
      await again.context().close();
    } finally {
      blocker.close();
      await second?.stop();
    }
  });

  it('goes out with the new token pasted into the same tab, without a reload', async () => {
    const { repo, env } = repository();
    const first = await startLive(repo.dir, env);
    const port = new URL(first.base).port;
    const page = await viewer(first.url);
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await first.stop();
    // Typed while no server runs: refused, kept in the tab.
    await box(page).click();
    await box(page).pressSequentially('Typed while it was down.');
    await refused(page);
    const second = await startLive(repo.dir, env, ['--port', port]);
    try {
      expect(second.token).not.toBe(first.token);
      await page.evaluate((url) => window.history.replaceState(null, '', url), first.url);
      await page.evaluate((hash) => (window.location.hash = hash), new URL(second.url).hash);
      await until(
        repo.notes,
        (n) => n?.notes.c_signout?.text === 'Typed while it was down.',
        'the draft sent with the new token',
      );
      expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await page.context().close();
    } finally {
      await second.stop();
    }
  });
});
