/**
 * The tree, schema and table drawings as a reader sees them: the built CLI serving a
 * real git repository made from `fixtures/render-tree-schema-table`, in
 * headless Chromium. Screenshots of each drawing, light and dark, go to ./screenshots.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/find-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT, makeRepo, removeTempDirs, runRounds, startLive, type LiveServer } from '../helpers/server';

const FIXTURE = path.join(PROJECT, 'fixtures/render-tree-schema-table');
const SCREENSHOTS = path.join(PROJECT, 'tests/e2e-renders/screenshots');

/** Every file under `dir`, by its path relative to `dir`. */
function filesUnder(dir: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const item of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!item.isFile()) continue;
    const full = path.join(item.parentPath, item.name);
    files[path.relative(dir, full)] = readFileSync(full);
  }
  return files;
}

let server: LiveServer;
let browser: Browser;
const pages: Record<'light' | 'dark', Page> = {} as never;
const errors: string[] = [];

beforeAll(async () => {
  for (const file of [CLI, path.join(PROJECT, 'dist/web/index.html')])
    if (!existsSync(file)) throw new Error(`${file} is missing; run \`npm run build\` first.`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const repo = makeRepo(filesUnder(path.join(FIXTURE, 'base')));
  for (const [file, content] of Object.entries(filesUnder(path.join(FIXTURE, 'working')))) repo.write(file, content);
  runRounds(repo);
  writeFileSync(repo.review('cards.json'), readFileSync(path.join(FIXTURE, 'cards.json')));
  server = await startLive(repo.dir);
  browser = await launchBrowser();
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => errors.push(`${colorScheme}: ${error.message}`));
    page.on('dialog', (dialog) => {
      errors.push(`${colorScheme}: a dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(server.url);
    await page.locator('.inv-layout').waitFor({ timeout: 30_000 });
    pages[colorScheme] = page;
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  removeTempDirs();
  expect(errors, 'the page threw or opened a dialog').toEqual([]);
});

/** Selects a card in the sidebar and opens it fully, as a reader would; returns the card. */
async function openCard(page: Page, id: string, title: string): Promise<Locator> {
  await page.locator('nav[aria-label="Cards"] .inv-nav-item', { hasText: title }).click();
  const card = page.locator(`article[data-card-id="${id}"]`);
  await card.getByRole('group', { name: 'How much of the card to show' }).getByRole('button', { name: 'full' }).click();
  return card;
}

async function shoot(id: string, title: string, kind: string, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    const card = await openCard(pages[scheme], id, title);
    const drawing = card.locator(`section.inv-render[aria-label="${kind} drawing"]`);
    await drawing.scrollIntoViewIfNeeded();
    await drawing.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}.png`) });
  }
}

/** Each tree row as "before | after", a side as "name [marking]" and "·" when empty. */
async function treeRows(drawing: Locator): Promise<string[]> {
  return drawing.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) =>
      [...row.querySelectorAll('td')]
        .map((td) => {
          const name = td.querySelector('.inv-hier-name')?.textContent;
          if (name == null) return '·';
          const marks = [...td.querySelectorAll('.inv-change-badge, .inv-hier-aside, .inv-hier-jump')].map(
            (m) => `[${m.textContent}]`,
          );
          return [name, ...marks].join(' ');
        })
        .join(' | '),
    ),
  );
}

