import { createHash } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from '../review/process-alive';
import { stateDir } from '../review/state-dir';
import { TOKEN_HEADER } from './security';

/**
 * What a running server leaves for a second `involut` of the same repository. It holds
 * the session token (inside the URL), so it lives in a per-user folder (mode 0700) in a
 * file only its owner can read (mode 0600). Checked by hand when read: `involut rounds`
 * reads it, and does not load zod otherwise.
 */
export interface ServerRecord {
  root: string;
  url: string;
  pid: number;
  started: string;
}

function isServerRecord(value: unknown): value is ServerRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { root, url, pid, started } = value as Record<string, unknown>;
  return (
    typeof root === 'string' &&
    typeof url === 'string' &&
    typeof started === 'string' &&
    Number.isInteger(pid) &&
    (pid as number) > 0
  );
}

function recordFile(root: string): string {
  const id = createHash('sha256').update(root).digest('hex').slice(0, 32);
  return path.join(stateDir(), 'servers', `${id}.json`);
}

/** The server running for this repository, if one answers; a record left by a dead server is removed. */
export async function findRunningServer(root: string): Promise<ServerRecord | null> {
  const file = recordFile(root);
  const record = await readRecord(file);
  if (!record) return null;
  if (record.root === root && isAlive(record.pid) && (await answers(record))) return record;
  if (!isAlive(record.pid)) await rm(file, { force: true });
  return null;
}

/**
 * Records this server. Claims the file exclusively, so of two servers started at the same
 * moment for one repository, the second learns of the first and returns it instead.
 */
export async function recordServer(record: ServerRecord): Promise<ServerRecord | null> {
  const file = recordFile(record.root);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await chmod(path.dirname(file), 0o700).catch(() => {});
  const text = `${JSON.stringify(record, null, 2)}\n`;
  try {
    const handle = await open(file, 'wx', 0o600);
    await handle.writeFile(text);
    await handle.close();
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const other = await findRunningServer(record.root);
  if (other && other.pid !== record.pid) return other;
  // The record left there is stale: replace it whole.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await rename(temporary, file);
  return null;
}

/** Removes this server's record (and only its own: another server may have replaced it). */
export async function forgetServer(root: string, pid: number): Promise<void> {
  const file = recordFile(root);
  const record = await readRecord(file);
  if (record?.pid === pid) await rm(file, { force: true });
}

async function readRecord(file: string): Promise<ServerRecord | null> {
  try {
    const record: unknown = JSON.parse(await readFile(file, 'utf8'));
    return isServerRecord(record) ? record : null;
  } catch {
    return null;
  }
}

/** Asks the recorded server which repository it serves (a reused pid or port would answer otherwise, or not at all). */
async function answers(record: ServerRecord): Promise<boolean> {
  const url = new URL(record.url);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  try {
    const response = await fetch(new URL('/api/health', url), {
      headers: { [TOKEN_HEADER]: token },
      signal: AbortSignal.timeout(1000),
    });
    const body = (await response.json()) as { root?: unknown };
    return response.ok && body.root === record.root;
  } catch {
    return false;
  }
}
