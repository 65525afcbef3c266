import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, entryOf, makeRepo, readMaterial, refs, runCli, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

/** Runs `involut rounds` (with its flags) through the built CLI; fails the test on a non-zero exit. */
async function round(repo: TempRepo, ...flags: string[]): Promise<{ stderr: string }> {
  const run = await runCli(['rounds', ...flags], repo.dir);
  expect(run.code, run.stderr).toBe(0);
  return run;
}

describe('a capture never hides what git knows', () => {
  it('a submodule with uncommitted work inside: its new commit is captured, its dirt warned of by path', async () => {
    const lib = makeRepo();
    lib.write('lib.txt', 'lib\n');
    lib.commit('lib: first');
    const repo = makeRepo();
    repo.write('app.txt', 'app\n');
    repo.git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', lib.dir, 'vendor/lib']);
    repo.commit('add lib');
    const sub = repo.path('vendor/lib');
    repo.git(['-c', 'user.name=T', '-c', 'user.email=t@t', 'commit', '--quiet', '--allow-empty', '-m', 'moved'], sub);
    repo.write('vendor/lib/lib.txt', 'edited, not committed\n');
    repo.write('vendor/lib/new.txt', 'untracked in the submodule\n');
    const { stderr } = await round(repo);
    const material = readMaterial(repo.dir);
    const entry = entryOf(material, 'vendor/lib');
    expect(entry.submodule?.after).toBe(repo.git(['rev-parse', 'HEAD'], sub).trim());
    const warning = material.source.warnings?.find((w) => w.startsWith('vendor/lib:'));
    expect(warning).toMatch(/uncommitted modified files and untracked files/);
    expect(stderr).toContain(warning);
  });

  it('files marked assume-unchanged or skip-worktree and then edited are captured; a sparse one is not deleted', async () => {
    const repo = makeRepo();
    for (const name of ['assumed.txt', 'skipped.txt', 'sparse.txt', 'plain.txt']) repo.write(name, `${name}\n`);
    repo.commit('initial');
    repo.git(['update-index', '--assume-unchanged', 'assumed.txt']);
    repo.git(['update-index', '--skip-worktree', 'skipped.txt', 'sparse.txt']);
    repo.write('assumed.txt', 'assumed.txt\nedited behind git status\n');
    repo.write('skipped.txt', 'skipped.txt\nedited behind git status\n');
    repo.remove('sparse.txt'); // as a sparse checkout leaves it
    await round(repo);
    const material = readMaterial(repo.dir);
    expect(refs(material)).toEqual(['assumed.txt', 'skipped.txt']);
    for (const ref of ['assumed.txt', 'skipped.txt']) {
      expect(entryOf(material, ref)).toMatchObject({
        status: 'modified',
        diff: expect.stringContaining('+edited behind git status') as string,
      });
    }
    // The user's own marks stay as they were.
    expect(repo.git(['ls-files', '-v', 'assumed.txt', 'skipped.txt', 'sparse.txt'])).toBe(
      'h assumed.txt\nS skipped.txt\nS sparse.txt\n',
    );
  });

  it('conflicted files during a merge are labelled conflicted, not staged; a withheld one is listed, never captured', async () => {
    const repo = makeRepo();
    repo.write('story.txt', 'base\n');
    repo.write('deploy.key', 'base key\n');
    repo.commit('base');
    repo.git(['checkout', '--quiet', '-b', 'other']);
    repo.write('story.txt', 'theirs\n');
    repo.write('deploy.key', 'their key\n');
    repo.commit('theirs');
    repo.git(['checkout', '--quiet', 'main']);
    repo.write('story.txt', 'ours\n');
    repo.write('deploy.key', 'our key\n');
    repo.commit('ours');
    try {
      repo.git(['merge', '--quiet', 'other']);
    } catch {
      // A conflict is what this test wants.
    }
    await round(repo);
    const material = readMaterial(repo.dir);
    const story = entryOf(material, 'story.txt');
    expect(story.conflicted).toBe(true);
    expect(story.provenance).not.toContain('staged');
    expect(story.diff).toContain('+<<<<<<< HEAD');
    const key = entryOf(material, 'deploy.key');
    expect(key).toMatchObject({ conflicted: true, diff: null });
    expect(key.withheld?.reason).toContain('*.key');
    const tree = material.source.tree!;
    expect(repo.git(['rev-parse', `${tree}:deploy.key`])).toBe(repo.git(['rev-parse', 'HEAD:deploy.key']));
    expect(repo.git(['status', '--porcelain'])).toContain('UU story.txt');
  });

  it('--since-last labels committed only what was committed since the last round', async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    repo.write('notes.txt', 'untracked draft\n');
    repo.write('a.txt', 'a\nunstaged\n');
    await round(repo);
    repo.write('notes.txt', 'untracked draft, longer\n');
    repo.write('b.txt', 'b\n');
    repo.git(['add', 'b.txt']);
    repo.git(['commit', '--quiet', '-m', 'add b']);
    repo.write('a.txt', 'a\nunstaged\nmore\n');
    await round(repo, '--since-last');
    const material = readMaterial(repo.dir);
    expect(entryOf(material, 'notes.txt').provenance).toEqual(['untracked']);
    expect(entryOf(material, 'a.txt').provenance).toEqual(['unstaged']);
    expect(entryOf(material, 'b.txt').provenance).toEqual(['committed']);
  });
});
