/**
 * The graph render as a reader meets it: the built CLI serves a real git repository
 * made from fixtures/render-graph (plus the generated 340-node graph), and
 * headless Chromium opens the viewer. Screenshots go to tests/e2e-renders/screenshots/.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/find-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(PROJECT, 'dist/server/cli.js');
const FIXTURE = path.join(PROJECT, 'fixtures/render-graph');
const SHOTS = path.join(PROJECT, 'tests/e2e-renders/screenshots');

const BIG = {
  id: 'c_big',
  title: 'Every package now logs through core/log',
  intent: 'structure',
  minutes: 6,
  refs: [],
  why: 'One logger for the whole monorepo: 32 libraries moved from core/logger-legacy to the new core/log.',
  render: 'graph',
  payload: JSON.parse(readFileSync(path.join(FIXTURE, 'big-graph.json'), 'utf8')),
};

const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** No ambient GIT_*, and a HOME of its own so no user config leaks in. */
function env(): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
  const home = temp('involut-graph-home-');
  return {
    ...clean,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    INVOLUT_STATE_DIR: path.join(home, 'state'),
  };
}

/** The fixture's repository: `base/` committed, `working/` and the deletions left uncommitted, then `involut rounds`. */
function buildRepo(): string {
  const dir = temp('involut-graph-repo-');
  const recipe = JSON.parse(readFileSync(path.join(FIXTURE, 'recipe.json'), 'utf8')) as {
    base: string;
    delete: string[];
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: env(), stdio: 'pipe' });
  git('init', '--quiet', '-b', 'main');
  git('config', 'user.name', 'Involut E2E');
  git('config', 'user.email', 'e2e@involut.invalid');
  git('config', 'commit.gpgsign', 'false');
  cpSync(path.join(FIXTURE, 'base'), dir, { recursive: true });
  git('add', '--all');
  git('commit', '--quiet', '-m', recipe.base);
  cpSync(path.join(FIXTURE, 'working'), dir, { recursive: true });
  for (const file of recipe.delete) rmSync(path.join(dir, file));
  execFileSync(process.execPath, [CLI, 'rounds', '--quiet', '--repo', dir], { env: env(), stdio: 'pipe' });
  const cards = JSON.parse(readFileSync(path.join(FIXTURE, 'cards.json'), 'utf8'));
  cards.cards.push(BIG);
  writeFileSync(path.join(dir, '.review/cards.json'), JSON.stringify(cards, null, 2));
  return dir;
}

