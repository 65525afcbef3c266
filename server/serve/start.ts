import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp } from './app';
import { InvolutError } from '../cli/errors';
import { EventHub } from './event-hub';
import type { Repo } from '../git/repo';
import { DraftsStore } from '../review/drafts-store';
import { NotesStore } from '../review/notes-store';
import { packageRoot } from '../cli/package-root';
import { assertReviewDirSafe } from '../review/review-dir';
import { ReviewFiles } from '../review/review-files';
import { forgetServer, recordServer, type ServerRecord } from './running-servers';
import { hashToken, mintToken } from './security';
import { ReviewWatcher } from './watch';
import { pinnedMismatch } from '../round/pinned';
import { localIsoTime } from '../review/time';

/** The documented default port; the next free one is taken when it is busy. */
const DEFAULT_PORT = 4747;
/** How long a clean shutdown waits for requests under way before cutting connections. */
const CLOSE_GRACE_MS = 5000;
/** How many ports after the default are tried before giving up. */
const PORT_TRIES = 50;

export interface StartOptions {
  /** The repository, opened (see openRepo). */
  repo: Repo;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default: DEFAULT_PORT or the next free one. A port given here must be free; 0 lets the system choose. */
  port?: number;
  /** Called with failures the server survives (a watcher error, a 500), for the terminal. */
  onError?: (error: unknown) => void;
}

export interface RunningServer {
  /** The viewer URL with the session token in its fragment. */
  url: string;
  root: string;
  /** Set when another server for this repository won the start: its record; this one is already closed. */
  other: ServerRecord | null;
  /** Stops taking requests, finishes the note writes under way, closes the watcher and event streams. */
  close(): Promise<void>;
}

/** Builds the app, listens, watches `.review/` and records the server for a second `involut`. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { repo } = options;
  const review = await assertReviewDirSafe(repo.root);
  const host = options.host ?? '127.0.0.1';
  const token = mintToken();
  const files = new ReviewFiles(review, {}, (data) => pinnedMismatch(repo, data));
  const notes = new NotesStore(review);
  const hub = new EventHub();
  const port = await choosePort(host, options.port);
  const app = await createApp({
    repo,
    files,
    notes,
    hub,
    drafts: new DraftsStore(repo.root),
    tokenHash: hashToken(token),
    host,
    webRoot: path.join(packageRoot(), 'dist', 'web'),
    onInternalError: options.onError,
  });
  await listen(app, host, port, options.port !== undefined);
  const watcher = new ReviewWatcher(files, notes, (file) => hub.broadcast({ type: 'changed', file }), {
    onError: options.onError,
    onWaiting: () => hub.broadcast({ type: 'changed', file: 'waiting' }),
  });
  await watcher.start();
  const url = viewerUrl(host, (app.server.address() as net.AddressInfo).port, token);
  const close = async () => {
    // Stops listening, ends event streams, waits for the requests under way; a client
    // that holds its connection open past that is cut off.
    const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS).unref();
    await app.close();
    clearTimeout(force);
    await notes.drain();
    await watcher.close();
    await forgetServer(repo.root, process.pid);
  };
  const other = await recordServer({ root: repo.root, url, pid: process.pid, started: localIsoTime() });
  if (other) await close();
  return { url, root: repo.root, other, close };
}

/** The URL to open: a loopback name even for a wildcard bind, the token in the fragment (never sent to a server). */
function viewerUrl(host: string, port: number, token: string): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}/#token=${token}`;
}

async function choosePort(host: string, wanted: number | undefined): Promise<number> {
  if (wanted !== undefined) return wanted;
  for (let port = DEFAULT_PORT; port < DEFAULT_PORT + PORT_TRIES; port += 1) {
    if (await isFree(host, port)) return port;
  }
  throw new InvolutError(
    'port-taken',
    `Ports ${DEFAULT_PORT} to ${DEFAULT_PORT + PORT_TRIES - 1} are all taken; pass a free one with --port N.`,
  );
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function listen(app: FastifyInstance, host: string, port: number, explicit: boolean): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new InvolutError(
        'port-taken',
        explicit
          ? `Port ${port} is taken; pass another --port, or leave it out to take the next free one.`
          : `Port ${port} was taken while Involut started; run it again.`,
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new InvolutError(
        'usage',
        `Cannot listen on host '${host}': it is not an address of this machine; pass --host 127.0.0.1 or another local address.`,
      );
    }
    throw error;
  }
}
