import { cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { Git } from '../git/git';
import { packageRoot } from '../cli/package-root';

/** `fixtures/demo-repo/recipe.json`: how the folders of the fixture become a repository with a round of work. */
const Recipe = z.object({
  /** Message of the first commit, on main: `base/`. */
  base: z.string(),
  /** Message of the commit on the feature branch: `committed/` laid over the base. */
  commit: z.string(),
  /** Uncommitted renames, done before `working/` is laid over the tree (so a renamed file can change too). */
  rename: z.array(z.tuple([z.string(), z.string()])),
  /** Uncommitted deletions. */
  delete: z.array(z.string()),
  /** Files of the work `git add`ed (staged); the other new files stay untracked, the other edits unstaged. */
  stage: z.array(z.string()),
});

/** The demo's fixture folder, inside the installed package as in a checkout. */
export function demoFixture(): string {
  return path.join(packageRoot(), 'fixtures', 'demo-repo');
}

/** Where the demo was built: the repository, and the temporary folder holding it (what to remove). */
export interface DemoRepo {
  dir: string;
  folder: string;
}

/** The repository's folder name, which is also the name the viewer shows for it. */
const DEMO_NAME = 'dungeon-dash';

/**
 * Builds the demo repository in a new temporary folder from `fixtures/demo-repo/`:
 * a first commit on main (`base/`), a commit on a feature branch (`committed/`),
 * then the uncommitted work: the recipe's renames, `working/` laid over the tree, the
 * recipe's deletions, and some of it staged. The caller removes `folder`.
 */
export async function buildDemoRepo(): Promise<DemoRepo> {
  const fixture = demoFixture();
  const recipe = Recipe.parse(JSON.parse(await readFile(path.join(fixture, 'recipe.json'), 'utf8')));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'involut-demo-'));
  const dir = path.join(folder, DEMO_NAME);
  try {
    await mkdir(dir);
    const git = await new Git(dir).simple();
    await git.init(['--quiet', '--initial-branch=main']);
    await git.addConfig('user.name', 'Involut Demo');
    await git.addConfig('user.email', 'demo@involut.invalid');
    await git.addConfig('commit.gpgsign', 'false');
    await cp(path.join(fixture, 'base'), dir, { recursive: true });
    await git.add('--all');
    await git.commit(recipe.base, { '--no-verify': null });
    await git.checkoutLocalBranch('feature/idle-sessions');
    await cp(path.join(fixture, 'committed'), dir, { recursive: true });
    await git.add('--all');
    await git.commit(recipe.commit, { '--no-verify': null });
    for (const [from, to] of recipe.rename) {
      await mkdir(path.dirname(path.join(dir, to)), { recursive: true });
      await rename(path.join(dir, from), path.join(dir, to));
    }
    await cp(path.join(fixture, 'working'), dir, { recursive: true });
    for (const file of recipe.delete) await rm(path.join(dir, file));
    if (recipe.stage.length) await git.add(['--', ...recipe.stage]);
    return { dir, folder };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
