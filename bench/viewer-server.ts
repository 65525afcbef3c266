/**
 * The server's side of the viewer bench: how a server process is started and read (the
 * viewer's `involut serve` and the bare Node server it is compared with), how long it takes
 * from spawn to the first byte of `GET /`, what memory it held, and whether its `/api/`
 * answers come compressed when the request asks for it. Nothing here knows the API's paths:
 * the answers to check are the ones the viewer itself asked for.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { median } from './measure';

/** A server process that printed its URL as the first line on stdout. */
export interface Served {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Runs `node <args>` and resolves once it has printed its first line (its URL); 30 s at most. */
export async function spawnServer(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${args[0]} printed no URL within 30 s: ${err}`)), 30_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.split('\n', 1)[0]!.trim());
        }
      });
      void exited.then(() => reject(new Error(`${args[0]} exited before printing its URL: ${err}`)));
    });
    return { url, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves when the answer to `GET <path>` starts (its status line and headers: the first byte). */
function firstByte(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      response.resume();
      resolve();
    });
    request.once('error', reject);
  });
}

export interface Startup {
  /** Spawn to the first byte of `GET /`, ms, one per run, in the order run. */
  involutMs: number[];
  bareMs: number[];
  /** median(involut) / median(bare). */
  ratio: number;
}

/**
 * Spawn to the first byte of `GET /`, for the viewer's server and the bare one, started the
 * same way (a node process that prints its URL) and run alternately, `runs` times each.
 * The URL is only known once printed (port 0), so the time to print it is counted too.
 */
export async function startup(
  involut: () => Promise<Served>,
  bare: () => Promise<Served>,
  runs: number,
): Promise<Startup> {
  const times = { involut: [] as number[], bare: [] as number[] };
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? (['involut', 'bare'] as const) : (['bare', 'involut'] as const);
    for (const which of order) {
      const started = process.hrtime.bigint();
      const served = await (which === 'involut' ? involut() : bare());
      try {
        await firstByte(new URL('/', served.url).href);
        times[which].push(Number(process.hrtime.bigint() - started) / 1e6);
      } finally {
        await served.stop();
      }
    }
  }
  return { involutMs: times.involut, bareMs: times.bare, ratio: median(times.involut) / median(times.bare) };
}

/** A process's resident set now and its peak (VmHWM) so far, MiB; null when it is gone. */
export function processMemory(pid: number): { rssMiB: number; peakMiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** One `/api/` answer the page received, from its resource timing. */
export interface ApiAnswer {
  /** Path and query, as the page asked. */
  url: string;
  /** Body bytes after decoding, and as they came over the wire. */
  bytes: number;
  wireBytes: number;
  /** When its last byte arrived, ms since the navigation started. */
  endMs: number;
}

/**
 * In the page: every `/api/` answer whose last byte arrived by `until` (ms on the page's
 * clock). A stream that never ends (the change events) has no entry and is not counted.
 */
export const API_ANSWERS = (until: number) => `(() => performance.getEntriesByType('resource')
  .filter((e) => e.responseEnd <= ${until} && new URL(e.name).pathname.startsWith('/api/'))
  .map((e) => { const u = new URL(e.name); return { url: u.pathname + u.search, bytes: e.decodedBodySize, wireBytes: e.encodedBodySize, endMs: e.responseEnd }; }))()`;

export interface Compression {
  url: string;
  status: number;
  /** The answer's Content-Encoding, or "none". */
  encoding: string;
  wireBytes: number;
  /** After decoding (the same as wireBytes when not compressed). */
  bytes: number;
}

/** Asks `GET url` with `Accept-Encoding: gzip, br` (and the session token), and reports how it came. */
export function compression(serverUrl: string, url: string): Promise<Compression> {
  const token = new URLSearchParams(new URL(serverUrl).hash.slice(1)).get('token') ?? '';
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(url, serverUrl).href,
      { headers: { 'Accept-Encoding': 'gzip, br', 'X-Involut-Token': token } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = response.headers['content-encoding'] ?? 'none';
          const decoded =
            encoding === 'gzip' ? zlib.gunzipSync(body) : encoding === 'br' ? zlib.brotliDecompressSync(body) : body;
          resolve({ url, status: response.statusCode ?? 0, encoding, wireBytes: body.length, bytes: decoded.length });
        });
      },
    );
    request.once('error', reject);
  });
}
