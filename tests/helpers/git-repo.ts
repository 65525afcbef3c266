/**
 * Real git repositories in temporary folders, the built CLI, and the few byte-level
 * tools the emitter tests need (a PNG encoder, git's own diff of one file).
 * Nothing here mocks git or the file system.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { Material, type MaterialEntry } from '../../schemas/material';
import type { BaseOptions } from '../../server/round/base';
import { emitRound, type RoundSummary } from '../../server/round/material';
import { openRepo } from '../../server/git/repo';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(PROJECT_ROOT, 'dist/server/cli.js');

const made: string[] = [];

/** A new empty folder under the system's temp folder, removed by `cleanup()`. */
export function tempDir(prefix = 'involut-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Removes every folder `tempDir` and `makeRepo` made in this worker; each test file
 * calls it in `afterAll` (vitest's workers do not always run exit handlers).
 */
export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
process.once('exit', cleanup); // best effort, for a run cut short

/**
 * Keeps the machine's git and Involut config out of the tests: a fresh HOME and
 * XDG_CONFIG_HOME (no ~/.gitconfig, no ~/.config/involut/config.json) and no ambient
 * GIT_* variables (a hook's GIT_DIR would redirect every command). Per test worker;
 * once `cleanup()` removed the folder, git simply finds no global config there.
 */
const home = tempDir('involut-emit-home-');
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = path.join(home, '.config');
for (const key of Object.keys(process.env)) if (key.startsWith('GIT_')) delete process.env[key];

export interface TempRepo {
  /** The working tree's top level. */
  dir: string;
  /** Absolute path of a file in the working tree. */
  path(file: string): string;
  /** Runs git in the working tree (or `cwd`) and returns stdout as text. */
  git(args: string[], cwd?: string): string;
  /** Runs git and returns stdout's exact bytes. */
  gitBytes(args: string[], cwd?: string): Buffer;
  /** Writes a file, creating its folders. */
  write(file: string, content: string | Buffer): void;
  read(file: string): Buffer;
  remove(file: string): void;
  symlink(target: string, file: string): void;
  /** `git mv`, creating the destination's folder first. */
  move(from: string, to: string): void;
  chmod(file: string, mode: number): void;
  /** `git add --all` then commits; returns the new commit id. */
  commit(message: string): string;
  /** Full id of a revision (HEAD by default). */
  rev(revision?: string): string;
}

/** `git init -b main` in a temporary folder with a local identity and no signing. */
export function makeRepo(options: { dir?: string } = {}): TempRepo {
  const dir = options.dir ?? tempDir('involut-repo-');
  mkdirSync(dir, { recursive: true });
  const repo = repoAt(dir);
  repo.git(['init', '--quiet', '-b', 'main']);
  configureIdentity(repo);
  return repo;
}

/** A handle on an existing working tree (a linked worktree, a submodule checkout). */
export function repoAt(dir: string): TempRepo {
  const gitBytes = (args: string[], cwd = dir) =>
    execFileSync('git', args, { cwd, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  const repo: TempRepo = {
    dir,
    path: (file) => path.join(dir, file),
    gitBytes,
    git: (args, cwd) => gitBytes(args, cwd).toString('utf8'),
    write(file, content) {
      mkdirSync(path.dirname(repo.path(file)), { recursive: true });
      writeFileSync(repo.path(file), content);
    },
    read: (file) => readFileSync(repo.path(file)),
    remove: (file) => rmSync(repo.path(file), { recursive: true, force: true }),
    symlink(target, file) {
      mkdirSync(path.dirname(repo.path(file)), { recursive: true });
      symlinkSync(target, repo.path(file));
    },
    move(from, to) {
      mkdirSync(path.dirname(repo.path(to)), { recursive: true });
      repo.git(['mv', from, to]);
    },
    chmod: (file, mode) => chmodSync(repo.path(file), mode),
    commit(message) {
      repo.git(['add', '--all']);
      repo.git(['commit', '--quiet', '--allow-empty', '-m', message]);
      return repo.rev();
    },
    rev: (revision = 'HEAD') => repo.git(['rev-parse', '--verify', `${revision}^{object}`]).trim(),
  };
  return repo;
}

export function configureIdentity(repo: TempRepo): void {
  repo.git(['config', 'user.name', 'Involut Tests']);
  repo.git(['config', 'user.email', 'tests@involut.invalid']);
  repo.git(['config', 'commit.gpgsign', 'false']);
}

/** Runs the emitter in-process, as `involut rounds` does, and reads back what it wrote. */
export async function emit(
  dir: string,
  options: BaseOptions = {},
): Promise<{ summary: RoundSummary; material: Material }> {
  const summary = await emitRound(await openRepo(dir), options);
  return { summary, material: readMaterial(path.dirname(path.dirname(summary.materialFile))) };
}

/** `.review/material.json` of a working tree, validated against the contract's schema. */
export function readMaterial(root: string): Material {
  return Material.parse(JSON.parse(readFileSync(path.join(root, '.review/material.json'), 'utf8')));
}

/** The entry for `ref`; fails the test with the refs present when there is none. */
export function entryOf(material: Material, ref: string): MaterialEntry {
  const found = material.material.filter((e) => e.ref === ref);
  if (found.length !== 1) {
    throw new Error(
      `expected one entry for ${JSON.stringify(ref)}, found ${found.length} among ${JSON.stringify(refs(material))}`,
    );
  }
  return found[0]!;
}

export function refs(material: Material): string[] {
  return material.material.map((e) => e.ref).sort();
}

/** The exact bytes an entry's diff stands for (`diff_base64` when the text is not UTF-8). */
export function diffBytes(entry: MaterialEntry): Buffer {
  if (entry.diff_base64 !== undefined) return Buffer.from(entry.diff_base64, 'base64');
  return Buffer.from(entry.diff ?? '', 'utf8');
}

/** The paths git should be asked about for an entry: the old and new name of a rename. */
function pathsOf(entry: MaterialEntry): string[] {
  return entry.from ? [entry.from, entry.ref] : [entry.ref];
}

/** `git diff -M --no-ext-diff <base> <tree> -- <file>` from its first `@@` to the end: git's hunks. */
export function gitHunks(repo: TempRepo, base: string, tree: string, entry: MaterialEntry): Buffer {
  const out = repo.gitBytes([
    '--literal-pathspecs',
    'diff',
    '-M',
    '--no-ext-diff',
    base,
    tree,
    '--',
    ...pathsOf(entry),
  ]);
  if (out.subarray(0, 3).toString() === '@@ ') return out;
  const at = out.indexOf('\n@@ ');
  return at === -1 ? Buffer.alloc(0) : out.subarray(at + 1);
}

/** Added and deleted lines by `git diff --numstat`; null for a binary (`-`). */
export function gitNumstat(
  repo: TempRepo,
  base: string,
  tree: string,
  entry: MaterialEntry,
): { additions: number | null; deletions: number | null } {
  const out = repo.git(['--literal-pathspecs', 'diff', '-M', '-z', '--numstat', base, tree, '--', ...pathsOf(entry)]);
  const [additions, deletions] = out.split('\t');
  const count = (field: string | undefined) => (field === undefined || field === '-' ? null : Number(field));
  return { additions: count(additions), deletions: count(deletions) };
}

/** Runs the built CLI (`node dist/server/cli.js …`) in `cwd`. */
export function runCli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does).`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** sha256 of every file under `dir` (symlinks by target), skipping the folders named. */
export function hashFiles(dir: string, skip: string[] = ['.git', '.review']): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (folder: string) => {
    for (const item of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, item.name);
      const rel = path.relative(dir, full);
      if (skip.includes(rel)) continue;
      if (item.isDirectory()) walk(full);
      else hashes.set(rel, sha256(item.isSymbolicLink() ? `link:${readlinkSync(full)}` : readFileSync(full)));
    }
  };
  walk(dir);
  return hashes;
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `count` lines `prefix 1`…`prefix n`, each ending in a newline. */
export function lines(count: number, prefix = 'line'): string {
  let text = '';
  for (let i = 1; i <= count; i++) text += `${prefix} ${i}\n`;
  return text;
}

/** Deterministic bytes that are clearly binary: NULs and high bytes (a tiny LCG, seeded). */
export function binaryBytes(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = i % 7 === 0 ? 0 : state >>> 24;
  }
  return out;
}

/** A real, valid RGB PNG of `w`×`h` pixels filled with one colour. */
export function png(w: number, h: number, rgb: [number, number, number] = [200, 30, 60]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const row = Buffer.alloc(1 + w * 3); // filter byte 0, then pixels
  for (let x = 0; x < w; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
