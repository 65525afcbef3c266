/**
 * `involut demo` as a first-time user meets it: the real built CLI builds its repository,
 * captures the round, writes its cards and serves them; headless Chromium opens the URL it
 * prints first. The page must show every intent group, every render kind, the files no
 * card claims, and no page error; screenshots of the overview and of each drawing, light
 * and dark, go to tests/e2e/screenshots/demo-*.png. SIGTERM must remove the demo folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Cards } from '../../schemas/cards';
import { Material } from '../../schemas/material';
import { CLI, FIXTURES, SCREENSHOTS, eventually } from '../helpers/browser';
import { launchBrowser } from '../helpers/find-browser';
import { startCli, type LiveServer } from '../helpers/server';

const CARDS = Cards.parse(JSON.parse(readFileSync(path.join(FIXTURES, 'demo-repo', 'cards.json'), 'utf8')));
const card = (id: string) => CARDS.cards.find((c) => c.id === id)!;
/** The card that draws each render kind (`code`: the diff itself, no drawing section). */
const BY_RENDER = {
  code: 'c_idle',
  table: 'c_limits',
  schema: 'c_sessions_table',
  tree: 'c_admin_routes',
  graph: 'c_audit_flow',
  image: 'c_doze',
} as const;
const INTENTS = ['risk', 'behavior', 'structure', 'cleanup', 'assets'];
const UNCLAIMED = 'scratch/expire-now.ts';

const made: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};