/** `involut serve --no-open --port 0`; its first stdout line is the viewer's URL. */
async function serve(dir: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--no-open', '--port', '0', '--repo', dir], { env: env() });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${err}`)), 20_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve(out.split('\n', 1)[0]!.trim());
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before printing its URL: ${err}`)));
  });
  return { url, stop: () => void child.kill('SIGTERM') };
}

let browser: Browser;
let server: { url: string; stop: () => void };
const pageErrors: string[] = [];

beforeAll(async () => {
  for (const file of [CLI, path.join(PROJECT, 'dist/web/index.html')])
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  mkdirSync(SHOTS, { recursive: true });
  server = await serve(buildRepo());
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  server?.stop();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  expect(pageErrors, 'uncaught errors or CSP refusals in the page').toEqual([]);
});

/** A fresh page on the viewer, in the light or dark scheme, with errors and CSP refusals collected. */
async function open(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) pageErrors.push(message.text());
  });
  await page.goto(server.url);
  await page
    .locator('.inv-layout')
    .waitFor({ timeout: 30_000 })
    .catch(async (error) => {
      throw new Error(`${error}\npage text: ${await page.locator('body').innerText()}`);
    });
  return page;
}

/** Selects a card in the sidebar and opens it in full, where the drawing is. */
async function showCard(page: Page, id: string, title: string) {
  await page.locator('nav.inv-sidebar button', { hasText: title }).click();
  const card = page.locator(`article[data-card-id="${id}"]`);
  await card.getByRole('group', { name: 'How much of the card to show' }).getByRole('button', { name: 'full' }).click();
  return card;
}

const drawn = { timeout: 30_000 };
const transformOf = (page: Page) => page.locator('.inv-graph-world').getAttribute('transform');
const strokeOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).stroke);

describe('the graph render', () => {
  it('draws the module graph with its states, edge labels and legend, and keeps the diff below', async () => {
    const page = await open();
    const card = await showCard(page, 'c_modules', 'Routes reach the database');
    const drawing = card.locator('section.inv-render[aria-label="graph drawing"] .inv-graph[data-phase="drawn"]');
    await drawing.waitFor(drawn);

    const node = (text: string) =>
      drawing.locator('g.inv-graph-node', { has: page.locator('text', { hasText: new RegExp(`^${text}$`) }) });
    for (const [text, state] of [
      ['main.ts', 'unchanged'],
      ['config.ts', 'unchanged'],
      ['\\+ repo/users.ts', 'added'],
      ['\\+ repo/orders.ts', 'added'],
      ['\\+ notify/queue.ts', 'added'],
      ['− legacy/mailer.ts', 'removed'],
      ['~ routes/orders.ts', 'changed'],
      ['~ db.ts', 'changed'],
    ]) {
      await expect(node(text!).getAttribute('data-state'), text).resolves.toBe(state);
    }
    expect(await drawing.locator('g.inv-graph-node').count()).toBe(10);
    expect(await drawing.locator('path.inv-graph-edge').count()).toBe(15);

    // Colour, and a second cue that does not need colour: a dashed outline for what was removed.
    const added = await strokeOf(page, '.inv-graph-node.inv-graph-added rect');
    const removed = await strokeOf(page, '.inv-graph-node.inv-graph-removed rect');
    const changed = await strokeOf(page, '.inv-graph-node.inv-graph-changed rect');
    expect(added).toBe('rgb(26, 127, 55)');
    expect(removed).toBe('rgb(207, 34, 46)');
    expect(
      new Set([added, removed, changed, await strokeOf(page, '.inv-graph-node.inv-graph-unchanged rect')]).size,
    ).toBe(4);
    expect(
      await page
        .locator('.inv-graph-node.inv-graph-removed rect')
        .evaluate((el) => getComputedStyle(el).strokeDasharray),
    ).not.toBe('none');
    expect(await strokeOf(page, 'path.inv-graph-edge.inv-graph-added')).toBe(added);

    const edgeLabels = await drawing.locator('.inv-graph-edge-label text').allTextContents();
    expect(edgeLabels.sort()).toEqual(
      [
        '+ enqueue',
        '+ findUser',
        '+ query',
        '+ query, transaction',
        '+ saveOrder',
        '− query',
        '− query',
        '− sendMail',
        'loadConfig',
        'ordersRoutes',
        'startServer',
        'usersRoutes',
      ].sort(),
    );

    const legend = drawing.locator('.inv-graph-legend');
    await expect(legend.textContent()).resolves.toContain('10 nodes · 15 edges');
    expect(await legend.locator('li').allTextContents()).toEqual([
      '+ added: 3 nodes, 6 edges',
      '− removed: 1 node, 4 edges',
      '~ changed: 3 nodes',
      'unchanged: 3 nodes, 5 edges',
    ]);

    // Sources on the left: main.ts starts the drawing, config.ts ends it.
    const x = (text: string) => node(text).evaluate((el) => el.getBoundingClientRect().left);
    expect(await x('main.ts')).toBeLessThan(await x('server.ts'));
    expect(await x('~ db.ts')).toBeLessThan(await x('config.ts'));

    // The diff is still there, below the drawing.
    await card.locator('section.inv-file[data-ref="src/routes/orders.ts"]').waitFor();
    expect(await card.locator('p.inv-render-absent').count()).toBe(0);

    await card.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-modules-light.png') });
    await page.screenshot({ path: path.join(SHOTS, 'graph-modules-page-light.png') });
    await page.context().close();
  });

  it('pans and zooms with the buttons, the keyboard and a drag', async () => {
    const page = await open();
    const card = await showCard(page, 'c_modules', 'Routes reach the database');
    await card.locator('.inv-graph[data-phase="drawn"]').waitFor(drawn);
    const fitted = await transformOf(page);
    const zoom = card.locator('.inv-graph-zoom');
    const before = await zoom.textContent();

    await card.getByRole('button', { name: 'Zoom in' }).click();
    const zoomedIn = await transformOf(page);
    expect(zoomedIn).not.toBe(fitted);
    expect(parseInt((await zoom.textContent())!)).toBeGreaterThan(parseInt(before!));
    await card.getByRole('button', { name: 'Zoom out' }).click();
    await card.getByRole('button', { name: 'Zoom out' }).click();
    expect(parseInt((await zoom.textContent())!)).toBeLessThan(parseInt(before!));
    await card.getByRole('button', { name: 'Fit' }).click();
    expect(await transformOf(page)).toBe(fitted);

    // Keyboard: Tab reaches the buttons and the drawing; + zooms, arrows move, 0 fits.
    await card.getByRole('button', { name: 'Fit' }).focus();
    await page.keyboard.press('Enter');
    const viewport = card.getByRole('group', { name: /Graph drawing/ });
    await viewport.focus();
    await page.keyboard.press('+');
    expect(await transformOf(page)).not.toBe(fitted);
    await page.keyboard.press('0');
    await page.keyboard.press('ArrowLeft');
    expect(await transformOf(page)).toMatch(/^translate\(/);
    expect(await transformOf(page)).not.toBe(fitted);

    // A drag moves the drawing by the pointer's movement.
    await page.keyboard.press('0');
    const box = (await viewport.boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 140, box.y + 70, { steps: 5 });
    await page.mouse.up();
    const [tx, ty] = (await transformOf(page))!.match(/-?[\d.]+/g)!.map(Number);
    const [fx, fy] = fitted!.match(/-?[\d.]+/g)!.map(Number);
    expect(tx! - fx!).toBeCloseTo(100, 0);
    expect(ty! - fy!).toBeCloseTo(30, 0);

    // Typing a note re-renders the card: the graph keeps its layout and where the reader left it.
    const moved = await transformOf(page);
    await card.getByRole('textbox').first().fill('Why does notify/queue.ts read the config itself?');
    await card.locator('.inv-note-status.inv-saved').first().waitFor();
    expect(await transformOf(page)).toBe(moved);
    expect(page.workers()).toHaveLength(0);
    await page.context().close();
  });

  it('is legible in the dark scheme', async () => {
    const page = await open('dark');
    const card = await showCard(page, 'c_modules', 'Routes reach the database');
    await card.locator('.inv-graph[data-phase="drawn"]').waitFor(drawn);
    expect(await strokeOf(page, '.inv-graph-node.inv-graph-added rect')).toBe('rgb(63, 185, 80)');
    expect(
      await page
        .locator('.inv-graph-node.inv-graph-added rect')
        .first()
        .evaluate((el) => getComputedStyle(el).fill),
    ).toBe('rgb(18, 38, 26)');
    await card.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-modules-dark.png') });
    const slips = await showCard(page, 'c_dangling', 'The queue');
    await slips.locator('.inv-graph[data-phase="drawn"]').waitFor(drawn);
    await slips.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-dangling-dark.png') });
    await page.context().close();
  });

  it('reports edges that name unknown nodes and repeated ids, and draws the rest', async () => {
    const page = await open();
    const card = await showCard(page, 'c_dangling', 'The queue');
    const drawing = card.locator('.inv-graph[data-phase="drawn"]');
    await drawing.waitFor(drawn);
    expect(await card.locator('.inv-graph-problem').allTextContents()).toEqual([
      '2 edges name nodes that are not in the graph, so they are not drawn: src/notify/queue.ts → src/notify/redis.ts, src/workers/mail.ts → src/notify/queue.ts.',
      "1 node id appears more than once: src/notify/queue.ts (2 times); each is drawn once, with the first one's label and state.",
    ]);
    expect(await drawing.locator('g.inv-graph-node text').allTextContents()).toEqual([
      '~ routes/orders.ts',
      '+ notify/queue.ts',
      'config.ts',
    ]);
    expect(await drawing.locator('.inv-graph-edge-label text').allTextContents()).toEqual(['+ enqueue', 'Config']);
    await card.locator('section.inv-file[data-ref="src/notify/queue.ts"]').waitFor();
    await card.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-dangling-light.png') });
    await page.context().close();
  });

  it('falls back to the diff with a sentence when the payload is malformed', async () => {
    const page = await open();
    const card = await showCard(page, 'c_malformed', 'Orders are saved in one transaction');
    const absent = card.locator('p.inv-render-absent');
    await absent.waitFor();
    expect(await absent.textContent()).toMatch(
      /^The graph drawing is absent: payload\.graph\.nodes\.0: .+ The diff below shows the change\.$/,
    );
    expect(await card.locator('section.inv-render').count()).toBe(0);
    await card.locator('section.inv-file[data-ref="src/repo/orders.ts"]').waitFor();
    await card.screenshot({ path: path.join(SHOTS, 'graph-malformed-light.png') });
    await page.context().close();
  });

  it('says so when the layout fails, and the diff still shows', async () => {
    const page = await open();
    await page.route('**/elk-worker*', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const card = await showCard(page, 'c_modules', 'Routes reach the database');
    const failed = card.locator('.inv-graph[data-phase="failed"] p.inv-render-absent');
    await failed.waitFor(drawn);
    expect(await failed.textContent()).toMatch(
      /^The graph could not be laid out \(.+\)\. The diff below shows the change\.$/,
    );
    expect(await card.locator('.inv-graph-legend li').count()).toBe(4);
    await card.locator('section.inv-file[data-ref="src/routes/orders.ts"]').waitFor();
    await page.context().close();
  });

  it('lays out 314 nodes in a worker, and the worker ends with the layout', async () => {
    const page = await open();
    const workersStarted: string[] = [];
    page.on('worker', (worker) => workersStarted.push(worker.url()));
    await page.locator('nav.inv-sidebar button', { hasText: 'Every package now logs' }).click();
    const card = page.locator('article[data-card-id="c_big"]');
    await card
      .getByRole('group', { name: 'How much of the card to show' })
      .getByRole('button', { name: 'full' })
      .click();
    await card.getByRole('status').filter({ hasText: 'Laying out 314 nodes…' }).waitFor();
    const graph = card.locator('.inv-graph[data-phase="drawn"]');
    await graph.waitFor(drawn);

    expect(workersStarted.some((url) => url.includes('elk-worker'))).toBe(true);
    expect(await graph.locator('g.inv-graph-node').count()).toBe(314);
    expect(await graph.locator('path.inv-graph-edge').count()).toBe(497);
    expect(await graph.locator('.inv-graph-legend li').allTextContents()).toEqual([
      '+ added: 1 node, 33 edges',
      '− removed: 1 node, 33 edges',
      '~ changed: 32 nodes',
      'unchanged: 280 nodes, 431 edges',
    ]);
    await expect.poll(() => page.workers().length, { timeout: 10_000 }).toBe(0);
    await card.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-big-fit-light.png') });

    // Walking the changes: the last one (rightmost) is in the core layer, shown at natural size.
    await card.getByRole('button', { name: 'Previous change' }).click();
    await expect(card.locator('.inv-graph-walk').textContent()).resolves.toMatch(
      /^‹change 34 of 34: [+−] core\/log(ger-legacy)?›$/,
    );
    expect(await card.locator('.inv-graph-zoom').textContent()).toBe('100%');
    await card.locator('.inv-graph-focus').waitFor();
    await card.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-big-change-light.png') });
    await card.getByRole('button', { name: 'Next change' }).click();
    await expect(card.locator('.inv-graph-walk').textContent()).resolves.toMatch(/^‹change 1 of 34: ~ /);
    await card.locator('section.inv-render').screenshot({ path: path.join(SHOTS, 'graph-big-first-change-light.png') });
    await page.context().close();
  });

  it('stops the worker when the card goes away mid-layout', async () => {
    const page = await open();
    await showCard(page, 'c_big', 'Every package now logs');
    await page.locator('article[data-card-id="c_big"]').getByRole('status').waitFor();
    await page.locator('nav.inv-sidebar button', { hasText: 'The queue' }).click();
    await page.locator('article[data-card-id="c_dangling"]').waitFor();
    await expect.poll(() => page.workers().length, { timeout: 10_000 }).toBe(0);
    await page.context().close();
  });
});
