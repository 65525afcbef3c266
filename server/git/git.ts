import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { InvolutError } from '../errors';

/**
 * Settings that make git print the same bytes whatever the user's config says:
 * no prefixes games, no external or textconv drivers, no colour, default algorithm,
 * paths printed literally. `core.looseCompression=1` makes the capture's object
 * writes cheap; `core.safecrlf=false` keeps CRLF warnings off stderr.
 */
export const NEUTRAL_CONFIG = [
  'core.quotePath=false',
  'core.safecrlf=false',
  'core.looseCompression=1',
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
export const DIFF_FLAGS = ['-O/dev/null', '--no-ext-diff', '--no-textconv', '--no-color', '--ignore-submodules=none', '--submodule=short'];

/** Pathspec that keeps Involut's own folder out of every capture and diff. */
export const WITHOUT_REVIEW = ['--', '.', ':(top,exclude).review'];

export interface GitEnv {
  /** A temporary index; the user's real index is never written. */
  GIT_INDEX_FILE?: string;
  /** glibc's malloc settings (see capture.ts); ignored by other C libraries. */
  GLIBC_TUNABLES?: string;
  /** `0`: git writes its answers in blocks instead of one write per answer (see `UNFLUSHED`). */
  GIT_FLUSH?: string;
  /** A folder of packs still being flushed to disk that this git may read (see `PackView`). */
  GIT_ALTERNATE_OBJECT_DIRECTORIES?: string;
}

/**
 * For a git that answers many questions read at once (`check-attr --stdin`): it writes
 * its answers in blocks rather than flushing each one, thousands of writes fewer on a big
 * round, each of which Node would read and wake up for.
 */
export const UNFLUSHED: GitEnv = { GIT_FLUSH: '0' };

/**
 * The one owner of running git. Every command gets NEUTRAL_CONFIG and the minimal
 * environment; `run` buffers the output of small commands, `spawn` streams big ones.
 *
 * `run` used to go through simple-git, whose completion detection waits an extra 50 ms
 * after every command that prints nothing on stdout or stderr (`add`, `rm --quiet`,
 * `update-ref`, an empty `ls-files` or `for-each-ref`…): a quarter of a second asleep in
 * every round. It now spawns git itself and keeps simple-git's rule for failure: a
 * command fails when it cannot start, or exits non-zero and says why on stderr (a
 * silent non-zero exit, as `rev-parse --verify --quiet` gives, returns its output).
 */
export class Git {
  constructor(readonly cwd: string) {}

  /**
   * Runs a git command and returns its stdout as text. `extraConfig` (`key=value`)
   * applies to this one command only.
   */
  async run(args: string[], env: GitEnv = {}, extraConfig: string[] = []): Promise<string> {
    return (await this.runBytes(args, env, extraConfig)).toString('utf8');
  }

  /**
   * Like `run`, with `input` on stdin (bytes, or an open file), and stdout's exact bytes
   * (paths need not be UTF-8). From a file, git reads its input whole at once, however
   * busy node is (a pipe holds 64 KiB; node writes the rest only when its loop turns).
   */
  async runBytes(args: string[], env: GitEnv = {}, extraConfig: string[] = [], input?: Buffer | { fd: number }): Promise<Buffer> {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('git', gitArgs(args, extraConfig), {
        cwd: this.cwd,
        env: minimalEnv(env),
        stdio: [input === undefined ? 'ignore' : Buffer.isBuffer(input) ? 'pipe' : input.fd, 'pipe', 'pipe'],
      });
      child.stdin?.on('error', () => {}); // git may exit without reading it all; its exit code tells
      if (Buffer.isBuffer(input)) child.stdin?.end(input);
      child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.once('error', reject);
      child.once('close', (exitCode, signal) => resolve(signal ? null : exitCode));
    }).catch((error: unknown) => {
      throw new InvolutError('git-failed', `git ${args[0]} failed: ${firstLine(error)}`);
    });
    if (code === null || (code !== 0 && stderr.length > 0)) {
      const said = Buffer.concat([...stdout, ...stderr]).toString('utf8');
      throw new InvolutError('git-failed', `git ${args[0]} failed: ${firstLine(said) || `exit ${code ?? 'by a signal'}`}`);
    }
    return Buffer.concat(stdout);
  }

  /** Like `run`, but answers `null` instead of failing (for questions such as "does this ref exist?"). */
  async tryRun(args: string[], env: GitEnv = {}): Promise<string | null> {
    try {
      return await this.run(args, env);
    } catch {
      return null;
    }
  }

  /**
   * Starts a git that reads its questions on stdin before they are known, so its start-up
   * is paid while something else runs: `answer` sends them (once), closes stdin and
   * resolves with stdout once git exited 0; `answer()` with nothing just ends git.
   */
  start(args: string[], env: GitEnv = {}): { answer: (input?: Buffer) => Promise<Buffer> } {
    const child = this.spawn(args, env);
    const done = exited(child, `git ${args[0]}`);
    done.catch(() => {}); // awaited in answer()
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdin.on('error', () => {}); // git may exit without reading it all; its exit code tells
    return {
      answer: async (input) => {
        child.stdin.end(input);
        await done;
        return Buffer.concat(chunks);
      },
    };
  }

  /** Starts git with stdout (and stdin) as streams, for output too big to buffer. */
  spawn(args: string[], env: GitEnv = {}): ChildProcessByStdio<Writable, Readable, Readable> {
    return spawn('git', gitArgs(args), {
      cwd: this.cwd,
      env: minimalEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }

  /**
   * Starts git with its stdout going to the open file `fd` (git never waits for a reader:
   * for output read once git is done), nothing on stdin, and stderr as a stream.
   */
  spawnToFile(args: string[], env: GitEnv, fd: number): ChildProcessByStdio<null, null, Readable> {
    return spawn('git', gitArgs(args), {
      cwd: this.cwd,
      env: minimalEnv(env),
      stdio: ['ignore', fd, 'pipe'],
    }) as ChildProcessByStdio<null, null, Readable>;
  }
}

function gitArgs(args: string[], extraConfig: string[] = []): string[] {
  return [...[...NEUTRAL_CONFIG, ...extraConfig].flatMap((c) => ['-c', c]), ...args];
}

/**
 * The environment git runs in: the user's, minus every ambient GIT_* variable
 * (a hook's GIT_DIR or GIT_INDEX_FILE must never redirect a capture) and minus
 * editors, pagers and the other variables simple-git's guard removed, plus what the
 * caller sets explicitly.
 */
const DROPPED = new Set(['EDITOR', 'VISUAL', 'PAGER', 'PREFIX', 'SSH_ASKPASS']);
function minimalEnv(extra: GitEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('GIT_') || DROPPED.has(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Resolves when a spawned git exits 0; otherwise rejects with the first line of its stderr. */
export function exited(child: ChildProcess & { stderr: Readable }, what: string): Promise<void> {
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new InvolutError('git-failed', `${what} failed: ${error.message}`)));
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new InvolutError('git-failed', `${what} failed: ${stderr.trim().split('\n')[0] || `exit ${code}`}`));
    });
  });
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().split('\n')[0] ?? text;
}
