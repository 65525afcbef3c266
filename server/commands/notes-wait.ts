import { watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { Material } from '../../schemas/material';
import { parseNotes, type HandOver } from '../../schemas/notes';
import { localIsoTime } from '../emit/time';
import { runnable } from '../invocation';
import type { Output } from '../output';
import { repoRoot } from '../read-review';
import { assertReviewDirSafe, type ReviewDir } from '../review-dir';
import { readSettled, signature } from '../review-files';
import { forgetWaiting, writeWaiting } from '../waiting';
import { newerThanRound, type RoundMark } from '../../src/model/handover';
import { notes, type NotesFlags } from './notes';

/** The exit code of a wait that timed out: 0, 1 and 2 say success, an error and a usage error. */
export const WAIT_TIMED_OUT = 3;
/** The exit code after Ctrl-C, as shells report a process ended by SIGINT. */
const INTERRUPTED = 130;
/** Below the shortest shell-command limit of common agents (Claude Code's is 10 minutes). */
export const DEFAULT_WAIT_SECONDS = 540;
/** A look at the files now and then, for a `.review/` replaced under the watch (which then hears nothing). */
const POLL_MS = 2000;

export interface WaitFlags extends NotesFlags {
  /** Wait for a hand-over made after this call, not just one newer than the latest round. Default false. */
  fresh: boolean;
  /** Seconds to wait before giving up with WAIT_TIMED_OUT. Default DEFAULT_WAIT_SECONDS. */
  timeout: number;
  /** The command line to tell the agent to run again on timeout. */
  again: string;
}

/**
 * `involut notes --wait`: blocks until the reader hands the notes over (a record in
 * notes.json's `handedOver` newer than the latest round, or, with `--new`, made after the
 * call), then prints what `involut notes` prints. Watches `.review/` itself, so it needs no
 * server; while it waits, `.review/waiting.json` tells the viewer so. Returns the exit code.
 */
export async function notesWait(flags: WaitFlags, out: Output): Promise<number> {
  const root = await repoRoot(flags.repo);
  const review = await assertReviewDirSafe(root);
  await mkdir(review.dir, { recursive: true });
  const before = (await handOvers(review)).length;
  const due = async () => {
    const all = await handOvers(review);
    if (flags.fresh) return all.length > before;
    const last = all.at(-1);
    return last !== undefined && newerThanRound(last, await latestRound(review));
  };
  const outcome = await waitFor(review, due, { timeoutMs: flags.timeout * 1000, signals: true });
  if (outcome === 'interrupted') return INTERRUPTED;
  if (outcome === 'timeout') {
    const message = runnable(`No hand-over in ${flags.timeout} s; run \`${flags.again}\` again to keep waiting.`);
    out.result({ handedOver: false, message }, () => [message]);
    return WAIT_TIMED_OUT;
  }
  await notes(flags, out);
  return 0;
}

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
async function latestRound(review: ReviewDir): Promise<Round> {
  const now = await signature(review.material);
  if (lastRound && lastRound.signature === now) return lastRound.round;
  const read = await readSettled(review.material, { maxWaitMs: 200 });
  const parsed = read.bytes === null || 'error' in read ? null : Material.safeParse(read.value);
  const round = parsed?.success ? { round: parsed.data.source.round, generated: parsed.data.generated } : null;
  lastRound = { signature: now, round };
  return round;
}
