import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder (holding package.json). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The built CLI; `npm test` builds it before vitest runs. */
export const cliPath = path.join(projectRoot, 'dist', 'server', 'cli.js');

export function assertBuilt(): void {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing; run \`npm run build\` before these tests.`);
}

const made: string[] = [];

/** A new empty temporary folder, removed by `removeTemporaryFolders()`. */
export async function temporaryFolder(prefix = 'involut-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function removeTemporaryFolders(): Promise<void> {
  for (const dir of made.splice(0)) {
    await chmodTree(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Gives back write permission a test took away, so the folder can be removed. */
async function chmodTree(dir: string): Promise<void> {
  await chmod(dir, 0o755).catch(() => {});
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) await chmodTree(path.join(dir, entry.name));
}

/** A folder holding `involut`, a link to the built CLI: on PATH, as on a machine where Involut is installed. */
const installedBin = mkdtempSync(path.join(os.tmpdir(), 'involut-bin-'));
symlinkSync(cliPath, path.join(installedBin, 'involut'));
if (existsSync(cliPath)) chmodSync(cliPath, 0o755); // as npm installs a package's bin
made.push(installedBin);

/**
 * The environment every child runs in: no ambient GIT_* (a hook's GIT_DIR must not
 * redirect the test), a HOME of its own so no user config leaks into a result, and the
 * built CLI on PATH as `involut`, so the commands it prints read as on an installed machine.
 */
export function isolatedEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    PATH: `${installedBin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
}

/** A git repository in a new temporary folder, with a local identity and signing off. */
export async function gitRepo(
  options: { commit?: boolean } = {},
): Promise<{ dir: string; git: (...args: string[]) => string }> {
  const dir = await temporaryFolder('involut-repo-');
  const home = await temporaryFolder('involut-home-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: isolatedEnv(home), encoding: 'utf8' });
  git('init', '--quiet', '-b', 'main');
  git('config', 'user.name', 'Involut Test');
  git('config', 'user.email', 'test@involut.invalid');
  git('config', 'commit.gpgsign', 'false');
  if (options.commit ?? true) {
    await writeFile(path.join(dir, 'README.md'), '# test\n');
    git('add', 'README.md');
    git('commit', '--quiet', '-m', 'first');
  }
  return { dir, git };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Run as this user (needs root); its group is the same number. */
  uid?: number;
  /** The CLI to run; the built one by default. */
  bin?: string;
}

/** Runs `node <cli> ...args` and collects its exit code and output. */
export async function runCli(args: string[], options: RunOptions): Promise<CliResult> {
  const home = options.env?.HOME ?? (await temporaryFolder('involut-home-'));
  const child = spawn(process.execPath, [options.bin ?? cliPath, ...args], {
    cwd: options.cwd,
    env: options.env ?? isolatedEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  return { code, stdout, stderr };
}

/**
 * What a failed command must leave untouched: every file under `.review/` byte for byte
 * (or its absence), the refs under refs/involut, and `.git/info/exclude`.
 */
export async function footprint(repoDir: string): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  await walk(path.join(repoDir, '.review'), '.review', state);
  const refs = spawnSync('git', ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/involut/'], {
    cwd: repoDir,
    encoding: 'utf8',
  });
  state['refs/involut'] = refs.status === 0 ? refs.stdout : '(not a repository)';
  state['.git/info/exclude'] = await readFile(path.join(repoDir, '.git', 'info', 'exclude'), 'utf8').catch(
    () => '(absent)',
  );
  return state;
}

async function walk(file: string, name: string, state: Record<string, string>): Promise<void> {
  const entries = await readdir(file, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => error);
  if (!(entries instanceof Error)) {
    state[name] = '(folder)';
    for (const entry of entries) await walk(path.join(file, entry.name), `${name}/${entry.name}`, state);
    return;
  }
  if (entries.code === 'ENOENT') return; // absent: nothing recorded, so a created file shows up as a new key
  state[name] = await readFile(file, 'base64');
}
