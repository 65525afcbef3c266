import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { reviewDir } from '../../server/review/review-dir';
import { cardRounds } from '../../server/round/cards';
import { cleanup, emit, makeRepo, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

const keptCardsPath = (repo: TempRepo, n: number) => repo.path(`.review/rounds/${n}/cards.json`);

/** cards.json as an agent writes it, in a layout of its own (kept byte for byte, not re-serialised). */
function writeCards(repo: TempRepo, ids: string[]): string {
  const cards = ids.map((id) => `{"id":"${id}", "title":"${id}", "intent":"behavior", "refs":["a.txt"]}`);
  const text = `{ "contract": 1,\n  "cards": [\n    ${cards.join(',\n    ')}\n  ] }\n`;
  writeFileSync(repo.path('.review/cards.json'), text);
  return text;
}

function startedRepo(): TempRepo {
  const repo = makeRepo();
  repo.write('a.txt', 'one\n');
  repo.commit('initial');
  return repo;
}

describe('the cards of each round are kept when the next round is captured', () => {
  it('keeps three rounds of cards and tells each card the round it comes from', async () => {
    const repo = startedRepo();
    repo.write('a.txt', 'round 1\n');
    await emit(repo.dir);
    const first = writeCards(repo, ['c_1']);
    repo.write('a.txt', 'round 2\n');
    await emit(repo.dir);
    expect(readFileSync(keptCardsPath(repo, 1), 'utf8')).toBe(first);
    const second = writeCards(repo, ['c_1', 'c_2']);
    repo.write('a.txt', 'round 3\n');
    const { summary } = await emit(repo.dir);
    expect(summary.round).toBe(3);
    // Each round's copy as it was when the next round was captured; the first is not rewritten.
    expect(readFileSync(keptCardsPath(repo, 1), 'utf8')).toBe(first);
    expect(readFileSync(keptCardsPath(repo, 2), 'utf8')).toBe(second);
    expect(existsSync(keptCardsPath(repo, 3))).toBe(false);
    expect(readdirSync(repo.path('.review/rounds/2')).sort()).toEqual(['cards.json', 'material.json', 'round.json']);

    writeCards(repo, ['c_1', 'c_2', 'c_3']);
    const cards = [{ id: 'c_1' }, { id: 'c_2' }, { id: 'c_3' }];
    const { round, rounds } = await cardRounds(reviewDir(repo.dir), cards);
    expect(round).toBe(3);
    expect([...rounds]).toEqual([
      ['c_1', 1],
      ['c_2', 2],
      ['c_3', 3],
    ]);
  });

  it('never writes over a kept copy, keeps nothing without cards.json, and takes back what a failed round kept', async () => {
    const repo = startedRepo();
    await emit(repo.dir);
    // Round 2 without cards.json: nothing is kept for round 1.
    repo.write('a.txt', 'two\n');
    await emit(repo.dir);
    expect(existsSync(keptCardsPath(repo, 1))).toBe(false);

    // A copy already there stays as it is.
    writeFileSync(keptCardsPath(repo, 2), 'kept before\n');
    writeCards(repo, ['c_9']);
    repo.write('a.txt', 'three\n');
    await emit(repo.dir);
    expect(readFileSync(keptCardsPath(repo, 2), 'utf8')).toBe('kept before\n');

    // A round that fails after keeping the cards takes its copy back, so the next one keeps the cards as they are then.
    writeCards(repo, ['c_9', 'c_10']);
    rmSync(repo.path('.review/blobs'), { recursive: true, force: true });
    writeFileSync(repo.path('.review/blobs'), 'not a folder\n');
    repo.write('a.txt', 'four\n');
    await expect(emit(repo.dir)).rejects.toThrow();
    expect(existsSync(keptCardsPath(repo, 3))).toBe(false);
    rmSync(repo.path('.review/blobs'));
    const now = writeCards(repo, ['c_9', 'c_10', 'c_11']);
    const { summary } = await emit(repo.dir);
    expect(summary.round).toBe(4);
    expect(readFileSync(keptCardsPath(repo, 3), 'utf8')).toBe(now);
  });
});
