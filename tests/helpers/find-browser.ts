/**
 * Where the browser tests (and the benchmarks) get their Chromium: the one place that
 * knows. In order: `INVOLUT_CHROMIUM`, the usual places of Chromium and Chrome on Linux
 * and macOS, then the Chromium that `@sparticuz/chromium` (a dev dependency) ships inside
 * its npm package, unpacked once into `node_modules/.cache`. No vitest here, so a plain
 * script can use it.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** The variable naming a Chromium or Chrome executable; it wins over every other place. */
export const BROWSER_VARIABLE = 'INVOLUT_CHROMIUM';

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where Chromium and Chrome are installed by the usual packages, in the order they are tried. */
export const SYSTEM_BROWSERS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/opt/google/chrome/chrome',
  ],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  ],
};

export const NO_BROWSER =
  `No Chromium or Chrome was found for the browser tests: set ${BROWSER_VARIABLE} to a Chromium or Chrome executable, ` +
  'install one (on Debian `apt-get install chromium`), or run `npm ci` on Linux x64 to get the packaged one (@sparticuz/chromium).';

export interface FoundBrowser {
  executablePath: string;
  /** Which place it came from. */
  source: 'variable' | 'system' | 'packaged';
  /** Variables the browser needs besides the inherited ones (the packaged one's libraries and fonts). */
  env: Record<string, string>;
}

/** What the search looks at; each part can be replaced (the order's own test does). */
export interface BrowserSearch {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  /** Is there an executable file here? */
  executable: (file: string) => boolean;
  /** The packaged browser, unpacked; null where the package is missing or ships no binary for this machine. */
  packaged: () => FoundBrowser | null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const defaults: BrowserSearch = {
  env: process.env,
  platform: process.platform,
  home: process.env.HOME ?? '',
  executable: isExecutable,
  packaged: packagedChromium,
};

/** The browser to drive, or an error whose message says how to provide one. */
export function findBrowser(search: Partial<BrowserSearch> = {}): FoundBrowser {
  const { env, platform, home, executable, packaged } = { ...defaults, ...search };
  const named = env[BROWSER_VARIABLE];
  if (named) {
    if (!executable(named))
      throw new Error(
        `${BROWSER_VARIABLE} is ${named}, which is not an executable file: point it at a Chromium or Chrome executable, or unset it.`,
      );
    return { executablePath: named, source: 'variable', env: {} };
  }
  const system = SYSTEM_BROWSERS[platform] ?? [];
  const places = platform === 'darwin' ? [...system, ...system.map((app) => path.join(home, app))] : system;
  const installed = places.find((place) => executable(place));
  if (installed) return { executablePath: installed, source: 'system', env: {} };
  const fromPackage = packaged();
  if (fromPackage) return fromPackage;
  throw new Error(NO_BROWSER);
}

/** playwright-core's launch options for the browser `findBrowser` picks: headless, with the tests' flags. */
export function launchOptions(found: FoundBrowser = findBrowser()): LaunchOptions {
  const options: LaunchOptions = { executablePath: found.executablePath, headless: true, args: LAUNCH_ARGS };
  if (Object.keys(found.env).length > 0) options.env = { ...process.env, ...found.env };
  return options;
}

/** Launches the browser `findBrowser` picks. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

/**
 * `@sparticuz/chromium` ships a Linux x64 headless Chromium as brotli files: the binary,
 * its GL libraries, the NSS libraries it links (for machines without them) and a font.
 * They are unpacked once per package version into node_modules/.cache, into a folder of
 * the caller's own then renamed into place, so test files starting together never see a
 * half-written binary.
 */
export function packagedChromium(): FoundBrowser | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  let root: string;
  try {
    root = packageRoot(createRequire(import.meta.url).resolve('@sparticuz/chromium'));
  } catch {
    return null;
  }
  const bin = path.join(root, 'bin');
  if (!existsSync(path.join(bin, 'chromium.br'))) return null;
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const dir = path.join(PROJECT, 'node_modules', '.cache', 'involut', `chromium-${version}`);
  if (!existsSync(path.join(dir, 'chromium'))) unpack(bin, dir);
  const env: Record<string, string> = {
    LD_LIBRARY_PATH: [path.join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
  };
  // A machine with no fontconfig setup of its own gets the package's font.
  if (!existsSync('/etc/fonts/fonts.conf')) env.FONTCONFIG_FILE = path.join(dir, 'fonts.conf');
  return { executablePath: path.join(dir, 'chromium'), source: 'packaged', env };
}

function packageRoot(entry: string): string {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && path.basename(path.dirname(dir)) === '@sparticuz') return dir;
  }
  throw new Error(`no package folder above ${entry}`);
}

function unpack(bin: string, dir: string): void {
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(path.join(temp, 'lib'), { recursive: true });
  writeFileSync(path.join(temp, 'chromium'), brotliDecompressSync(readFileSync(path.join(bin, 'chromium.br'))), {
    mode: 0o755,
  });
  const untar = (file: string, into: string) =>
    execFileSync('tar', ['-x', '-C', into], { input: brotliDecompressSync(readFileSync(path.join(bin, file))) });
  untar('swiftshader.tar.br', temp); // libGLESv2.so and friends, beside the binary where it looks for them
  untar('al2023.tar.br', temp); // lib/: libnss3 and the rest
  untar('fonts.tar.br', temp); // fonts/ (and a fonts.conf naming the package's own folders, replaced below)
  writeFileSync(
    path.join(temp, 'fonts.conf'),
    `<?xml version="1.0"?>\n<fontconfig><dir>${path.join(dir, 'fonts')}</dir><cachedir>${path.join(dir, 'fonts-cache')}</cachedir></fontconfig>\n`,
  );
  try {
    renameSync(temp, dir);
  } catch (error) {
    // Another process unpacked it first: theirs is complete, since it too was renamed whole.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(path.join(dir, 'chromium'))) throw error;
  }
}