let demo: LiveServer | undefined;
let url = '';
let tmpdir = '';
let browser: Browser;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run \`npm run build\` first.`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The demo's repository goes into TMPDIR: a folder of this test's, so its removal can be checked.
  tmpdir = temp('involut-demo-e2e-tmp-');
  const home = temp('involut-demo-e2e-home-');
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    INVOLUT_STATE_DIR: path.join(home, 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    TMPDIR: tmpdir,
  });
  demo = await startCli(['demo', '--no-open', '--port', '0'], env);
  url = demo.url;
  browser = await launchBrowser();
}, 90_000);

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => {})));
  expect(errors.splice(0), 'uncaught errors in the page').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) => errors.push(`${colorScheme}: ${error.name}: ${error.message}`));
  page.on('dialog', (dialog) => {
    errors.push(`${colorScheme}: a dialog opened: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  await page.goto(url);
  await page.locator('.inv-layout').waitFor({ state: 'visible' });
  return page;
}

const sidebar = (page: Page) => page.locator('nav[aria-label="Cards"]');
const article = (page: Page, id: string) => page.locator(`article[data-card-id="${id}"]`);

/** Selects a card in the sidebar and sets how much of it shows. */
async function select(page: Page, id: string, detail?: 'summary' | 'full'): Promise<void> {
  await sidebar(page)
    .getByRole('button', { name: card(id).title })
    .click();
  await article(page, id).waitFor();
  if (detail)
    await article(page, id)
      .getByRole('group', { name: 'How much of the card to show' })
      .getByRole('button', { name: detail })
      .click();
}

/** Answers the schema card's `before` question, which hides its drawing and diff until then. */
async function answerBefore(page: Page): Promise<void> {
  const question = article(page, 'c_sessions_table').getByRole('region', { name: 'Question' });
  await question.getByRole('button', { name: card('c_sessions_table').question!.options![1]! }).click();
  await question.getByText('The agent’s answer').waitFor();
}

/** Waits until a drawing has finished drawing what it draws lazily (graph layout, image pixels). */
async function drawn(page: Page, kind: keyof typeof BY_RENDER): Promise<void> {
  const section = page.locator(`section.inv-render[aria-label="${kind} drawing"]`);
  if (kind === 'graph') await section.locator('.inv-graph[data-phase="drawn"]').waitFor({ timeout: 30_000 });
  if (kind === 'image') await eventually(() => section.locator('figure.inv-frame').count()).toBe(2);
}

/**
 * A shot of one element as it reads on the page. The window is made tall enough to hold it
 * unscrolled, since a scrolled page draws the sticky header over the element's top (and the
 * viewer's CSP refuses the style Playwright would inject to move it).
 */
async function shoot(element: Locator, name: string): Promise<void> {
  const page = element.page();
  const size = page.viewportSize()!;
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await element.boundingBox())!;
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, Math.ceil(box.y + box.height + 24)) });
  await element.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize(size);
}

describe('involut demo', () => {
  it('prints the viewer URL first, then what it built', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+$/);
    await eventually(demo!.stderr).toContain('Serving the review of');
    const stderr = demo!.stderr();
    expect(stderr).toContain('Involut demo: Dungeon Dash');
    expect(stderr).toMatch(/files\s+18: 8 added, 7 modified, 2 deleted, 1 renamed/);
    expect(stderr).toContain(`unclaimed ${UNCLAIMED}`);
    expect(stderr).toContain('--keep keeps it');
  });

  it('builds a real repository: one round, every status, every file but one on a card, marks on their lines', async () => {
    const [folder] = readdirSync(tmpdir).filter((name) => name.startsWith('involut-demo-'));
    const repo = path.join(tmpdir, folder!, 'dungeon-dash');
    const material = Material.parse(JSON.parse(readFileSync(path.join(repo, '.review', 'material.json'), 'utf8')));
    expect(new Set(material.material.map((m) => m.status))).toEqual(
      new Set(['added', 'modified', 'deleted', 'renamed']),
    );
    expect(material.material.filter((m) => m.binary).map((m) => m.ref)).toEqual(['assets/hero-sheet.png']);
    expect(material.material.find((m) => m.ref === 'src/auth/session.ts')?.commits?.length).toBe(1);
    const refs = material.material.map((m) => m.ref);
    const claimed = new Set(CARDS.cards.flatMap((c) => c.refs));
    expect(refs.filter((ref) => !claimed.has(ref))).toEqual([UNCLAIMED]);
    expect(
      [...claimed].filter((ref) => !refs.includes(ref)),
      'refs the material does not hold',
    ).toEqual([]);
    // Every mark finds its line but one, which names a line the diff does not hold, on purpose.
    const diffs = new Map(material.material.map((m) => [m.ref, (m.diff ?? '').split('\n')]));
    const unmatched = CARDS.cards
      .flatMap((c) => c.marks ?? [])
      .filter((mark) => !diffs.get(mark.ref)!.some((line) => line.includes(mark.at)));
    expect(unmatched.map((m) => m.at)).toEqual(['touchSession(session, now)']);
    // The cards show every field: null ("not stated") and empty ("looked, found nothing") on purpose.
    const cards = CARDS.cards;
    expect(new Set(cards.map((c) => c.intent))).toEqual(new Set(INTENTS));
    expect(new Set(cards.map((c) => c.render ?? 'code'))).toEqual(new Set(Object.keys(BY_RENDER)));
    for (const field of ['skipped', 'unrequested', 'might_break'] as const) {
      expect(
        cards.some((c) => c[field] === null),
        `${field}: null somewhere`,
      ).toBe(true);
      expect(
        cards.some((c) => c[field] === '' || (Array.isArray(c[field]) && c[field].length === 0)),
        `${field}: empty somewhere`,
      ).toBe(true);
    }
    expect(cards.some((c) => c.unsure && c.unsure.alternative)).toBe(true);
    expect(
      cards
        .filter((c) => c.question)
        .map((c) => c.question!.when)
        .sort(),
    ).toEqual(['after', 'before']);
    expect(cards.some((c) => c.continues && cards.some((d) => d.id === c.continues))).toBe(true);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`shows every intent group, the files no card claims, and every drawing (${scheme})`, async () => {
      const page = await open(scheme);
      const nav = sidebar(page);
      expect(await nav.locator('.inv-request p').textContent()).toBe(CARDS.request);
      expect((await nav.locator('.inv-group-title').allTextContents()).map((t) => t.trim())).toEqual([
        ...INTENTS,
        'files no card claims',
      ]);
      expect(await nav.locator('.inv-coverage').textContent()).toBe('17 of 18 changed files are explained by cards');
      expect((await nav.locator('.inv-unclaimed-list li').allTextContents()).map((t) => t.trim())).toEqual([UNCLAIMED]);

      // The first card is the risk card; its `before` question hides the drawing and the diff.
      const risk = article(page, 'c_sessions_table');
      await risk.waitFor();
      expect(await risk.locator('section.inv-render').count()).toBe(0);
      expect(await risk.locator('section.inv-file').count()).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `demo-overview-${scheme}.png`) });
      await answerBefore(page);
      await risk.locator('section.inv-render[aria-label="schema drawing"]').waitFor();
      await risk.locator('section.inv-file').first().waitFor();

      for (const [kind, id] of Object.entries(BY_RENDER) as Array<[keyof typeof BY_RENDER, string]>) {
        await select(page, id, kind === 'code' ? 'full' : undefined);
        const shown = article(page, id);
        if (kind === 'code') {
          // No drawing: the diff is the drawing, with the marks on their lines.
          expect(await shown.locator('section.inv-render').count()).toBe(0);
          await eventually(() => shown.locator('section.inv-file').count()).toBe(card(id).refs.length);
          await eventually(() => shown.locator('.inv-mark:not(.inv-mark-unmatched)').count()).toBe(1);
          // Files far from view are drawn when they come near it.
          await shown.locator('section.inv-file[data-ref="src/middleware/auth.ts"]').scrollIntoViewIfNeeded();
          expect(await shown.locator('.inv-mark-unmatched').textContent()).toContain('touchSession(session, now)');
          await shown.locator('.inv-mark:not(.inv-mark-unmatched)').scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(SCREENSHOTS, `demo-render-code-${scheme}.png`) });
          await shoot(
            shown.locator('section.inv-file[data-ref="src/middleware/auth.ts"]'),
            `demo-render-code-unmatched-mark-${scheme}`,
          );
          continue;
        }
        const section = shown.locator(`section.inv-render[aria-label="${kind} drawing"]`);
        await section.waitFor();
        await drawn(page, kind);
        await shoot(section, `demo-render-${kind}-${scheme}`);
      }

      // The cleanup card starts folded; opened, it shows its rename and deletion.
      await select(page, 'c_tidy', 'full');
      await eventually(() => article(page, 'c_tidy').locator('section.inv-file').count()).toBe(2);

      await nav.getByRole('button', { name: '1 file' }).click();
      const unclaimed = page.locator('section[aria-label="Files no card claims"]');
      await unclaimed.locator(`section.inv-file[data-ref="${UNCLAIMED}"]`).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `demo-unclaimed-${scheme}.png`) });
    }, 120_000);
  }

  it('shows every card field: null as not stated, empty as looked-and-found-nothing, unsure in four parts, a thread, an after question', async () => {
    const page = await open();
    await select(page, 'c_limits');
    const limits = article(page, 'c_limits');
    expect(await limits.locator('.inv-thread').textContent()).toContain(`Continues ${card('c_idle').title}`);
    expect(await limits.locator('.inv-field.inv-nothing dt').allTextContents()).toEqual(['Might break']);
    await select(page, 'c_idle');
    expect(await article(page, 'c_idle').locator('.inv-thread').textContent()).toContain(
      `Continued by ${card('c_limits').title}`,
    );
    expect(await article(page, 'c_idle').locator('.inv-unsure strong').allTextContents()).toEqual([
      'About:',
      'Chose:',
      'Because:',
      'Alternative:',
    ]);
    await select(page, 'c_doze');
    expect(await article(page, 'c_doze').locator('.inv-field.inv-not-stated dt').allTextContents()).toEqual([
      'Skipped',
      'Unsure',
    ]);
    await select(page, 'c_admin_routes', 'full');
    const after = article(page, 'c_admin_routes').getByRole('region', { name: 'Question' });
    expect(await after.locator('h3').textContent()).toBe('Now that you have looked');
    await after.getByRole('button', { name: 'No, admins only' }).click();
    await after.getByText(card('c_admin_routes').question!.answer!).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'demo-after-question.png'), fullPage: false });
  }, 60_000);

  it('removes its folder when SIGTERM stops it', async () => {
    const before = readdirSync(tmpdir).filter((name) => name.startsWith('involut-demo-'));
    expect(before).toHaveLength(1);
    expect(await demo!.stop()).toBe(0);
    expect(readdirSync(tmpdir).filter((name) => name.startsWith('involut-demo-'))).toEqual([]);
    expect(demo!.stderr()).toContain(`Removed the demo folder ${path.join(tmpdir, before[0]!)}`);
  }, 30_000);
});
