import { mkdir } from 'node:fs/promises';
import { runnable } from '../invocation';
import type { Output } from '../output';
import { handOvers, latestRound, waitFor } from '../../review/handover-wait';
import { repoRoot } from '../../review/read-review';
import { assertReviewDirSafe } from '../../review/review-dir';
import { newerThanRound } from '../../../shared/handover';
import { notes, type NotesFlags } from './notes';

/** The exit code of a wait that timed out: 0, 1 and 2 say success, an error and a usage error. */
const WAIT_TIMED_OUT = 3;
/** The exit code after Ctrl-C, as shells report a process ended by SIGINT. */
const INTERRUPTED = 130;
/** Below the shortest shell-command limit of common agents (Claude Code's is 10 minutes). */
export const DEFAULT_WAIT_SECONDS = 540;

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
