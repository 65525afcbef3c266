/**
 * The `image` render in headless Chromium, served by the built CLI over a real git repository
 * made from `fixtures/render-image` (a 4×4 sprite sheet with two frames redrawn, an added
 * badge and a deleted one). One repository and server for the file; a fresh context per test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/find-browser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT_ROOT, cleanup, makeRepo, runCli, type TempRepo } from '../helpers/git-repo';

const FIXTURE = path.join(PROJECT_ROOT, 'fixtures/render-image');
const SCREENSHOTS = path.join(PROJECT_ROOT, 'tests/e2e-renders/screenshots');
const SHEET = 'art/hero-sheet.png';

const fixtureCards = JSON.parse(readFileSync(path.join(FIXTURE, 'cards.json'), 'utf8'));
const frames = JSON.parse(readFileSync(path.join(FIXTURE, 'frames.json'), 'utf8')) as Array<{ name: string }>;
const GHOST = { name: 'ghost_frame', x: 128, y: 96, w: 32, h: 32 };
const cards = {
  ...fixtureCards,
  cards: [
    ...fixtureCards.cards,
    {
      id: 'c_ghost',
      title: 'Frames list with a frame past the sheet',
      intent: 'assets',
      refs: [SHEET],
      render: 'image',
      payload: { frames: [...frames, GHOST] },
    },
    {
      id: 'c_bad',
      title: 'Malformed frames payload',
      intent: 'assets',
      refs: [SHEET],
      render: 'image',
      payload: { frames: 'all' },
    },
  ],
};
const title = (id: string) => cards.cards.find((c: { id: string }) => c.id === id)!.title as string;

let repo: TempRepo;
let server: ChildProcessWithoutNullStreams;
let url: string;
let browser: Browser;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

beforeAll(async () => {
  repo = makeRepo();
  cpSync(path.join(FIXTURE, 'base'), repo.dir, { recursive: true });
  repo.commit('Hero sprite sheet and badge');
  cpSync(path.join(FIXTURE, 'working'), repo.dir, { recursive: true });
  rmSync(repo.path('icons/old-badge.png'));
  const rounds = await runCli(['rounds', '--quiet', '--repo', repo.dir], repo.dir);
  expect(rounds.code, rounds.stderr).toBe(0);
  repo.write('.review/cards.json', `${JSON.stringify(cards, null, 2)}\n`);

  server = spawn(process.execPath, [CLI, 'serve', '--no-open', '--port', '0', '--repo', repo.dir], {
    env: process.env,
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n', 1)[0]!.trim());
    });
    server.once('exit', (code) => reject(new Error(`the server exited (${code}) before printing its URL: ${err}`)));
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchBrowser();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  expect(errors.splice(0), 'uncaught errors in the page').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  cleanup();
});

/** Opens the viewer and the card `id` at full detail (assets cards start at summary). */
async function openCard(id: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  await page.goto(url);
  await page
    .locator('nav[aria-label="Cards"]')
    .getByRole('button', { name: title(id) })
    .click();
  const card = page.locator(`article[data-card-id="${id}"]`);
  await card.getByRole('group', { name: 'How much of the card to show' }).getByRole('button', { name: 'full' }).click();
  return page;
}

