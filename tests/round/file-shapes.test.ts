import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, makeRepo, repoAt, runCli, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

describe('files the user owns keep their shape', () => {
  it('says what is wrong with a notes.json that starts with a BOM or is a folder, and with a config that is a folder', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.commit('initial');
    mkdirSync(repo.path('.review'));
    writeFileSync(repo.path('.review/notes.json'), `\uFEFF${JSON.stringify({ contract: 1, notes: {} })}`);
    const bom = await runCli(['notes'], repo.dir);
    expect(bom.code).toBe(1);
    expect(bom.stderr).toContain(
      '.review/notes.json is not valid JSON at line 1, column 1 (it starts with a byte-order mark (BOM)',
    );
    repo.remove('.review/notes.json');
    mkdirSync(repo.path('.review/notes.json'));
    const folder = await runCli(['notes'], repo.dir);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain('(it is a folder, not a file: move the folder away');
    expect(folder.stderr).not.toMatch(/Unexpected error|EISDIR/);

    mkdirSync(repo.path('.involut.json'));
    const config = await runCli(['rounds'], repo.dir);
    expect(config.code).toBe(1);
    expect(config.stderr).toBe(
      `involut: ${repo.path('.involut.json')} cannot be read (it is a folder); fix or remove it.\n`,
    );
  });

  it('pins --begin per worktree, as begin.json is, and takes over a lock whose process number was reused', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.commit('initial');
    const other = path.join(tempDir('involut-wt-'), 'other');
    repo.git(['worktree', 'add', '--quiet', other]);
    const linked = repoAt(other);
    repo.write('a.txt', 'main work\n');
    linked.write('a.txt', 'linked work\n');
    for (const dir of [repo.dir, other]) {
      const begun = await runCli(['rounds', '--begin'], dir);
      expect(begun.code, begun.stderr).toBe(0);
    }
    for (const r of [repo, linked]) {
      const recorded = JSON.parse(readFileSync(r.path('.review/begin.json'), 'utf8')) as { tree: string };
      expect(r.rev('refs/worktree/involut/begin')).toBe(recorded.tree);
    }
    expect(repo.rev('refs/worktree/involut/begin')).not.toBe(linked.rev('refs/worktree/involut/begin'));

    // Process 1 runs, but it is not the round that wrote the lock: its start time says so.
    writeFileSync(repo.path('.review/.rounds.lock'), '1 999999999999\n');
    const round = await runCli(['rounds'], repo.dir);
    expect(round.code, round.stderr).toBe(0);
    expect(round.stderr).not.toContain('waiting');
  });
});
