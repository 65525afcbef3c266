/** `involut check` warns, in one sentence, about a notes.json the viewer will not write into. */
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, gitRepo, removeTemporaryFolders, runCli } from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

describe('involut check and notes.json', () => {
  it('warns about a read-only notes.json, and says nothing of it once it is writable', async () => {
    const { dir } = await gitRepo();
    expect((await runCli(['rounds', '--quiet'], { cwd: dir })).code).toBe(0);
    const notes = path.join(dir, '.review', 'notes.json');
    await writeFile(notes, JSON.stringify({ contract: 1, notes: {} }));
    await chmod(notes, 0o444);
    const locked = await runCli(['check'], { cwd: dir });
    expect(locked.code).toBe(0);
    expect(locked.stdout).toMatch(
      /^warning notes\.json: \.review\/notes\.json is read-only, so the viewer will not save notes into it\.$/m,
    );
    expect((await runCli(['check', '--strict'], { cwd: dir })).code).toBe(1);
    await chmod(notes, 0o644);
    expect((await runCli(['check'], { cwd: dir })).stdout).not.toMatch(/read-only/);
  });
});
