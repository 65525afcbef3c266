/**
 * The server under test: its app through `inject`, or the built CLI serving on a real
 * port, over real git repositories in temporary folders. Nothing is mocked.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ChangedEvent } from '../../schemas/api';
import { createApp } from '../../server/serve/app';
import { EventHub } from '../../server/serve/event-hub';
import { openRepo } from '../../server/git/repo';
import { DraftsStore } from '../../server/review/drafts-store';
import { NotesStore } from '../../server/review/notes-store';
import { reviewDir } from '../../server/review/review-dir';
import { ReviewFiles } from '../../server/review/review-files';
import { hashToken } from '../../server/serve/security';

export const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(PROJECT, 'dist/server/cli.js');

const made: string[] = [];

export function tempDir(prefix = 'involut-server-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The environment of every git and CLI child: no ambient GIT_*, a HOME and state folder of its own. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  const home = tempDir('involut-home-');
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    INVOLUT_STATE_DIR: path.join(home, 'state'),
    ...extra,
  };
}

export interface Repo {
  dir: string;
  git(...args: string[]): string;
  write(file: string, content: string | Buffer): void;
  review(file: string): string;
}

/** `git init -b main` with one commit, a local identity and no signing. */
export function makeRepo(files: Record<string, string | Buffer> = { 'README.md': '# test\n' }): Repo {
  const dir = tempDir('involut-repo-');
  const env = childEnv();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };
  git('init', '--quiet', '-b', 'main');
  git('config', 'user.name', 'Involut Test');
  git('config', 'user.email', 'test@involut.invalid');
  git('config', 'commit.gpgsign', 'false');
  for (const [file, content] of Object.entries(files)) write(file, content);
  git('add', '--all');
  git('commit', '--quiet', '-m', 'first');
  return { dir, git, write, review: (file) => path.join(dir, '.review', file) };
}

/** Runs `involut rounds` (the real emitter) so the repository has a material.json. */
export function runRounds(repo: Repo, env = childEnv()): void {
  execFileSync(process.execPath, [CLI, 'rounds', '--quiet', '--repo', repo.dir], { env, encoding: 'utf8' });
}

export const TOKEN = 'test-token-0123456789';
const PORT = 4747;
const HOST = `127.0.0.1:${PORT}`;
const ORIGIN = `http://${HOST}`;

/** The app as `createApp` builds it, for `inject` (no port is opened). */
export async function injectApp(repo: Repo, webRoot: string | null = null): Promise<FastifyInstance> {
  const review = reviewDir(repo.dir);
  return createApp({
    repo: await openRepo(repo.dir),
    files: new ReviewFiles(review),
    notes: new NotesStore(review),
    drafts: new DraftsStore(repo.dir),
    hub: new EventHub(),
    tokenHash: hashToken(TOKEN),
    port: PORT,
    webRoot,
  });
}

/** Headers a legitimate viewer sends; override any to play a foreign page. */
export function viewerHeaders(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = { host: HOST, 'x-involut-token': TOKEN, ...extra };
  return Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

export function putHeaders(extra: Record<string, string | undefined> = {}): Record<string, string> {
  return viewerHeaders({ origin: ORIGIN, 'content-type': 'application/json', ...extra });
}

export interface LiveServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  base: string;
  token: string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
}

/**
 * Runs the built CLI with `args` and waits for its first stdout line, the viewer URL (for
 * `serve` and `demo`), failing with its stderr when it exits first or says nothing in time.
 */
export async function startCli(args: string[], env = childEnv(), timeoutMs = 60_000): Promise<LiveServer> {
  const child = spawn(process.execPath, [CLI, ...args], { env });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`involut ${args[0]} printed no URL within ${timeoutMs / 1000} s: ${err}`)),
      timeoutMs,
    );
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n', 1)[0]!.trim());
      }
    });
    void exited.then((code) => reject(new Error(`involut ${args[0]} exited ${code} before printing its URL: ${err}`)));
  });
  const parsed = new URL(url);
  return {
    child,
    url,
    base: parsed.origin,
    token: new URLSearchParams(parsed.hash.slice(1)).get('token') ?? '',
    stderr: () => err,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Starts the built CLI's server (on any free port unless `args` names one) and waits for the viewer URL. */
export function startLive(repoDir: string, env = childEnv(), args: string[] = ['--port', '0']): Promise<LiveServer> {
  return startCli(['serve', '--no-open', '--repo', repoDir, ...args], env);
}

/** A fetch the way the viewer does it (token, and Origin on writes). */
export function liveFetch(server: LiveServer, route: string, init: RequestInit = {}): Promise<Response> {
  const write = init.method !== undefined && init.method !== 'GET';
  return fetch(`${server.base}${route}`, {
    ...init,
    headers: {
      'x-involut-token': server.token,
      ...(write ? { origin: server.base, 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string>),
    },
  });
}

export interface EventLog {
  events: Array<ChangedEvent & { at: number }>;
  /** Resolves with the first event (after `since`) that matches, or rejects after `timeoutMs`. */
  next(
    match: (event: ChangedEvent) => boolean,
    since: number,
    timeoutMs?: number,
  ): Promise<ChangedEvent & { at: number }>;
  close(): void;
}

/** Subscribes to `/api/events` and logs each event with the time it arrived. */
export async function subscribe(server: LiveServer): Promise<EventLog> {
  const events: EventLog['events'] = [];
  const url = new URL('/api/events', server.base);
  const request = http.get(url, { headers: { 'x-involut-token': server.token } });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve).once('error', reject);
  });
  let buffer = '';
  response.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data) events.push({ ...(JSON.parse(data.slice(6)) as ChangedEvent), at: performance.now() });
    }
  });
  response.once('error', () => {});
  return {
    events,
    // Patience far above what a quiet machine needs: only a missing event fails, never a busy machine.
    next: async (match, since, timeoutMs = 10_000) => {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = events.find((event) => event.at >= since && match(event));
        if (found) return found;
        if (performance.now() > deadline)
          throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await sleep(5);
      }
    },
    close: () => request.destroy(),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** inotify watches held by a process (Linux), counted from /proc/<pid>/fdinfo. */
export function inotifyWatches(pid: number): number | null {
  const folder = `/proc/${pid}/fdinfo`;
  if (!existsSync(folder)) return null;
  let count = 0;
  for (const fd of readdirSync(folder)) {
    try {
      count += (readFileSync(path.join(folder, fd), 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // the descriptor closed while we looked
    }
  }
  return count;
}
