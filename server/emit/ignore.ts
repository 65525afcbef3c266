import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Repo } from '../git/repo';

const EXCLUDE_LINE = '/.review/';

/**
 * Makes sure git ignores `.review/` through `info/exclude` (never the user's
 * .gitignore), and returns a warning when `.review/` is already tracked.
 */
export async function ensureIgnored(repo: Repo): Promise<string[]> {
  return (await lookIgnored(repo))();
}

/**
 * The reading half of `ensureIgnored`, which writes nothing: it can run while the round is
 * still being checked. The function it gives back adds the line if it is missing (the only
 * write) and returns the warnings.
 */
export async function lookIgnored(repo: Repo): Promise<() => Promise<string[]>> {
  const [current, tracked] = await Promise.all([
    readFile(repo.excludeFile, 'utf8').catch(() => ''),
    repo.git.run(['ls-files', '--cached', '--', ':(top).review']),
  ]);
  return async () => {
    const lines = current.split(/\r?\n/).map((line) => line.trim());
    if (!lines.some((line) => ['.review', '.review/', '/.review', '/.review/'].includes(line))) {
      await mkdir(path.dirname(repo.excludeFile), { recursive: true });
      const separator = current === '' || current.endsWith('\n') ? '' : '\n';
      await appendFile(repo.excludeFile, `${separator}# Involut's review folder: your full code and notes, never committed\n${EXCLUDE_LINE}\n`);
    }
    if (tracked.trim() === '') return [];
    return ['.review/ is tracked by git, and it holds your full code and notes: run `git rm -r --cached .review` and commit.'];
  };
}
