import { watch, type FSWatcher } from 'node:fs';
import { Material } from '../../schemas/material';
import { parseNotes, type HandOver } from '../../schemas/notes';
import type { RoundMark } from '../../shared/handover';
import type { ReviewDir } from './review-dir';
import { readSettled, signature } from './review-files';
import { localIsoTime } from './time';
import { forgetWaiting, writeWaiting } from './waiting';

/** A look at the files now and then, for a `.review/` replaced under the watch (which then hears nothing). */
const POLL_MS = 2000;

export interface WaitOptions {
  /** Give up after this long; null: never. */
  timeoutMs: number | null;
  /** End as interrupted on SIGINT or SIGTERM (the CLI's waiter). */
  signals: boolean;
  /** End as interrupted when aborted (a waiter inside a longer process, the demo's agent). */
  abort?: AbortSignal;
}

/**
 * Writes the presence record, then checks `due` on every change in `.review/` (and now and
 * then) until it holds, the time runs out, Ctrl-C or the abort; the record is removed on
 * every way out.
 */
export function waitFor(
  review: ReviewDir,
  due: () => Promise<boolean>,
  options: WaitOptions,
): Promise<'due' | 'timeout' | 'interrupted'> {
  return new Promise((resolve, reject) => {
    if (options.abort?.aborted) return resolve('interrupted');
    let watcher: FSWatcher | null = null;
    let checking = false;
    let again = false;
    const timers: NodeJS.Timeout[] = [];
    let ended = false;
    const end = (outcome: 'due' | 'timeout' | 'interrupted' | Error) => {
      if (ended) return;
      ended = true;
      watcher?.close();
      timers.forEach(clearTimeout);
      timers.forEach(clearInterval);
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      options.abort?.removeEventListener('abort', interrupted);
      forgetWaiting(review, process.pid);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const interrupted = () => end('interrupted');
    const check = async () => {
      if (checking) return void (again = true);
      checking = true;
      try {
        do {
          again = false;
          if (await due()) return end('due');
        } while (again);
      } catch (error) {
        end(error as Error);
      } finally {
        checking = false;
      }
    };
    if (options.signals) {
      process.once('SIGINT', interrupted);
      process.once('SIGTERM', interrupted);
    }
    options.abort?.addEventListener('abort', interrupted);
    writeWaiting(review, { pid: process.pid, since: localIsoTime() }).then(() => {
      if (ended) return forgetWaiting(review, process.pid);
      watcher = watch(review.dir, { persistent: true }, (_event, name) => {
        if (name === 'notes.json' || name === 'material.json' || name === null) void check();
      });
      watcher.on('error', () => {}); // the poll below goes on
      if (options.timeoutMs !== null) timers.push(setTimeout(() => end('timeout'), options.timeoutMs));
      timers.push(setInterval(() => void check(), POLL_MS));
      void check();
    }, reject);
  });
}

/** The hand-overs recorded in notes.json, oldest first; none when it is missing or does not parse yet. */
export async function handOvers(review: ReviewDir): Promise<HandOver[]> {
  const read = await readSettled(review.notes, { maxWaitMs: 200 });
  if (read.bytes === null || 'error' in read) return [];
  const parsed = parseNotes(read.value);
  return parsed.success ? (parsed.data.handedOver ?? []) : [];
}

type Round = RoundMark | null;
/** The last round read, by the file's signature: a large material.json is parsed again only when it changed. */
let lastRound: { signature: string | null; round: Round } | null = null;

/** The round material.json holds: its number and when it was captured; null when there is none. */
export async function latestRound(review: ReviewDir): Promise<Round> {
  const now = await signature(review.material);
  if (lastRound && lastRound.signature === now) return lastRound.round;
  const read = await readSettled(review.material, { maxWaitMs: 200 });
  const parsed = read.bytes === null || 'error' in read ? null : Material.safeParse(read.value);
  const round = parsed?.success ? { round: parsed.data.source.round, generated: parsed.data.generated } : null;
  lastRound = { signature: now, round };
  return round;
}
