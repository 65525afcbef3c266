import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { SimpleGit } from 'simple-git';
import { InvolutError } from '../cli/errors';

/**
 * Settings that make git print the same bytes whatever the user's config says:
 * no prefixes games, no external or textconv drivers, no colour, default algorithm,
 * paths printed literally. `core.safecrlf=false` keeps CRLF warnings off stderr.
 */
export const NEUTRAL_CONFIG = [
  'core.quotePath=false',
  'core.safecrlf=false',
  'color.ui=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'diff.algorithm=default',
  'diff.indentHeuristic=true',
  'diff.suppressBlankEmpty=false',
  'diff.context=3',
  'diff.interHunkContext=0',
  'diff.submodule=short',
  'diff.ignoreSubmodules=none',
  'advice.addEmbeddedRepo=false',
  'log.showSignature=false',
];

/** Flags every diff we read takes, so its text is git's plain unified diff. */
export const DIFF_FLAGS = [
  '-O/dev/null',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--ignore-submodules=none',
  '--submodule=short',
];

/** Pathspec that keeps Involut's own folder out of every diff. */
export const WITHOUT_REVIEW = ['--', '.', ':(top,exclude).review'];

export interface GitEnv {
  /** A temporary index; the user's real index is never written. */
  GIT_INDEX_FILE?: string;
}

/** The lines of git's stderr an error quotes: its whole message, not a wall of progress. */
const QUOTED_LINES = 12;

type GitChild = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * The one owner of running git. Every command gets NEUTRAL_CONFIG and the minimal
 * environment. `simple()` is simple-git, for work off a round's path that its verbs
 * say plainly (building the demo's repository). A round's own commands go through
 * `run` (buffered) and `spawn` (streamed): simple-git's completion detection sleeps
 * 50 ms after every command that prints nothing (`add`, `update-ref`), a round runs
 * several of those in a row, and its diff must be read as a stream of bytes.
 */
export class Git {
  constructor(readonly cwd: string) {}

  /** simple-git on this repository, with the same config and environment as every other command. */
  async simple(): Promise<SimpleGit> {
    // Loaded here: importing simple-git costs a round 50–65 ms of start-up, and no round uses it.
    const { simpleGit } = await import('simple-git');
    // minimalEnv drops what simple-git's own guard refuses, but for the one variable it sets.
    return simpleGit({ baseDir: this.cwd, config: NEUTRAL_CONFIG, allowEnvironment: ['GIT_OPTIONAL_LOCKS'] }).env(
      minimalEnv({}),
    );
  }

  /** Runs a git command and returns its stdout as text; `extraConfig` (`key=value`) applies to this command only. */
  async run(args: string[], env: GitEnv = {}, extraConfig: string[] = [], input?: Buffer): Promise<string> {
    return (await this.runBytes(args, env, extraConfig, input)).toString('utf8');
  }

  /** Like `run`, with `input` on stdin and stdout's exact bytes (paths need not be UTF-8). */
  async runBytes(args: string[], env: GitEnv = {}, extraConfig: string[] = [], input?: Buffer): Promise<Buffer> {
    const child = this.spawn(args, env, extraConfig);
    const stdout: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stdin.end(input);
    await exited(child, `git ${args[0]}`);
    return Buffer.concat(stdout);
  }

  /** Like `run`, but answers `null` instead of failing (for questions such as "does this ref exist?"). */
  async tryRun(args: string[], env: GitEnv = {}): Promise<string | null> {
    return this.run(args, env).catch(() => null);
  }

  /** Starts git with stdin and stdout as streams, for output too big to buffer. */
  spawn(args: string[], env: GitEnv = {}, extraConfig: string[] = []): GitChild {
    const config = [...NEUTRAL_CONFIG, ...extraConfig].flatMap((c) => ['-c', c]);
    const child = spawn('git', [...config, ...args], { cwd: this.cwd, env: minimalEnv(env), stdio: 'pipe' });
    child.stdin.on('error', () => {}); // git may exit without reading it all; its exit code tells
    return child;
  }
}

/**
 * The environment git runs in: the user's, minus every ambient GIT_* variable (a hook's
 * GIT_DIR or GIT_INDEX_FILE must never redirect a capture) and minus editors and pagers,
 * plus what the caller sets. `GIT_OPTIONAL_LOCKS=0`: a read never refreshes the real
 * index, so Involut never holds `index.lock` while the user's editor runs `git status`.
 */
const DROPPED = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS']);
function minimalEnv(extra: GitEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('GIT_') || DROPPED.has(key)) continue;
    env[key] = value;
  }
  return { ...env, GIT_OPTIONAL_LOCKS: '0', ...extra };
}

/**
 * Resolves when a spawned git exits 0; otherwise rejects with git's own message, its few
 * stderr lines joined (`git add failed: <line> / <line>`), or the exit code when it said nothing.
 */
export function exited(child: ChildProcess & { stderr: Readable }, what: string): Promise<void> {
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 16_384) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const fail = (message: string) => reject(new InvolutError('git-failed', `${what} ${message}`));
    child.once('error', (error) => fail(`could not start: ${error.message}; is git installed and on PATH?`));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const lines = stderr
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const more = lines.length > QUOTED_LINES ? ` / … (${lines.length - QUOTED_LINES} more lines)` : '';
      const said = lines.slice(0, QUOTED_LINES).join(' / ') + more;
      fail(`failed: ${said || (signal ? 'stopped by a signal' : `exit ${code}`)}`);
    });
  });
}
