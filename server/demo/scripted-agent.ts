import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { noteThreads, openNotes } from '../../shared/threads';
import { handOvers, waitFor } from '../review/handover-wait';
import { emitRound } from '../round/material';
import { openRepo } from '../git/repo';
import { readReview } from '../review/read-review';
import { reviewDir, writeFileAtomic } from '../review/review-dir';
import { answerNotes, insertLines, type Insertion } from './answer-notes';

/** The demo's agent while it runs; `stop` ends its wait and lets a round it is writing finish. */
export interface ScriptedAgent {
  stop(): Promise<void>;
}

/**
 * The agent of `involut demo`, in the demo's own process: it waits for a hand-over the
 * way `involut notes --wait` does (the viewer says it waits), then does what the skill
 * asks of an agent: it answers each open note (answer-notes.ts), captures the next round
 * and adds its new cards to cards.json, and waits again. `say` gets one line for each step.
 */
export function startScriptedAgent(dir: string, say: (line: string) => void): ScriptedAgent {
  const abort = new AbortController();
  const review = reviewDir(dir);
  const loop = (async () => {
    let handled = (await handOvers(review)).length;
    while (!abort.signal.aborted) {
      const due = async () => (await handOvers(review)).length > handled;
      const outcome = await waitFor(review, due, { timeoutMs: null, signals: false, abort: abort.signal });
      if (outcome !== 'due') return;
      handled = (await handOvers(review)).length;
      say(await answerHandOver(dir));
    }
  })().catch((error: unknown) => {
    if (!abort.signal.aborted)
      say(`The demo's agent stopped: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    stop: async () => {
      abort.abort();
      await loop;
    },
  };
}

/** Answers the open notes: edits the working tree, captures the round, then writes the cards. Returns what it did. */
async function answerHandOver(dir: string): Promise<string> {
  const read = await readReview(dir);
  if (read.notes.state !== 'ok' || read.cards.state !== 'ok' || read.material.state !== 'ok')
    return "The demo's agent cannot read the review files; run `involut check` on the demo folder to see why.";
  const cards = read.cards.data.cards;
  const open = openNotes(
    read.notes.data.notes,
    noteThreads(read.notes.data.notes, cards, read.material.data.generated),
  );
  if (open.length === 0) return "The demo's agent was handed over no open notes: nothing to address. It waits again.";
  const round = (read.material.data.source.round ?? 1) + 1;
  const answer = answerNotes(open, cards, round, (ref) => readLines(dir, ref));
  await writeInsertions(dir, answer.insertions);
  const summary = await emitRound(await openRepo(dir), {});
  const raw = read.raw.cards as { cards: unknown[] };
  await writeFileAtomic(
    reviewDir(dir).cards,
    `${JSON.stringify({ ...raw, cards: [...raw.cards, ...answer.cards] }, null, 2)}\n`,
  );
  const n = answer.cards.length;
  return `The demo's agent answered ${n} ${n === 1 ? 'note' : 'notes'} with ${n} new ${n === 1 ? 'card' : 'cards'} in round ${summary.round}; it waits again.`;
}

/** The file's path when the note's ref names a file of the working tree (never in .git or .review); else null. */
function inside(dir: string, ref: string): string | null {
  const file = path.resolve(dir, ref);
  const relative = path.relative(dir, file);
  const first = relative.split(path.sep)[0];
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return first === '.git' || first === '.review' ? null : file;
}

/** A text file's lines, without the empty one after its last newline; null when missing or binary. */
function readLines(dir: string, ref: string): string[] | null {
  const file = inside(dir, ref);
  if (file === null) return null;
  try {
    const text = readFileSync(file, 'utf8');
    if (text.includes('\0')) return null;
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines;
  } catch {
    return null;
  }
}

async function writeInsertions(dir: string, insertions: Insertion[]): Promise<void> {
  const byRef = new Map<string, Insertion[]>();
  for (const insertion of insertions) byRef.set(insertion.ref, [...(byRef.get(insertion.ref) ?? []), insertion]);
  for (const [ref, list] of byRef) {
    const file = inside(dir, ref);
    if (file === null) continue;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${insertLines(readLines(dir, ref) ?? [], list).join('\n')}\n`);
  }
}
