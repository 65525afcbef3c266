/**
 * End-to-end harness: the built viewer served by the real built CLI (`involut serve`)
 * over a real git repository made from a fixture recipe, driven in headless Chromium
 * (find-browser.ts says which one) through playwright-core. One browser per test file,
 * one repository and one server per scenario, a fresh browser context (fresh
 * localStorage) per scenario. Nothing is mocked.
 */
import { execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser } from './find-browser';
import { startLive } from './server';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(PROJECT, 'dist/server/cli.js');
export const FIXTURES = path.join(PROJECT, 'fixtures');
export const SCREENSHOTS = path.join(PROJECT, 'tests/e2e/screenshots');
const WEB_INDEX = path.join(PROJECT, 'dist/web/index.html');

/** A fixture's repository recipe (`fixtures/<name>/recipe.json`). */
interface Recipe {
  /** Message of the first commit, made of `base/`. */
  base: string;
  /** Uncommitted renames, done before `working/` is laid over the tree. */
  rename?: Array<[string, string]>;
  /** Uncommitted deletions. */
  delete?: string[];
  /** Files written by the test (names a checkout cannot hold everywhere). */
  write?: Record<string, string>;
}

export interface FixtureRepo {
  dir: string;
  git: (...args: string[]) => string;
  /** Writes a file of the working tree, creating its folders. */
  write: (file: string, content: string) => void;
  read: (file: string) => string;
  /** Absolute path of a file in `.review/`. */
  review: (file: string) => string;
  /** `involut rounds` (the real emitter, built CLI). */
  rounds: () => void;
  /** Writes `.review/cards.json` as an agent should: a temporary file, then a rename. */
  writeCards: (content: unknown) => void;
  /** `.review/material.json`, parsed. */
  material: () => {
    material: Array<{ ref: string; status: string; diff: string | null; hash: string; from?: string }>;
  };
  /** `.review/notes.json`, parsed; null while it does not exist. */
  notes: () => {
    notes: Record<string, { text: string; title: string; refs: string[]; quote?: string; at: string }>;
  } | null;
}

export interface Scenario {
  repo: FixtureRepo;
  page: Page;
  context: BrowserContext;
  url: string;
  /** Uncaught errors of the page (`pageerror`); any one fails the test. */
  errors: string[];
  /** Every dialog (alert, confirm, prompt) the page opened. */
  dialogs: string[];
  /**
   * Saves `tests/e2e/screenshots/<name>.png`: what the reader sees in the window, or the
   * whole page from the top (sticky bars are drawn where the scroll left them otherwise).
   */
  screenshot: (name: string, options?: { fullPage?: boolean }) => Promise<void>;
  /** Reloads and waits for the viewer to show the round again. */
  reload: () => Promise<void>;
}

export interface OpenOptions {
  /**
   * What `.review/cards.json` starts as: the fixture's `cards.json` (default), none,
   * or this exact text.
   */
  cards?: 'fixture' | 'none' | { text: string };
  /** Run before the server starts, after `rounds` and the cards. */
  prepare?: (repo: FixtureRepo) => void;
  /** Run with the page before it opens the viewer (to follow its requests from the first). */
  onPage?: (page: Page) => void;
  /**
   * A repository built before (`buildRepo`, its round captured), served as it is: for the
   * tests of a file that read the same large round and change nothing in it. `cards` and
   * `prepare` do not apply.
   */
  repo?: FixtureRepo;
}