const drawing = (page: Page) => page.locator('section.inv-render[aria-label="image drawing"]');
const image = (page: Page, ref: string) => drawing(page).locator(`section[aria-label="Image ${ref}"]`);
const bytes = (file: string) => `${statSync(path.join(FIXTURE, file)).size} B`;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe('image render', () => {
  it('shows the sheet before and after with sizes and bytes, and only the two frames that changed', async () => {
    const page = await openCard('c_sheet');
    const sheet = image(page, SHEET);
    await expect
      .poll(() => sheet.locator('[data-side="before"]').textContent(), { timeout: 15_000 })
      .toBe(`before 128×128 px · ${bytes('base/art/hero-sheet.png')}`);
    expect(await sheet.locator('[data-side="after"]').textContent()).toBe(
      `after 128×128 px · ${bytes('working/art/hero-sheet.png')}`,
    );
    await expect.poll(() => sheet.locator('.inv-img-differ').textContent()).toBe('21 pixels of 16,384 differ');

    // Side by side, at one zoom (128 px sheets shown at 3×), with crisp pixels over a checkerboard.
    const pictures = sheet.locator('.inv-img-sides img');
    await expect.poll(() => pictures.count()).toBe(2);
    const shown = await pictures.evaluateAll((imgs) =>
      imgs.map((img) => ({
        alt: img.getAttribute('alt'),
        w: img.getBoundingClientRect().width,
        rendering: getComputedStyle(img).imageRendering,
        loaded: (img as HTMLImageElement).naturalWidth,
      })),
    );
    expect(shown).toEqual([
      { alt: `${SHEET}, before`, w: 384, rendering: 'pixelated', loaded: 128 },
      { alt: `${SHEET}, after`, w: 384, rendering: 'pixelated', loaded: 128 },
    ]);

    // Exactly the two redrawn frames, named, with their changed-pixel counts; the other fourteen counted.
    const changed = sheet.locator('figure.inv-frame');
    await expect.poll(() => changed.count()).toBe(2);
    const listed = await changed.evaluateAll((figs) =>
      figs.map((f) => [
        f.querySelector('.inv-frame-name')!.textContent,
        f.querySelector('.inv-frame-count')!.textContent,
      ]),
    );
    expect(listed).toEqual([
      ['idle_2', '4 pixels changed of 1,024'],
      ['attack_1', '17 pixels changed of 1,024'],
    ]);
    expect(await sheet.locator('.inv-frames-changed').textContent()).toBe('2 frames changed:');
    expect(await sheet.locator('.inv-frames-unchanged summary').textContent()).toBe('14 of 16 frames unchanged');
    expect(await sheet.locator('.inv-frames-unchanged p').textContent()).toBe(
      frames
        .map((f) => f.name)
        .filter((n) => n !== 'idle_2' && n !== 'attack_1')
        .join(', '),
    );
    // Each changed frame: before → after → changed pixels, zoomed 5× without smoothing.
    const tiles = await changed
      .first()
      .locator('canvas')
      .evaluateAll((cs) =>
        cs.map((c) => ({
          label: c.getAttribute('aria-label'),
          w: c.getBoundingClientRect().width,
          rendering: getComputedStyle(c).imageRendering,
        })),
      );
    expect(tiles).toEqual(
      ['before', 'after', 'changed pixels'].map((s) => ({
        label: `Frame idle_2, ${s}`,
        w: 160,
        rendering: 'pixelated',
      })),
    );
    expect(await sheet.locator('.inv-frames-outside').count()).toBe(0);
    await shoot(page, 'image-sheet-light');
    // The diff of the file still follows the drawing.
    expect(await page.locator(`section.inv-file[data-ref="${SHEET}"]`).count()).toBe(1);
  });

  it('highlights exactly the differing pixels, and compares with a slider and an onion skin', async () => {
    const page = await openCard('c_sheet');
    const sheet = image(page, SHEET);
    const modes = sheet.getByRole('group', { name: `How to compare ${SHEET}` });
    await modes.getByRole('button', { name: 'Difference' }).click();
    const canvas = sheet.getByRole('img', {
      name: `${SHEET}: the pixels that differ, in magenta, over the after image dimmed`,
    });
    await expect.poll(() => canvas.count(), { timeout: 15_000 }).toBe(1);
    const magenta = await canvas.evaluate((c) => {
      const data = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 128, 128).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 255 && data[i + 3] === 255) n++;
      return n;
    });
    expect(magenta).toBe(21);
    expect(await sheet.locator('.inv-img-legend').textContent()).toContain('Magenta: the 21 pixels that differ.');
    expect(await modes.getByRole('button', { name: 'Difference' }).getAttribute('aria-pressed')).toBe('true');
    await shoot(page, 'image-difference-light');

    await modes.getByRole('button', { name: 'Slider' }).click();
    const slider = sheet.getByRole('slider', { name: 'Slider: before left of the line, after right of it' });
    await slider.fill('25');
    const layers = sheet.locator('.inv-img-stage .inv-img-layer');
    expect(await layers.evaluateAll((ls) => ls.map((l) => (l as HTMLElement).style.clipPath))).toEqual([
      'inset(0px 75% 0px 0px)',
      'inset(0px 0px 0px 25%)',
    ]);
    expect(await sheet.locator('.inv-img-stage img').count()).toBe(2);
    await shoot(page, 'image-slider-light');

    await modes.getByRole('button', { name: 'Onion skin' }).click();
    const onion = sheet.getByRole('slider', { name: 'Onion skin: opacity of the after image over the before' });
    await onion.fill('20');
    expect(await layers.nth(1).evaluate((l) => getComputedStyle(l).opacity)).toBe('0.2');

    // Zooming keeps whole-number steps and crisp pixels.
    await sheet.getByRole('button', { name: 'Zoom in' }).click();
    expect(await sheet.getByRole('group', { name: 'Zoom' }).locator('output').textContent()).toBe('4×');
    expect(await sheet.locator('.inv-img-stage').evaluate((s) => s.getBoundingClientRect().width)).toBe(512);
  });

  it('reports a frame that lies outside the sheet by name', async () => {
    const page = await openCard('c_ghost');
    const sheet = image(page, SHEET);
    const outside = sheet.locator('.inv-frames-outside');
    await expect
      .poll(() => outside.textContent(), { timeout: 15_000 })
      .toContain('1 frame lies outside the image and could not be compared:');
    expect(await outside.locator('li').allTextContents()).toEqual([
      'ghost_frame (x 128, y 96, 32×32) is outside the before image (128×128) and the after image (128×128).',
    ]);
    expect(await sheet.locator('.inv-frames-unchanged summary').textContent()).toBe('14 of 16 frames unchanged');
    expect(await sheet.locator('figure.inv-frame .inv-frame-name').allTextContents()).toEqual(['idle_2', 'attack_1']);
    await shoot(page, 'image-frame-outside-light');
  });

  it('shows only the side that exists for an added and a deleted image', async () => {
    const page = await openCard('c_badge');
    const added = image(page, 'icons/badge.png');
    await expect.poll(() => added.locator('img').count(), { timeout: 15_000 }).toBe(1);
    expect(await added.locator('img').getAttribute('alt')).toBe('icons/badge.png, after');
    expect(await added.locator('.inv-img-legend').textContent()).toBe(
      'Only the after image exists: this file was added in this round.',
    );
    expect(await added.locator('[data-side="before"]').textContent()).toBe('before did not exist');
    expect(await added.locator('[data-side="after"]').textContent()).toBe(
      `after 24×24 px · ${bytes('working/icons/badge.png')}`,
    );
    expect(await added.getByRole('group', { name: /How to compare/ }).count()).toBe(0);

    const deleted = image(page, 'icons/old-badge.png');
    await expect.poll(() => deleted.locator('img').count()).toBe(1);
    expect(await deleted.locator('img').getAttribute('alt')).toBe('icons/old-badge.png, before');
    expect(await deleted.locator('[data-side="before"]').textContent()).toBe(
      `before 16×16 px · ${bytes('base/icons/old-badge.png')}`,
    );
    expect(await deleted.locator('[data-side="after"]').textContent()).toBe('after deleted');
    await expect.poll(() => page.locator('section.inv-file img').count()).toBe(2); // the diffs below, for a complete picture
    await shoot(page, 'image-added-deleted-light');
  });

  it('falls back to the diff with a message when the payload is malformed', async () => {
    const page = await openCard('c_bad');
    const card = page.locator('article[data-card-id="c_bad"]');
    await expect
      .poll(() => card.locator('p.inv-render-absent').textContent(), { timeout: 15_000 })
      .toMatch(/^The image drawing is absent: payload\.frames: .+ The diff below shows the change\.$/);
    expect(await drawing(page).count()).toBe(0);
    await expect.poll(() => card.locator(`section.inv-file[data-ref="${SHEET}"] img`).count()).toBe(2);
    await shoot(page, 'image-malformed-light');
  });

  it('reads clearly in the dark colour scheme', async () => {
    const page = await openCard('c_sheet', 'dark');
    const sheet = image(page, SHEET);
    await expect.poll(() => sheet.locator('figure.inv-frame').count(), { timeout: 15_000 }).toBe(2);
    await shoot(page, 'image-sheet-dark');
    await sheet.getByRole('button', { name: 'Difference' }).click();
    await expect.poll(() => sheet.locator('.inv-img-legend').count()).toBe(1);
    await shoot(page, 'image-difference-dark');
    const badge = await openCard('c_badge', 'dark');
    await expect.poll(() => image(badge, 'icons/badge.png').locator('img').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => badge.locator('section.inv-file img').count()).toBe(2);
    await shoot(badge, 'image-added-deleted-dark');
  });
});
