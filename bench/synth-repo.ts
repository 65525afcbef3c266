import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodePng } from './png';

/**
 * The synthetic repository `npm run bench` measures, built once and cached by version:
 * a base commit with 2,000 TS-like files (~100 lines each), one large file and 20 PNGs,
 * then a working state (not committed, not staged) where every one of them changed.
 * Bump VERSION whenever the shape below changes, so a stale cache is rebuilt.
 */
const VERSION = 'rounds-v2';

const SHAPE = {
  files: 2_000,
  linesPerFile: 100,
  changedPerFile: 20,
  largeChanged: 50_000,
  /** The large file is made of blocks: `largeBlock` changed lines, then `largeGap` kept ones. */
  largeBlock: 10,
  largeGap: 8,
  images: 20,
  imageSide: 256,
};

export interface SynthRepo {
  dir: string;
  base: string;
  /** The pack files holding the base (every other object is a capture's). */
  basePacks: string[];
  version: string;
  built: boolean;
  stats: {
    textFiles: number;
    largeLines: number;
    largeBytes: number;
    images: number;
    imageBytes: { min: number; max: number; total: number };
  };
}

/** A small, fast, seedable PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'value',
  'result',
  'items',
  'count',
  'index',
  'node',
  'entry',
  'config',
  'options',
  'state',
  'buffer',
  'offset',
  'total',
  'limit',
  'cache',
  'key',
  'record',
  'payload',
  'handler',
  'source',
  'target',
  'path',
  'name',
  'size',
  'width',
  'height',
  'depth',
  'parent',
  'child',
  'left',
  'right',
  'first',
  'last',
  'next',
  'prev',
  'token',
];
const TYPES = [
  'string',
  'number',
  'boolean',
  'Buffer',
  'Map<string, number>',
  'string[]',
  'Record<string, unknown>',
  'Node | null',
];
const CALLS = [
  'compute',
  'resolve',
  'normalize',
  'render',
  'parse',
  'merge',
  'update',
  'collect',
  'lookup',
  'transform',
];

/** One line of TypeScript-looking code, 40–100 characters. */
function codeLine(rand: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const indent = '  '.repeat(1 + Math.floor(rand() * 3));
  const a = pick(WORDS);
  const b = pick(WORDS);
  const c = pick(WORDS);
  const n = Math.floor(rand() * 1000);
  let line: string;
  switch (Math.floor(rand() * 6)) {
    case 0:
      line = `${indent}const ${a}${n}: ${pick(TYPES)} = ${pick(CALLS)}(${b}, ${c}.${pick(WORDS)} + ${n});`;
      break;
    case 1:
      line = `${indent}if (${a}.${b} > ${n} && ${c} !== undefined) return ${pick(CALLS)}(${a}, ${c});`;
      break;
    case 2:
      line = `${indent}for (const ${a} of ${b}.${pick(WORDS)}s) ${c}.set(${a}.${pick(WORDS)}, ${a}.${pick(WORDS)} * ${n});`;
      break;
    case 3:
      line = `${indent}${a}.${b} = await this.${pick(CALLS)}${pick(CALLS)}(${c}, { ${pick(WORDS)}: ${n} });`;
      break;
    case 4:
      line = `${indent}// ${pick(CALLS)} the ${a} from the ${b} before the ${c} changes (${n})`;
      break;
    default:
      line = `${indent}export function ${pick(CALLS)}${a[0]!.toUpperCase()}${a.slice(1)}${n}(${b}: ${pick(TYPES)}): ${pick(TYPES)} {`;
  }
  while (line.length < 40) line += ` // ${pick(WORDS)}`;
  return line.length > 100 ? line.slice(0, 100) : line;
}

function textFilePath(i: number): string {
  const pkg = Math.floor(i / 100);
  const area = Math.floor((i % 100) / 20);
  return `src/pkg${String(pkg).padStart(2, '0')}/area${area}/module${String(i).padStart(4, '0')}.ts`;
}