describe('tree drawing', () => {
  it('lays the route trees side by side, row by row, marking added, removed and moved routes in words', async () => {
    const card = await openCard(pages.light, 'routes', 'User management moves under /admin');
    const drawing = card.locator('section.inv-render[aria-label="tree drawing"]');
    await expect
      .poll(() => drawing.locator('caption').textContent(), { timeout: 20_000 })
      .toBe('Tree before and after: 3 added · 1 removed · 2 moved · 8 unchanged');
    expect(await drawing.locator('thead th').allTextContents()).toEqual(['Before', 'After']);
    expect(await treeRows(drawing)).toEqual([
      '/ | /',
      'login | login',
      'dashboard | dashboard',
      '· | admin [added]',
      'users [moved to / › admin] | users [moved from /]',
      ':userId | :userId',
      'edit | edit',
      '· | audit-log [added]',
      'settings | settings',
      'profile | profile',
      '· | notifications [added]',
      'billing [moved to /] | billing [moved from / › settings]',
      'reports | reports',
      'legacy-export [removed] | ·',
    ]);
    // Indentation follows depth on each side: users under admin, :userId under users, edit under :userId.
    const after = drawing.locator('tbody td:nth-child(2) .inv-hier-name');
    const x = async (name: string) => (await after.filter({ hasText: new RegExp(`^${name}$`) }).boundingBox())!.x;
    expect(await x('admin')).toBeLessThan(await x('users'));
    expect(await x('users')).toBeLessThan(await x(':userId'));
    expect(await x(':userId')).toBeLessThan(await x('edit'));
    // The drawing sits above the diff, which is still there.
    await expect.poll(() => card.locator('section.inv-file[data-ref="src/routes.tsx"]').count()).toBe(1);
    await shoot('routes', 'User management moves under /admin', 'tree', 'tree-routes');
    await pages.light.screenshot({ path: path.join(SCREENSHOTS, 'tree-routes-page-light.png') });
  });

  it('reports a depth jump on the card and draws the entry at the depth given', async () => {
    const card = await openCard(pages.light, 'checkout', 'Checkout: payment becomes its own step');
    const drawing = card.locator('section.inv-render[aria-label="tree drawing"]');
    const report = drawing.locator('.inv-drawing-report');
    await expect
      .poll(() => report.textContent(), { timeout: 20_000 })
      .toContain('after, entry 8 “CardInput”: depth 4 right after depth 2');
    expect(await treeRows(drawing)).toEqual([
      'CheckoutPage | CheckoutPage',
      'CartSummary | CartSummary',
      'LineItem | LineItem',
      '· | CouponField [added]',
      '· | PaymentStep [added]',
      '· | WalletButtons [added]',
      'PaymentForm [moved to CheckoutPage › PaymentStep] | PaymentForm [moved from CheckoutPage]',
      'CardInput | CardInput [⚠ depth jump]',
      'PlaceOrderButton | PlaceOrderButton',
    ]);
    await shoot('checkout', 'Checkout: payment becomes its own step', 'tree', 'tree-depth-jump');
  });
});

describe('schema drawing', () => {
  it('gives each column of the orders table one row: what happened, the type before and after, the notes', async () => {
    const card = await openCard(pages.light, 'orders', 'Orders: status becomes an enum');
    const drawing = card.locator('section.inv-render[aria-label="schema drawing"]');
    await expect
      .poll(() => drawing.locator('caption').textContent(), { timeout: 20_000 })
      .toBe('Fields before and after: 2 added · 1 removed · 2 type changed · 3 unchanged');
    expect(await drawing.locator('thead th').allTextContents()).toEqual([
      'Field',
      'What happened',
      'Type before',
      'Type after',
      'Note',
    ]);
    const rows = await drawing
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent!.replace(/^[+−≠=] /, ''))),
      );
    expect(rows).toEqual([
      ['id', 'type changed', 'serial', 'bigserial', 'the sequence reaches 2³¹ next spring'],
      ['customer_id', 'unchanged', 'integer', 'integer', 'references customers (id)'],
      ['total', 'unchanged', 'numeric(10, 2)', 'numeric(10, 2)', ''],
      ['currency', 'added', '— (new field)', 'char(3)', "existing rows get 'USD'"],
      [
        'status',
        'type changed',
        'text',
        'order_status',
        "enum: pending, paid, refunded, void; backfilled with lower(status)before: free text: 'paid', 'Paid' and 'PAID' all occur",
      ],
      ['legacy_ref', 'removed', 'varchar(32)', '— (gone)', 'unused since the 2023 import'],
      ['created_at', 'unchanged', 'timestamp', 'timestamp', ''],
      ['paid_at', 'added', '— (new field)', 'timestamptz', 'null until the order is paid'],
    ]);
    await shoot('orders', 'Orders: status becomes an enum', 'schema', 'schema-orders');
  });
});

