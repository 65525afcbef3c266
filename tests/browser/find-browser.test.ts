import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BROWSER_VARIABLE,
  NO_BROWSER,
  SYSTEM_BROWSERS,
  findBrowser,
  launchOptions,
  packagedChromium,
  type BrowserSearch,
  type FoundBrowser,
} from '../helpers/find-browser';

const PACKAGED: FoundBrowser = {
  executablePath: '/cache/chromium-147/chromium',
  source: 'packaged',
  env: { LD_LIBRARY_PATH: '/cache/chromium-147/lib' },
};

/** A machine where exactly `installed` are executables, and the packaged browser is `packaged`. */
function machine(
  installed: string[],
  options: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; packaged?: FoundBrowser | null } = {},
): Partial<BrowserSearch> {
  return {
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    home: '/home/reader',
    executable: (file) => installed.includes(file),
    packaged: () => (options.packaged === undefined ? PACKAGED : options.packaged),
  };
}

describe('findBrowser: the variable, then the system places, then the packaged browser', () => {
  it(`takes ${BROWSER_VARIABLE} over an installed and a packaged browser`, () => {
    const found = findBrowser(
      machine(['/usr/bin/chromium', '/opt/chrome/mine'], { env: { [BROWSER_VARIABLE]: '/opt/chrome/mine' } }),
    );
    expect(found).toEqual({ executablePath: '/opt/chrome/mine', source: 'variable', env: {} });
  });

  it(`refuses a ${BROWSER_VARIABLE} that names no executable instead of quietly using another browser`, () => {
    expect(() =>
      findBrowser(machine(['/usr/bin/chromium'], { env: { [BROWSER_VARIABLE]: '/nowhere/chrome' } })),
    ).toThrow(`${BROWSER_VARIABLE} is /nowhere/chrome, which is not an executable file`);
  });

  it('takes the first installed system browser over the packaged one', () => {
    expect(findBrowser(machine(['/usr/bin/google-chrome', '/usr/bin/chromium']))).toEqual({
      executablePath: '/usr/bin/chromium',
      source: 'system',
      env: {},
    });
    expect(findBrowser(machine(['/opt/google/chrome/chrome']))).toMatchObject({
      executablePath: '/opt/google/chrome/chrome',
      source: 'system',
    });
  });

  it("looks in macOS's /Applications, then in the user's own Applications folder", () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findBrowser(machine([chrome, '/usr/bin/chromium'], { platform: 'darwin' }))).toMatchObject({
      executablePath: chrome,
      source: 'system',
    });
    expect(findBrowser(machine([`/home/reader${chrome}`], { platform: 'darwin' }))).toMatchObject({
      executablePath: `/home/reader${chrome}`,
      source: 'system',
    });
  });

  it('falls back to the packaged browser when no system place holds one', () => {
    expect(findBrowser(machine([]))).toEqual(PACKAGED);
    expect(findBrowser(machine(['/Applications/Chromium.app/Contents/MacOS/Chromium']))).toEqual(PACKAGED);
  });

  it('fails with one sentence saying how to provide a browser when there is none', () => {
    expect(() => findBrowser(machine([], { packaged: null }))).toThrow(NO_BROWSER);
    expect(NO_BROWSER).toContain(BROWSER_VARIABLE);
    expect(NO_BROWSER.split('. ')).toHaveLength(1);
  });

  it('passes the packaged browser its libraries, and launches system browsers with the inherited environment', () => {
    expect(launchOptions(PACKAGED).env).toMatchObject({
      LD_LIBRARY_PATH: '/cache/chromium-147/lib',
      PATH: process.env.PATH,
    });
    expect(launchOptions({ executablePath: '/usr/bin/chromium', source: 'system', env: {} })).toEqual({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: expect.arrayContaining(['--no-sandbox', '--disable-gpu']),
    });
  });

  it('knows the Linux and macOS places of Chromium and Chrome', () => {
    expect(SYSTEM_BROWSERS.linux).toEqual(expect.arrayContaining(['/usr/bin/chromium', '/usr/bin/google-chrome']));
    expect(SYSTEM_BROWSERS.darwin).toEqual(
      expect.arrayContaining(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']),
    );
  });
});

// The fallback a machine without a browser relies on, run on every Linux x64 machine
// (where the package ships its binary) so it keeps working where a system browser exists too.
describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the packaged browser', () => {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'involut-packaged-browser-'));
  afterAll(() => rmSync(profile, { recursive: true, force: true }));

  it("unpacks, launches headless with the tests' flags, and renders a page", async () => {
    const packaged = packagedChromium();
    expect(packaged, '@sparticuz/chromium is a dev dependency; npm ci installs it').not.toBeNull();
    const context = await chromium.launchPersistentContext(profile, launchOptions(packaged!));
    try {
      const page = await context.newPage();
      await page.setContent('<p style="font: 16px sans-serif">Cards may only add, never hide.</p>');
      expect(await page.locator('p').textContent()).toBe('Cards may only add, never hide.');
      expect(await page.locator('p').evaluate((p) => p.getBoundingClientRect().width)).toBeGreaterThan(100);
    } finally {
      await context.close();
    }
  });
});