const LARGE_FILE = 'data/large-table.ts';
const imagePath = (i: number) => `assets/img/sprite${String(i).padStart(2, '0')}.png`;

/** The base lines of a text file and the same file in the working state. */
function textFile(i: number): { before: string; after: string } {
  const rand = prng(1000 + i);
  const lines = Array.from({ length: SHAPE.linesPerFile }, () => codeLine(rand));
  const after = [...lines];
  // Two blocks of 10 replaced lines, far enough apart to make two hunks.
  const half = SHAPE.changedPerFile / 2;
  const first = 5 + Math.floor(rand() * 30);
  const second = 55 + Math.floor(rand() * 30);
  for (const start of [first, second]) {
    for (let k = start; k < start + half; k++) after[k] = codeLine(rand);
  }
  return { before: `${lines.join('\n')}\n`, after: `${after.join('\n')}\n` };
}

function largeFile(): { before: string; after: string; lines: number } {
  const rand = prng(7);
  const blocks = SHAPE.largeChanged / SHAPE.largeBlock;
  const before: string[] = [];
  const after: string[] = [];
  for (let b = 0; b < blocks; b++) {
    for (let k = 0; k < SHAPE.largeBlock; k++) {
      before.push(codeLine(rand));
      after.push(codeLine(rand));
    }
    for (let k = 0; k < SHAPE.largeGap; k++) {
      const kept = codeLine(rand);
      before.push(kept);
      after.push(kept);
    }
  }
  return { before: `${before.join('\n')}\n`, after: `${after.join('\n')}\n`, lines: before.length };
}

/**
 * A 256×256 picture: a gradient, a few discs, and noise whose density grows with the
 * image number (so the files run from a few KB to tens of KB). `changed` repaints a
 * band and shifts the palette, as an edited sprite would be.
 */
function image(i: number, changed: boolean): Buffer {
  const side = SHAPE.imageSide;
  const rand = prng(5000 + i);
  const noise = 0.005 + (i / (SHAPE.images - 1)) * 0.12;
  const discs = Array.from({ length: 4 }, () => ({
    x: rand() * side,
    y: rand() * side,
    r: 20 + rand() * 50,
    c: [rand() * 255, rand() * 255, rand() * 255],
  }));
  const rgb = new Uint8Array(side * side * 3);
  const editRand = prng(9000 + i);
  const band = { y0: Math.floor(editRand() * side * 0.6), h: 30 + Math.floor(editRand() * 40) };
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      let r = (x * 255) / side;
      let g = (y * 255) / side;
      let b = ((x + y) * 127) / side;
      for (const d of discs) {
        if ((x - d.x) ** 2 + (y - d.y) ** 2 < d.r ** 2) [r, g, b] = d.c as [number, number, number];
      }
      if (rand() < noise) {
        r = rand() * 255;
        g = rand() * 255;
        b = rand() * 255;
      }
      if (changed) {
        if (y >= band.y0 && y < band.y0 + band.h) [r, b] = [255 - r, (b + 90) % 255];
        else [r, g] = [g, r];
      }
      const at = (y * side + x) * 3;
      rgb[at] = r;
      rgb[at + 1] = g;
      rgb[at + 2] = b;
    }
  }
  return encodePng(side, side, rgb);
}

function write(dir: string, file: string, data: string | Buffer): void {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, data);
}

/** git with no ambient GIT_* variables and no user or system config getting in the way. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8', maxBuffer: 1 << 26 });
}

interface Marker {
  version: string;
  base: string;
  basePacks: string[];
  stats: SynthRepo['stats'];
}

/**
 * Returns the cached repository under `root`, building it first when missing or stale.
 * `files` text files instead of SHAPE.files make a wider round of the same kind (its own folder).
 */
