import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ReviewFile } from '../../schemas/api';
import { NotesStore } from '../../server/review/notes-store';
import { reviewDir } from '../../server/review/review-dir';
import { ReviewFiles, sha256 } from '../../server/review/review-files';
import { ReviewWatcher, type WatchOptions } from '../../server/serve/watch';
import { removeTempDirs, sleep, tempDir } from '../helpers/server';

const open: ReviewWatcher[] = [];
afterEach(async () => {
  for (const watcher of open.splice(0)) await watcher.close();
});
afterAll(removeTempDirs);

/** A watcher over a bare folder (the watcher needs no git) and the changes it reports. */
async function watching(root = tempDir(), options: WatchOptions = {}) {
  const review = reviewDir(root);
  const files = new ReviewFiles(review);
  const notes = new NotesStore(review);
  const changes: Array<{ file: ReviewFile; ok: boolean; hash: string | null }> = [];
  const watcher = new ReviewWatcher(
    files,
    notes,
    (file) => {
      // What a viewer refetching right now would be served.
      void files.read(file).then(({ state, hash }) => changes.push({ file, ok: state.state === 'ok', hash }));
    },
    options,
  );
  open.push(watcher);
  await watcher.start();
  return { root, review, files, notes, watcher, changes };
}

function writeAtomic(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

const CARDS = JSON.stringify({ contract: 1, cards: [{ id: 'c_1', title: 'One', intent: 'behavior', refs: [] }] });

/**
 * Polls `probe` until it returns something. The patience is far above what a quiet machine
 * needs, so only a missing behaviour fails, never a busy machine.
 */
async function until<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
}

/** Resolves once the watcher watches `.review/` itself (it was made after the watch started). */
const watchingReview = (watcher: ReviewWatcher) => until(() => (watcher.target === 'review' ? true : undefined));

/**
 * Writes `file` anew and waits for that change to be reported. The watcher reports a file's
 * changes one at a time, in order, so any report it owed for what came before has come by then.
 */
async function settleWith(
  changes: Array<{ file: ReviewFile; hash: string | null }>,
  file: ReviewFile,
  at: string,
  text: string,
): Promise<void> {
  writeAtomic(at, text);
  await until(() => changes.find((c) => c.file === file && c.hash === sha256(text)));
}

