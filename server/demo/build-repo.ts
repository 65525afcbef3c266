import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { Git } from '../git/git';
import { packageRoot } from '../package-root';

const Recipe = z.object({
  base: z.string(),
  commit: z.string(),
  rename: z.array(z.tuple([z.string(), z.string()])),
  delete: z.array(z.string()),
});

/**
 * Builds the demo repository in a new temporary folder from `fixtures/demo-repo/`:
 * a first commit on main (`base/`), a commit on a feature branch (`committed/`),
 * then uncommitted work (`working/` over it, plus the recipe's renames and deletions).
 */
export async function buildDemoRepo(): Promise<string> {
  const fixture = path.join(packageRoot(), 'fixtures', 'demo-repo');
  const recipe = Recipe.parse(JSON.parse(await readFile(path.join(fixture, 'recipe.json'), 'utf8')));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'involut-demo-'));
  const git = new Git(dir);
  await git.run(['init', '--quiet', '--initial-branch=main']);
  await git.run(['config', 'user.name', 'Involut Demo']);
  await git.run(['config', 'user.email', 'demo@involut.invalid']);
  await git.run(['config', 'commit.gpgsign', 'false']);
  await cp(path.join(fixture, 'base'), dir, { recursive: true });
  await git.run(['add', '--all']);
  await git.run(['commit', '--quiet', '--no-verify', '-m', recipe.base]);
  await git.run(['checkout', '--quiet', '-b', 'feature/session-expiry']);
  await cp(path.join(fixture, 'committed'), dir, { recursive: true });
  await git.run(['add', '--all']);
  await git.run(['commit', '--quiet', '--no-verify', '-m', recipe.commit]);
  await cp(path.join(fixture, 'working'), dir, { recursive: true });
  for (const [from, to] of recipe.rename) await rename(path.join(dir, from), path.join(dir, to));
  for (const file of recipe.delete) await rm(path.join(dir, file));
  return dir;
}
