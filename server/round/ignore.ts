import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Repo } from '../git/repo';

const EXCLUDE_LINE = '/.review/';

/**
 * Makes sure git ignores `.review/` through `info/exclude` (never the user's .gitignore),
 * before anything is written there: `git add -A` must never stage it, and a capture keeps
 * it out this way (see `captureTree`).
 */
export async function excludeReview(repo: Repo): Promise<void> {
  const current = await readFile(repo.excludeFile, 'utf8').catch(() => '');
  if (excludes(current)) return;
  await mkdir(path.dirname(repo.excludeFile), { recursive: true });
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await appendFile(
    repo.excludeFile,
    `${separator}# Involut's review folder: your full code and notes, never committed\n${EXCLUDE_LINE}\n`,
  );
}

/** Whether `info/exclude` already keeps `.review/` out of git (every round after a repository's first). */
export async function reviewExcluded(repo: Repo): Promise<boolean> {
  return excludes(await readFile(repo.excludeFile, 'utf8').catch(() => ''));
}

function excludes(text: string): boolean {
  return text.split(/\r?\n/).some((line) => ['.review', '.review/', '/.review', '/.review/'].includes(line.trim()));
}

/**
 * What `git add --all` would take from `.review/`: `tracked` when the index holds files
 * there (they get committed: a warning), `added` when it would stage any (tracked, or
 * un-ignored by a `.gitignore` rule such as `!.review`); the capture then takes them out.
 */
export async function reviewInCapture(repo: Repo): Promise<{ tracked: boolean; added: boolean }> {
  const listed = await repo.git.run([
    'ls-files',
    '-z',
    '-t',
    '--cached',
    '--others',
    '--exclude-standard',
    '--',
    ':(top).review',
  ]);
  const tags = listed.split('\0').filter(Boolean);
  return { tracked: tags.some((line) => !line.startsWith('? ')), added: tags.length > 0 };
}

export const TRACKED_WARNING =
  '.review/ is tracked by git, and it holds your full code and notes: run `git rm -r --cached .review` and commit.';