describe('the watcher of .review/', () => {
  it('waits for .review/ to appear, then reports its files (and again after it is removed and made anew)', async () => {
    const { review, watcher, changes } = await watching();
    expect(watcher.target).toBe('root');
    mkdirSync(review.dir);
    await watchingReview(watcher);
    writeAtomic(review.cards, CARDS);
    const change = await until(() => changes.find((c) => c.file === 'cards'));
    expect(change).toMatchObject({ ok: true, hash: sha256(CARDS) });

    rmSync(review.dir, { recursive: true });
    await until(() => changes.find((c) => c.file === 'cards' && !c.ok));
    mkdirSync(review.dir);
    await watchingReview(watcher);
    writeAtomic(review.material, '{}');
    await until(() => changes.find((c) => c.file === 'material'));
  });

  it('reports nothing of what the files held when it started, and a change right after a viewer read them', async () => {
    const root = tempDir();
    const review = reviewDir(root);
    mkdirSync(review.dir);
    writeAtomic(review.cards, CARDS);
    writeAtomic(review.notes, JSON.stringify({ contract: 1, notes: {} }));
    const { files, changes } = await watching(root);
    // The viewer's first questions, asked as soon as the server is up.
    await Promise.all([files.read('cards'), files.read('notes'), files.read('material')]);
    const edited = CARDS.replace('"One"', '"Two"');
    writeAtomic(review.cards, edited);
    await until(() => changes.find((c) => c.file === 'cards' && c.hash === sha256(edited)));
    // Each file written once more: a report owed for what it held at the start would come first.
    await settleWith(changes, 'notes', review.notes, JSON.stringify({ contract: 1, notes: {}, n: 2 }));
    await settleWith(changes, 'material', review.material, '{"n": 2}');
    expect(changes.map((c) => c.file)).toEqual(['cards', 'notes', 'material']);
  });

  it('reports the last of a quick series of atomic rewrites (chokidar alone drops every other one)', async () => {
    const { review, watcher, changes } = await watching();
    mkdirSync(review.dir);
    await watchingReview(watcher);
    for (let series = 0; series < 3; series += 1) {
      let last = '';
      for (let n = 1; n <= 5; n += 1) {
        last = JSON.stringify({ contract: 1, cards: [], series, n });
        writeAtomic(review.cards, last);
        await sleep(40);
      }
      await until(() => changes.find((c) => c.file === 'cards' && c.hash === sha256(last)));
    }
  });

  it('does not report the server’s own note writes, and does report anyone else’s', async () => {
    const { review, watcher, notes, changes } = await watching();
    mkdirSync(review.dir);
    await watchingReview(watcher);
    await Promise.all(
      [1, 2, 3].map((n) => notes.put(`c_${n}`, { text: `note ${n}`, title: 't', refs: [], seen: null })),
    );
    const byHand = JSON.stringify({ contract: 1, notes: {} });
    await settleWith(changes, 'notes', review.notes, byHand);
    expect(changes.filter((c) => c.file === 'notes').map((c) => c.hash)).toEqual([sha256(byHand)]);
  });

  it('reports an older notes.json put back right after a note write, before it read that write', async () => {
    // A long quiet time, so the put-back lands before the watcher has read the second write.
    const { review, watcher, notes, changes } = await watching(tempDir(), { debounceMs: 300 });
    mkdirSync(review.dir);
    await watchingReview(watcher);
    const first = await notes.put('c_1', { text: 'first', title: 't', refs: [], seen: null });
    await sleep(500);
    const older = readFileSync(review.notes);
    await notes.put('c_1', { text: 'first and second', title: 't', refs: [], seen: first.note });
    writeAtomic(review.notes, older.toString('utf8'));
    await until(() => changes.find((c) => c.file === 'notes' && c.hash === sha256(older)));
  });

  it.each([
    ['50 ms apart', 50],
    ['back to back', 0],
  ])('never reports a file written in two chunks %s while it is half written', async (_case, gap) => {
    const { review, watcher, changes } = await watching();
    mkdirSync(review.dir);
    await watchingReview(watcher);
    const half = Math.floor(CARDS.length / 2);
    writeFileSync(review.cards, CARDS.slice(0, half));
    if (gap) await sleep(gap);
    appendFileSync(review.cards, CARDS.slice(half));
    await until(() => changes.find((c) => c.file === 'cards'));
    // Written once more: a report of the half-written bytes would have come before this one.
    const next = CARDS.replace('"One"', '"Two"');
    await settleWith(changes, 'cards', review.cards, next);
    expect(changes.filter((c) => c.file === 'cards')).toEqual([
      expect.objectContaining({ ok: true, hash: sha256(CARDS) }),
      expect.objectContaining({ ok: true, hash: sha256(next) }),
    ]);
  });

  it('watches as many paths for a repository of 10,000 files as for one of 10', async () => {
    const counts: number[] = [];
    for (const size of [10, 10_000]) {
      const root = tempDir();
      for (let i = 0; i < size; i += 1) {
        if (i % 100 === 0) mkdirSync(path.join(root, `d${i / 100}`));
        writeFileSync(path.join(root, `d${Math.floor(i / 100)}`, `f${i}.txt`), 'x');
      }
      mkdirSync(path.join(root, '.review', 'blobs'), { recursive: true });
      for (const name of ['material.json', 'cards.json', 'notes.json', 'blobs/a.png', 'blobs/b.png']) {
        writeFileSync(path.join(root, '.review', name), '{}');
      }
      const { watcher } = await watching(root);
      counts.push(watcher.watchedCount());
    }
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
  });
});
