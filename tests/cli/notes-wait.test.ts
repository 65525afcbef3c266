import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, configureIdentity, makeRepo, runCli } from '../helpers/git-repo';

afterAll(cleanup);

describe('involut notes --wait', () => {
  it('gives up after --timeout with exit 3, one run-again line, and no presence record left', async () => {
    const repo = makeRepo();
    configureIdentity(repo);
    repo.write('a.txt', 'a\n');
    repo.commit('first');
    repo.write('a.txt', 'a\nb\n');
    expect((await runCli(['rounds'], repo.dir)).code).toBe(0);
    const result = await runCli(['notes', '--wait', '--timeout', '1'], repo.dir);
    expect(result.code).toBe(3);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toMatch(/No hand-over in 1 s; run `.*notes --wait --timeout 1` again/);
    expect(existsSync(path.join(repo.dir, '.review', 'waiting.json'))).toBe(false);
  });
});