export function synthRepo(root: string, log: (line: string) => void, files: number = SHAPE.files): SynthRepo {
  const dir = path.join(root, files === SHAPE.files ? `repo-${VERSION}` : `repo-${VERSION}-${files}-files`);
  const markerFile = path.join(dir, '.git', 'involut-bench.json');
  if (existsSync(markerFile)) {
    const marker = JSON.parse(readFileSync(markerFile, 'utf8')) as Marker;
    if (marker.version === VERSION)
      return {
        dir,
        base: marker.base,
        basePacks: marker.basePacks,
        version: VERSION,
        built: false,
        stats: marker.stats,
      };
  }
  log(`building the synthetic repository in ${dir} …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  for (const [key, value] of [
    ['user.name', 'Bench'],
    ['user.email', 'bench@example.invalid'],
    ['commit.gpgsign', 'false'],
    ['gc.auto', '0'],
  ]) {
    git(dir, ['config', key!, value!]);
  }

  const afters: Array<[string, string | Buffer]> = [];
  for (let i = 0; i < files; i++) {
    const { before, after } = textFile(i);
    write(dir, textFilePath(i), before);
    afters.push([textFilePath(i), after]);
  }
  const large = largeFile();
  write(dir, LARGE_FILE, large.before);
  afters.push([LARGE_FILE, large.after]);
  const imageSizes: number[] = [];
  for (let i = 0; i < SHAPE.images; i++) {
    const before = image(i, false);
    const after = image(i, true);
    imageSizes.push(before.length, after.length);
    write(dir, imagePath(i), before);
    afters.push([imagePath(i), after]);
  }
  write(dir, 'README.md', '# Synthetic repository for `npm run bench`\n');

  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'base']);
  git(dir, ['tag', 'bench-base']);
  // The base lives in one pack: every loose object is then a capture's, and can be cleared between runs.
  git(dir, ['repack', '-a', '-d', '-q']);
  git(dir, ['prune-packed']);
  const base = git(dir, ['rev-parse', 'HEAD']).trim();
  const basePacks = readdirSync(path.join(dir, '.git', 'objects', 'pack'));

  // The working state: modified in place, neither staged nor committed.
  for (const [file, data] of afters) write(dir, file, data);

  const stats: SynthRepo['stats'] = {
    textFiles: files,
    largeLines: large.lines,
    largeBytes: Buffer.byteLength(large.after),
    images: SHAPE.images,
    imageBytes: {
      min: Math.min(...imageSizes),
      max: Math.max(...imageSizes),
      total: imageSizes.reduce((a, b) => a + b, 0),
    },
  };
  writeFileSync(markerFile, JSON.stringify({ version: VERSION, base, basePacks, stats } satisfies Marker, null, 2));
  return { dir, base, basePacks, version: VERSION, built: true, stats };
}

/**
 * Puts the repository back to "nothing captured yet": no `.review/`, no `refs/involut/*`
 * and (unless `keepObjects`) none of the objects earlier captures stored, neither loose
 * files nor packs other than the base's. The loose-object folders stay, as in any
 * repository in use.
 */
export function resetRepo(repo: SynthRepo, env: NodeJS.ProcessEnv, keepObjects = false): void {
  rmSync(path.join(repo.dir, '.review'), { recursive: true, force: true });
  for (const name of readdirSync(path.join(repo.dir, '.git'))) {
    if (/^involut-(captured|index)\./.test(name)) rmSync(path.join(repo.dir, '.git', name), { force: true });
  }
  const run = (args: string[]) => execFileSync('git', args, { cwd: repo.dir, env, encoding: 'utf8' });
  for (const ref of run(['for-each-ref', '--format=%(refname)', 'refs/involut/']).split('\n').filter(Boolean)) {
    run(['update-ref', '-d', ref]);
  }
  if (keepObjects) return;
  const objects = path.join(repo.dir, '.git', 'objects');
  for (const name of readdirSync(objects)) {
    if (!/^[0-9a-f]{2}$/.test(name)) continue;
    for (const file of readdirSync(path.join(objects, name))) rmSync(path.join(objects, name, file), { force: true });
  }
  for (const name of readdirSync(path.join(objects, 'pack'))) {
    if (!repo.basePacks.includes(name)) rmSync(path.join(objects, 'pack', name), { force: true });
  }
}
