/**
 * axe-core over `involut demo` in headless Chromium, light and dark: Cards (a card for each
 * drawing: code, table, schema, tree, graph, image), Raw in both diff formats, and the help
 * overlay. No serious or critical violation may be found; a failure lists each one with
 * the elements and axe's reason.
 */
import { existsSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cards } from '../../schemas/cards';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { CLI, FIXTURES, eventually } from '../helpers/browser';
import { launchBrowser } from '../helpers/find-browser';
import { startCli, type LiveServer } from '../helpers/server';

const CARDS = Cards.parse(JSON.parse(readFileSync(path.join(FIXTURES, 'demo-repo', 'cards.json'), 'utf8'))).cards;
/** The demo card that draws each kind (`code` is the diff itself). */
const BY_RENDER = {
  code: 'c_idle',
  table: 'c_limits',
  schema: 'c_sessions_table',
  tree: 'c_admin_routes',
  graph: 'c_audit_flow',
  image: 'c_doze',
} as const;

const made: string[] = [];
let demo: LiveServer | undefined;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run \`npm run build\` first.`);
  const home = mkdtempSync(path.join(os.tmpdir(), 'involut-a11y-home-'));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'involut-a11y-tmp-'));
  made.push(home, tmp);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    INVOLUT_STATE_DIR: path.join(home, 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    TMPDIR: tmp,
  });
  demo = await startCli(['demo', '--no-open', '--port', '0'], env);
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Fails with every serious or critical violation axe finds in the page as it is now. */
async function expectNoSeriousViolation(page: Page, where: string): Promise<void> {
  const violations = await seriousViolations(page);
  expect(violations.length, describeViolations(where, violations)).toBe(0);
}

async function showCard(page: Page, id: string): Promise<void> {
  const card = CARDS.find((c) => c.id === id)!;
  await page.locator('nav[aria-label="Cards"]').getByRole('button', { name: card.title }).click();
  const article = page.locator(`article[data-card-id="${id}"]`);
  await article.waitFor();
  await article
    .getByRole('group', { name: 'How much of the card to show' })
    .getByRole('button', { name: `full: ${card.title}` })
    .click();
  // A `before` question hides the drawing until it is answered.
  if (card.question?.when === 'before')
    await article
      .getByRole('region', { name: 'Question' })
      .getByRole('button', { name: card.question.options![0]! })
      .click();
}

/** Waits until a drawing has drawn what it draws lazily (graph layout, image pixels), and the diffs their highlighting. */
async function settled(page: Page, kind: keyof typeof BY_RENDER): Promise<void> {
  const section = page.locator(`section.inv-render[aria-label="${kind} drawing"]`);
  if (kind === 'graph') await section.locator('.inv-graph[data-phase="drawn"]').waitFor({ timeout: 30_000 });
  if (kind === 'image') await eventually(() => section.locator('figure.inv-frame').count()).toBe(2);
  // The card's first diff is drawn once near the screen: bring it there (a drawing can be taller than the window).
  // Asked again until drawn: the section is replaced by the drawn file once its diff arrives.
  await eventually(async () => {
    await page.evaluate(() => document.querySelector('main section.inv-file')?.scrollIntoView({ block: 'nearest' }));
    return page.locator('main .d2h-code-line-ctn.hljs').count();
  }, 20_000).toBeGreaterThan(0);
}

describe.each(['light', 'dark'] as const)('axe-core, %s theme', (colorScheme) => {
  it('finds no serious or critical violation in Cards, Raw or the help overlay', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(demo!.url);
      await page.locator('.inv-layout').waitFor();
      for (const [kind, id] of Object.entries(BY_RENDER) as Array<[keyof typeof BY_RENDER, string]>) {
        await showCard(page, id);
        await settled(page, kind);
        await expectNoSeriousViolation(page, `${colorScheme}, card ${id} (${kind})`);
      }
      await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw', exact: true }).click();
      await page.locator('nav[aria-label="Changed files"] [role="tree"]').waitFor();
      await eventually(() => page.locator('main .d2h-code-line-ctn.hljs').count()).toBeGreaterThan(0);
      await expectNoSeriousViolation(page, `${colorScheme}, Raw`);
      await page.getByRole('group', { name: 'Diff format' }).getByRole('button', { name: 'Side by side' }).click();
      await eventually(() => page.locator('main .d2h-file-side-diff .hljs').count()).toBeGreaterThan(0);
      // A pane wider than its lines takes the focus once the browser is idle (scrollableByKeyboard).
      await eventually(() =>
        page.evaluate(
          () =>
            [...document.querySelectorAll<HTMLElement>('main .d2h-file-side-diff')].filter(
              (pane) => pane.scrollWidth > pane.clientWidth && pane.tabIndex !== 0,
            ).length,
        ),
      ).toBe(0);
      await expectNoSeriousViolation(page, `${colorScheme}, Raw side by side`);
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await expectNoSeriousViolation(page, `${colorScheme}, help overlay`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
