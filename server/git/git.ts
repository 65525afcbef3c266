import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { simpleGit, type SimpleGit } from 'simple-git';
import { InvolutError } from '../errors';

/**
 * Settings that make git print the same bytes whatever the user's config says:
 * no prefixes games, no external or textconv drivers, no colour, default algorithm,
 * paths printed literally. `core.looseCompression=1` makes the capture's object
 * writes cheap; `core.safecrlf=false` keeps CRLF warnings off stderr.
 */
const NEUTRAL_CONFIG = [
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
}

/** The one owner of running git: buffered commands through simple-git, streams through spawn. */
export class Git {
  private readonly client: SimpleGit;

  constructor(readonly cwd: string) {
    this.client = this.createClient();
  }

  private createClient(): SimpleGit {
    return simpleGit({ baseDir: this.cwd, config: NEUTRAL_CONFIG, allowEnvironment: ['GIT_INDEX_FILE'], trimmed: false });
  }

  /** Runs a git command and returns its stdout as text. */
  async run(args: string[], env: GitEnv = {}): Promise<string> {
    // `.env()` changes the client it is called on, so a temporary index gets a client of its own.
    const client = env.GIT_INDEX_FILE ? this.createClient().env(minimalEnv(env)) : this.client;
    try {
      return await client.raw(args);
    } catch (error) {
      throw new InvolutError('git-failed', `git ${args[0]} failed: ${firstLine(error)}`);
    }
  }

  /** Like `run`, but answers `null` instead of failing (for questions such as "does this ref exist?"). */
  async tryRun(args: string[], env: GitEnv = {}): Promise<string | null> {
    try {
      return await this.run(args, env);
    } catch {
      return null;
    }
  }

  /** Starts git with stdout (and stdin) as streams, for output too big to buffer. */
  spawn(args: string[]): ChildProcessByStdio<Writable, Readable, Readable> {
    return spawn('git', [...NEUTRAL_CONFIG.flatMap((c) => ['-c', c]), ...args], {
      cwd: this.cwd,
      env: minimalEnv({}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }
}

/**
 * The environment git runs in: the user's, minus every ambient GIT_* variable
 * (a hook's GIT_DIR or GIT_INDEX_FILE must never redirect a capture) and minus
 * editors and pagers, plus what the caller sets explicitly.
 */
function minimalEnv(extra: GitEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('GIT_') || key === 'EDITOR' || key === 'VISUAL' || key === 'PAGER') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Resolves when a spawned git exits 0; otherwise rejects with the first line of its stderr. */
export function exited(child: ChildProcessByStdio<Writable, Readable, Readable>, what: string): Promise<void> {
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
