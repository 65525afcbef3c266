import { readFileSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Waiting } from '../../schemas/api';
import { isAlive } from './process-alive';
import type { ReviewDir } from './review-dir';

/** The presence record of `involut notes --wait`, beside the three review files. */
export const WAITING_FILE = 'waiting.json';

const waitingPath = (review: ReviewDir) => path.join(review.dir, WAITING_FILE);

/** The agent waiting for a hand-over now; null when none is, or its record names a process that is gone. */
export async function readWaiting(review: ReviewDir): Promise<Waiting | null> {
  const text = await readFile(waitingPath(review), 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = Waiting.safeParse(parseOrNull(text));
  return parsed.success && isAlive(parsed.data.pid) ? parsed.data : null;
}

/** Writes this process's presence record. */
export async function writeWaiting(review: ReviewDir, record: Waiting): Promise<void> {
  await writeFile(waitingPath(review), `${JSON.stringify(record)}\n`);
}

/**
 * Removes the presence record if it is still this process's (another waiter may have
 * taken over). Synchronous, so a signal handler can run it before the process exits.
 */
export function forgetWaiting(review: ReviewDir, pid: number): void {
  let text: string;
  try {
    text = readFileSync(waitingPath(review), 'utf8');
  } catch {
    return;
  }
  const parsed = Waiting.safeParse(parseOrNull(text));
  if (!parsed.success || parsed.data.pid === pid) rmSync(waitingPath(review), { force: true });
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