const made: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Children's environment: no ambient GIT_*, a HOME, config and server state folder of their own. */
function childEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    INVOLUT_STATE_DIR: path.join(home, 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

/** Builds `fixtures/<name>`'s repository in a temporary folder: `base/` committed, then the round left uncommitted. */
export function buildRepo(name: string): FixtureRepo {
  const fixture = path.join(FIXTURES, name);
  const recipe = JSON.parse(readFileSync(path.join(fixture, 'recipe.json'), 'utf8')) as Recipe;
  const dir = tempDir(`involut-e2e-${name}-`);
  const env = childEnv(tempDir('involut-e2e-home-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };
  git('init', '--quiet', '-b', 'main');
  git('config', 'user.name', 'Involut E2E');
  git('config', 'user.email', 'e2e@involut.invalid');
  git('config', 'commit.gpgsign', 'false');
  cpSync(path.join(fixture, 'base'), dir, { recursive: true });
  git('add', '--all');
  git('commit', '--quiet', '--no-verify', '-m', recipe.base);
  for (const [from, to] of recipe.rename ?? []) {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    renameSync(path.join(dir, from), path.join(dir, to));
  }
  if (existsSync(path.join(fixture, 'working'))) cpSync(path.join(fixture, 'working'), dir, { recursive: true });
  for (const file of recipe.delete ?? []) rmSync(path.join(dir, file));
  for (const [file, content] of Object.entries(recipe.write ?? {})) write(file, content);

  const review = (file: string) => path.join(dir, '.review', file);
  return {
    dir,
    git,
    write,
    read: (file) => readFileSync(path.join(dir, file), 'utf8'),
    review,
    rounds: () => {
      execFileSync(process.execPath, [CLI, 'rounds', '--quiet', '--repo', dir], {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    },
    writeCards: (content) => {
      const text = typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
      const temp = review(`.cards.json.${process.pid}.tmp`);
      writeFileSync(temp, text);
      renameSync(temp, review('cards.json'));
    },
    material: () => JSON.parse(readFileSync(review('material.json'), 'utf8')),
    notes: () => (existsSync(review('notes.json')) ? JSON.parse(readFileSync(review('notes.json'), 'utf8')) : null),
  };
}

/** The fixture's cards.json, parsed. */
export function fixtureCards(
  name: string,
  file = 'cards.json',
): { contract: 1; request?: string; cards: Array<Record<string, unknown>> } {
  return JSON.parse(readFileSync(path.join(FIXTURES, name, file), 'utf8'));
}

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stop(): Promise<void>;
}

/** Starts the built CLI's server on any free port (tests/helpers/server.ts) with an environment of its own. */
async function serve(repo: FixtureRepo): Promise<Served> {
  const server = await startLive(repo.dir, childEnv(tempDir('involut-e2e-home-')));
  if (!/#token=/.test(server.url)) throw new Error(`the server's first line is not the viewer URL: ${server.url}`);
  return { child: server.child, url: server.url, stop: async () => void (await server.stop()) };
}

/**
 * Registers the file's hooks (one browser for the file; after each test its contexts
 * closed, its servers stopped, and a failure if the page threw; temp folders removed
 * at the end) and returns `open`, which starts one scenario.
 */
export function e2e(): { open: (fixture: string, options?: OpenOptions) => Promise<Scenario> } {
  let browser: Browser | null = null;
  const scenarios: Array<{ scenario: Scenario; server: Served }> = [];

  beforeAll(async () => {
    for (const file of [CLI, WEB_INDEX])
      if (!existsSync(file)) throw new Error(`${file} is missing; run \`npm run build\` first.`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchBrowser();
  });

  afterEach(async () => {
    const done = scenarios.splice(0);
    await Promise.all(done.map(({ scenario }) => scenario.context.close().catch(() => {})));
    await Promise.all(done.map(({ server }) => server.stop()));
    for (const { scenario } of done) expect(scenario.errors, 'uncaught errors in the page').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function open(fixture: string, options: OpenOptions = {}): Promise<Scenario> {
    if (!browser) throw new Error('the browser is not running (beforeAll failed?)');
    const repo = options.repo ?? buildRepo(fixture);
    if (!options.repo) {
      repo.rounds();
      const cards = options.cards ?? 'fixture';
      if (cards === 'fixture') repo.writeCards(readFileSync(path.join(FIXTURES, fixture, 'cards.json'), 'utf8'));
      else if (cards !== 'none') repo.writeCards(cards.text);
      options.prepare?.(repo);
    }
    // A fresh context (its own localStorage) is made while the server starts.
    const [server, context] = await Promise.all([
      serve(repo),
      browser.newContext({ viewport: { width: 1280, height: 900 } }),
    ]);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    const dialogs: string[] = [];
    page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => {});
    });
    const ready = async () => {
      try {
        await page.locator('.inv-layout').waitFor({ state: 'visible', timeout: 10_000 });
      } catch (error) {
        const shown = await page.evaluate(() => document.body?.innerText.slice(0, 400)).catch(() => '(unreadable)');
        throw new Error(
          `the viewer did not show the round within 10 s; the page reads: ${JSON.stringify(shown)}; page errors: ${JSON.stringify(errors)}`,
          { cause: error },
        );
      }
    };
    const scenario: Scenario = {
      repo,
      page,
      context,
      url: server.url,
      errors,
      dialogs,
      screenshot: async (name, { fullPage = false } = {}) => {
        if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
      },
      reload: async () => {
        await page.reload();
        await ready();
      },
    };
    scenarios.push({ scenario, server });
    options.onPage?.(page);
    await page.goto(server.url);
    await ready();
    return scenario;
  }

  return { open };
}

/** Polls `read` until `check` accepts what it returns (or throws with the last value after `timeoutMs`). */
export async function until<T>(
  read: () => T,
  check: (value: T) => boolean,
  what: string,
  timeoutMs = PATIENCE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = read();
  while (!check(last)) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms; last seen ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    last = read();
  }
  return last;
}

/**
 * How long a test waits for something the page does on its own. Far above what a quiet
 * machine needs (well under a second), so a CI machine running every suite at once
 * fails only when the behaviour is really missing.
 */
const PATIENCE_MS = 10_000;

/** vitest's `expect.poll` with a patience fit for a page that draws lazily and updates live. */
export function eventually<T>(read: () => T | Promise<T>, timeout = PATIENCE_MS) {
  return expect.poll(read, { timeout, interval: 50 });
}

/** A locator's text as the DOM holds it (no CSS text-transform), trimmed. */
export async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/** The trimmed text of every element a locator matches. */
export async function texts(locator: Locator): Promise<string[]> {
  return (await locator.allTextContents()).map((t) => t.trim());
}

/** The new-side number and exact diff text of the first line of `diff` that contains `needle`. */
export function newSideLine(diff: string, needle: string): { text: string; number: number } {
  let next = 0;
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line);
    if (hunk) {
      next = Number(hunk[1]);
      continue;
    }
    if (line.includes(needle)) return { text: line, number: next };
    if (!line.startsWith('-') && !line.startsWith('\\')) next++;
  }
  throw new Error(`no diff line contains ${needle}`);
}

/**
 * A file's row in Raw mode's tree, scrolled into the tree's view first: the tree draws
 * only the rows in its view, so a row far down is not in the page until then.
 */
export async function treeRow(page: Page, ref: string): Promise<Locator> {
  const row = page.locator(`nav[aria-label="Changed files"] .inv-tree-file[title=${JSON.stringify(ref)}]`);
  await page.locator('nav[aria-label="Changed files"] [role="tree"]').waitFor();
  await page.evaluate(
    async (selector) => {
      const tree = document.querySelector('nav[aria-label="Changed files"]')!;
      for (let top = 0; !document.querySelector(selector) && top <= tree.scrollHeight; top += tree.clientHeight / 2) {
        tree.scrollTop = top;
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      }
    },
    `nav[aria-label="Changed files"] .inv-tree-file[title=${JSON.stringify(ref)}]`,
  );
  return row;
}
