import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Repo } from '../git/repo';

const EXCLUDE_LINE = '/.review/';

/**
 * Makes sure git ignores `.review/` through `info/exclude` (never the user's .gitignore).
 * This reads what is there and gives back the one write, which adds the line if it is
 * missing, so it can run while the round is still being checked. `tracked` says whether
 * the index holds files under `.review/` (a warning then, since they get committed); when
 * it is not known, git is asked.
 */
export async function lookIgnored(repo: Repo, tracked: Promise<boolean | null>): Promise<() => Promise<string[]>> {
  const [current, known] = await Promise.all([readFile(repo.excludeFile, 'utf8').catch(() => ''), tracked]);
  const isTracked = known ?? (await repo.git.run(['ls-files', '--cached', '--', ':(top).review'])).trim() !== '';
  return async () => {
    const lines = current.split(/\r?\n/).map((line) => line.trim());
    if (!lines.some((line) => ['.review', '.review/', '/.review', '/.review/'].includes(line))) {
      await mkdir(path.dirname(repo.excludeFile), { recursive: true });
      const separator = current === '' || current.endsWith('\n') ? '' : '\n';
      await appendFile(repo.excludeFile, `${separator}# Involut's review folder: your full code and notes, never committed\n${EXCLUDE_LINE}\n`);
    }
    if (!isTracked) return [];
    return ['.review/ is tracked by git, and it holds your full code and notes: run `git rm -r --cached .review` and commit.'];
  };
}
