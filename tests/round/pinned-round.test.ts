import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { cleanup, lines, makeRepo, runCli } from '../helpers/git-repo';
import { liveFetch, removeTempDirs, startLive, type LiveServer } from '../helpers/server';

afterAll(() => {
  cleanup();
  removeTempDirs();
});

type Answer = { state: 'ok'; data: Material } | { state: 'mismatched'; message: string } | { state: string };

/**
 * /api/round once it is in the `expected` state (the server rereads a file that changed),
 * or the last answer when it never gets there: the assertion after it then shows that answer.
 */
async function roundOnceRead(server: LiveServer, expected: string): Promise<Answer> {
  for (let tries = 0; ; tries++) {
    const answer = (await (await liveFetch(server, '/api/round')).json()) as Answer;
    if (answer.state === expected || tries === 1500) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the round served is the round its pinned tree holds', () => {
  it('serves a real round (renames, deletions, withheld files), and refuses one edited by hand with a sentence', async () => {
    const repo = makeRepo();
    repo.write('old-name.txt', `${lines(30, 'kept')}\n`);
    repo.write('gone.txt', 'gone\n');
    repo.write('secrets.key', 'committed key\n');
    repo.write('app.txt', 'app\n');
    repo.commit('initial');
    repo.move('old-name.txt', 'new-name.txt');
    repo.remove('gone.txt');
    repo.write('app.txt', 'app, changed\n');
    repo.write('secrets.key', 'edited key\n');
    repo.write('.env', 'TOKEN=x\n');
    const run = await runCli(['rounds'], repo.dir);
    expect(run.code, run.stderr).toBe(0);
    const file = repo.path('.review/material.json');
    const good = readFileSync(file, 'utf8');
    const material = JSON.parse(good) as Material;
    expect(material.material.map((e) => e.ref).sort()).toEqual(
      ['.env', 'app.txt', 'gone.txt', 'new-name.txt', 'secrets.key'].sort(),
    );

    const server = await startLive(repo.dir);
    try {
      const ok = await roundOnceRead(server, 'ok');
      expect((ok as { data: Material }).data.source.round).toBe(1);

      // A path added by hand: a file the round's tree does not change.
      const added = structuredClone(material);
      added.material.push({ ...added.material.find((e) => e.ref === 'app.txt')!, ref: 'invented.txt' });
      writeFileSync(file, JSON.stringify(added, null, 2));
      const withPath = (await roundOnceRead(server, 'mismatched')) as { message: string };
      expect(withPath.message).toBe(
        "material.json lists invented.txt, which round 1's pinned tree does not change: the file was edited; run `involut rounds` to capture the round again.",
      );

      // A file left out.
      const fewer = structuredClone(material);
      fewer.material = fewer.material.filter((e) => e.ref !== 'gone.txt');
      writeFileSync(file, JSON.stringify(fewer, null, 2));
      expect(((await roundOnceRead(server, 'mismatched')) as { message: string }).message).toContain(
        'material.json leaves out gone.txt',
      );

      // The tree id changed: the ref pins another tree.
      const moved = structuredClone(material);
      moved.source.tree = repo.git(['rev-parse', 'HEAD^{tree}']).trim();
      writeFileSync(file, JSON.stringify(moved, null, 2));
      expect(((await roundOnceRead(server, 'mismatched')) as { message: string }).message).toMatch(
        /^material\.json says round 1 captured tree [0-9a-f]{12}, but refs\/involut\/rounds\/1 pins [0-9a-f]{12}: the file was edited or comes from another round; run `involut rounds` to capture the round again\.$/,
      );

      // Put back as it was written: served again.
      writeFileSync(file, good);
      expect((await roundOnceRead(server, 'ok')).state).toBe('ok');
    } finally {
      await server.stop();
    }
  }, 60_000);
});
