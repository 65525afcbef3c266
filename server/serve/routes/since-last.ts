import type { FastifyInstance } from 'fastify';
import type { SinceLast } from '../../../schemas/api';
import type { MaterialEntry } from '../../../schemas/material';
import type { AppContext } from '../app';
import { OBJECT_ID } from '../../git/blob-stream';
import { diffTrees } from '../../git/diff';
import { BlobReader } from '../../git/objects';
import type { Repo } from '../../git/repo';
import { buildEntry, type EntryFacts } from '../../round/entry';
import { lookUpFacts } from '../../round/material';
import { loadPrivacy } from '../../round/privacy';
import { finishedRounds, readRound, roundRef } from '../../round/rounds';
import { runnable } from '../../cli/invocation';

/** Answers kept per pair of rounds; a reader goes back and forth between a few at most. */
const CACHED = 4;

type Round = { round: number; tree: string; hidden?: MaterialEntry[] };

/**
 * `GET /api/since-last`: what changed between the last round finished before the one in
 * material.json (kept in `.review/rounds/`) and that round, diffed by git between their pinned
 * trees. Every id given to git comes from those files and is checked to be an object id.
 */
export function sinceLastRoutes(api: FastifyInstance, context: AppContext): void {
  const answers = new Map<string, Promise<string>>();
  api.get('/since-last', async (_request, reply) => {
    const ends = await roundsToCompare(context);
    let json: Promise<string>;
    if ('reason' in ends) {
      json = Promise.resolve(none(ends.reason));
    } else {
      const key = `${ends.from.round}:${ends.from.tree}..${ends.to.round}:${ends.to.tree}`;
      json = answers.get(key) ?? remember(answers, key, answer(context.repo, ends.from, ends.to));
    }
    return reply.type('application/json; charset=utf-8').send(await json);
  });
}

function remember(answers: Map<string, Promise<string>>, key: string, json: Promise<string>): Promise<string> {
  answers.set(key, json);
  json.catch(() => answers.delete(key)); // a failure is answered once, then tried again
  if (answers.size > CACHED) answers.delete(answers.keys().next().value!);
  return json;
}

const none = (reason: string) => JSON.stringify({ state: 'none', reason: runnable(reason) } satisfies SinceLast);

async function answer(repo: Repo, from: Round, to: Round): Promise<string> {
  // Checked here, once per pair: a tree pruned since is answered as a state, not a git failure.
  if (!(await treeExists(repo, to.tree)))
    return none(`Round ${to.round}'s tree is gone from git; run \`involut rounds\` again.`);
  if (!(await treeExists(repo, from.tree))) {
    return none(
      `Round ${from.round}'s tree is gone from git (its ref ${roundRef(from.round)} was deleted and the tree pruned).`,
    );
  }
  const material = await entriesBetween(repo, from.tree, to.tree);
  const listed = new Set(material.map((e) => e.ref));
  material.push(...(to.hidden ?? []).filter((e) => !listed.has(e.ref)));
  return JSON.stringify({ state: 'ok', data: { from: from.round, to: to.round, material } } satisfies SinceLast);
}

/** The previous kept round and this one, or why they cannot be compared. */
async function roundsToCompare(context: AppContext): Promise<{ from: Round; to: Round } | { reason: string }> {
  const { state } = await context.files.read('material');
  if (state.state !== 'ok') return { reason: 'There is no readable material.json to compare; run `involut rounds`.' };
  const { round, tree } = state.data.source;
  if (!round || !tree || !OBJECT_ID.test(tree)) {
    return {
      reason: 'This material.json names no round or tree (an older Involut wrote it); run `involut rounds` again.',
    };
  }
  const earlier = (await finishedRounds(context.files.review)).filter((n) => n < round);
  const previous = earlier[earlier.length - 1];
  if (previous === undefined) {
    return {
      reason:
        round === 1
          ? 'This is the first round: there is no earlier one to compare with.'
          : `No round before round ${round} is kept in .review/rounds/ (it was captured by an older Involut, or in another worktree).`,
    };
  }
  const previousTree =
    (await readRound(context.files.review, previous))?.tree ?? (await pinnedTree(context.repo, previous));
  if (!previousTree)
    return {
      reason: `Round ${previous}'s tree is gone: its material.json names none and its ref ${roundRef(previous)} is deleted.`,
    };
  // Withheld working copies no tree holds (hash of zeros): listed as the round listed them.
  const hidden = state.data.material
    .filter((e) => e.withheld && /^0+$/.test(e.hash))
    .map(({ lines: _lines, chars: _chars, ...e }) => ({ ...e, diff: null }));
  return { from: { round: previous, tree: previousTree }, to: { round, tree, hidden } };
}

/** The tree `refs/involut/rounds/<n>` pins, for a kept material that records none. */
async function pinnedTree(repo: Repo, n: number): Promise<string | null> {
  const pinned = (await repo.git.tryRun(['rev-parse', '--verify', '--quiet', `${roundRef(n)}^{tree}`]))?.trim();
  return pinned && OBJECT_ID.test(pinned) ? pinned : null;
}

async function treeExists(repo: Repo, tree: string): Promise<boolean> {
  const found = await repo.git.tryRun(['rev-parse', '--verify', '--quiet', `${tree}^{tree}`]);
  return found?.trim() === tree;
}
/**
 * The material entries of `git diff from to`, built as the emitter builds them, with the
 * same privacy excludes; binaries get no before copy, and commits are not looked up.
 */
export async function entriesBetween(repo: Repo, from: string, to: string): Promise<MaterialEntry[]> {
  const withheld = await loadPrivacy(repo.root);
  const reader = new BlobReader(repo);
  const blobs = { reader, dir: null, shortBase: from.slice(0, 7), taken: new Set<string>() };
  const entries: MaterialEntry[] = [];
  let facts: EntryFacts | null = null;
  try {
    for await (const file of diffTrees(repo, from, to, async (changes) => {
      facts = await lookUpFacts(repo, changes, new Map(), withheld);
    })) {
      const { commits: _notLookedUp, ...entry } = await buildEntry(file, facts!, blobs);
      entries.push(entry);
    }
  } finally {
    await reader.close().catch(() => {});
  }
  return entries;
}