describe('table drawing', () => {
  it('shows every cell of the pricing table, null apart, and reports the ragged rows instead of dropping them', async () => {
    const card = await openCard(pages.light, 'pricing', 'New prices for new customers');
    const drawing = card.locator('section.inv-render[aria-label="table drawing"]');
    await expect.poll(() => drawing.locator('caption').textContent(), { timeout: 20_000 }).toBe('7 rows × 10 columns');
    expect(await drawing.locator('.inv-drawing-report').textContent()).toBe(
      '⚠ 2 rows do not have 10 cells, one per column: row 6 has 11 (1 extra, shown under “extra”); row 7 has 2 (8 missing, marked “no cell”).',
    );
    expect(await drawing.locator('thead th').allTextContents()).toEqual([
      '#',
      'Plan',
      'Monthly before',
      'Monthly after',
      'Yearly after',
      'Seats',
      'Storage',
      'Support',
      'Public',
      'Trial days',
      'Change',
      'extra',
    ]);
    const cells = (row: number) => drawing.locator(`tbody tr:nth-child(${row}) > *`).allTextContents();
    expect(await cells(2)).toEqual([
      '2',
      'Starter',
      '9',
      '12',
      '120',
      '3',
      '20 GB',
      'Email',
      'true',
      '14',
      '+$3 a month',
      '',
    ]);
    // The agent's markup is text: the extra cell shows the tags, and no <b> reaches the page.
    expect(await cells(6)).toEqual([
      '6 ⚠',
      'Nonprofit',
      'null',
      '0',
      '0',
      '10',
      '200 GB',
      'Email, 48 h',
      'false',
      '30',
      'new plan',
      'needs proof of status: <b>manual review</b>',
    ]);
    expect(await drawing.locator('b').count()).toBe(0);
    expect(await cells(7)).toEqual(['7 ⚠', 'Enterprise', 'contact sales', ...Array(8).fill('no cell'), '']);
    // null is drawn apart from text: its own class, not the plain text "null".
    expect(await drawing.locator('tbody tr:nth-child(6) td').nth(1).getAttribute('class')).toBe('inv-table-null');
    expect(await drawing.locator('td.inv-table-null').count()).toBe(3);
    await shoot('pricing', 'New prices for new customers', 'table', 'table-pricing');
  });

  it('scrolls a wide table inside the card, not the page', async () => {
    const page = pages.light;
    await page.setViewportSize({ width: 1000, height: 900 });
    try {
      const card = await openCard(page, 'pricing', 'New prices for new customers');
      const scroller = card.locator('.inv-table-scroll');
      await expect
        .poll(() => scroller.evaluate((el) => el.scrollWidth > el.clientWidth), { timeout: 20_000 })
        .toBe(true);
      expect(await scroller.getAttribute('role')).toBe('region');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await card
        .locator('section.inv-render')
        .screenshot({ path: path.join(SCREENSHOTS, 'table-pricing-scrolled-light.png') });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});

describe('a malformed payload', () => {
  const cases = [
    {
      kind: 'tree',
      id: 'routes-bad',
      title: 'Sidebar links follow the new routes',
      ref: 'src/routes.tsx',
      message:
        'The tree drawing is absent: payload.before.0.depth: each entry needs a depth, a whole number (0 at the top). The diff below shows the change.',
    },
    {
      kind: 'schema',
      id: 'orders-bad',
      title: 'Order status values in the API',
      ref: 'db/schema.sql',
      message:
        'The schema drawing is absent: payload.schema: expected { schema: { before: [...], after: [...] } }. The diff below shows the change.',
    },
    {
      kind: 'table',
      id: 'pricing-bad',
      title: 'Price list export',
      ref: 'config/pricing.json',
      message:
        'The table drawing is absent: payload.table.rows.0: each row is a list of cells. The diff below shows the change.',
    },
  ];
  for (const c of cases) {
    it(`falls back to the diff with a message (${c.kind})`, async () => {
      const card = await openCard(pages.light, c.id, c.title);
      await expect.poll(() => card.locator('p.inv-render-absent').textContent(), { timeout: 20_000 }).toBe(c.message);
      expect(await card.locator('section.inv-render').count()).toBe(0);
      await expect
        .poll(() => card.locator(`section.inv-file[data-ref="${c.ref}"] .inv-diff`).count(), { timeout: 20_000 })
        .toBe(1);
      if (c.kind === 'tree') {
        // The message and the top of the diff under it, clear of the sticky header.
        const absent = card.locator('p.inv-render-absent');
        await absent.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        const box = (await absent.boundingBox())!;
        const fileBox = (await card.locator('section.inv-file').first().boundingBox())!;
        const clip = { x: fileBox.x, y: box.y - 8, width: fileBox.width, height: 360 };
        await pages.light.screenshot({ path: path.join(SCREENSHOTS, 'malformed-tree-light.png'), clip });
      }
    });
  }
});
