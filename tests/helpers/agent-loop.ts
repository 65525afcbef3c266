/**
 * The review loop end to end: a scripted agent working in a real git repository through
 * the built CLI, the real server, and headless Chromium. The agent writes files
 * the way an agent does (a temporary file, then a rename) and never writes notes.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CLI, SCREENSHOTS } from './browser';
import { launchBrowser } from './find-browser';
import { startLive } from './server';

const made: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder this helper made. */
export function removeLoopDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** No ambient GIT_*, and a HOME, config and server state folder of the test's own. */
function childEnv(): NodeJS.ProcessEnv {
  const home = tempDir('involut-loop-home-');
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

export interface Agent {
  dir: string;
  /** `involut rounds --begin`. */
  begin: () => void;
  /** `involut rounds`. */
  rounds: () => void;
  /** Writes a file of the working tree through a temporary name and a rename. */
  write: (file: string, content: string) => void;
  remove: (file: string) => void;
  read: (file: string) => string;
  /** Writes `.review/cards.json` the same way. */
  writeCards: (cards: unknown) => void;
  /** `.review/notes.json` as the agent reads it; null while there is none. */
  notes: () => {
    notes: Record<
      string,
      { text: string; title: string; refs: string[]; quote?: string; kind?: string; at: string } & {
        resolvedAt?: string;
        earlier?: Array<{ text: string; at: string; answeredBy: Array<{ id: string; title: string }> }>;
      }
    >;
  } | null;
  /** `.review/material.json`, parsed. */
  material: () => { source: { round: number }; material: Array<{ ref: string; diff: string | null }> };
}

/** A repository with `files` committed, and the agent that will work in it. */
export function startAgent(files: Record<string, string>): Agent {
  const dir = tempDir('involut-loop-repo-');
  const env = childEnv();
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const atomic = (file: string, content: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.agent.tmp`);
    writeFileSync(temporary, content);
    renameSync(temporary, file);
  };
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [CLI, ...args, '--quiet', '--repo', dir], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git('init', '--quiet', '-b', 'main');
  git('config', 'user.name', 'Involut Loop');
  git('config', 'user.email', 'loop@involut.invalid');
  git('config', 'commit.gpgsign', 'false');
  for (const [file, content] of Object.entries(files)) atomic(path.join(dir, file), content);
  git('add', '--all');
  git('commit', '--quiet', '-m', 'base');
  const review = (file: string) => path.join(dir, '.review', file);
  return {
    dir,
    begin: () => void cli('rounds', '--begin'),
    rounds: () => void cli('rounds'),
    write: (file, content) => atomic(path.join(dir, file), content),
    remove: (file) => rmSync(path.join(dir, file)),
    read: (file) => readFileSync(path.join(dir, file), 'utf8'),
    writeCards: (cards) => atomic(review('cards.json'), `${JSON.stringify(cards, null, 2)}\n`),
    notes: () => (existsSync(review('notes.json')) ? JSON.parse(readFileSync(review('notes.json'), 'utf8')) : null),
    material: () => JSON.parse(readFileSync(review('material.json'), 'utf8')),
  };
}

export interface Viewer {
  page: Page;
  /** Uncaught errors of the page. */
  errors: string[];
  screenshot: (name: string) => Promise<void>;
  close: () => Promise<void>;
}

/** `involut serve` on any free port for the agent's repository, and a headless Chromium page on its URL. */
export async function openViewer(agent: Agent): Promise<Viewer> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run \`npm run build\` first.`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const server = await startLive(agent.dir, childEnv());
  let browser: Browser | null = null;
  const stop = async () => {
    await browser?.close();
    await server.stop();
  };
  try {
    browser = await launchBrowser();
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
    await page.goto(server.url);
    await page.locator('.inv-layout').waitFor({ state: 'visible' });
    return {
      page,
      errors,
      screenshot: async (name) => void (await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) })),
      close: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
