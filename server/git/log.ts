import type { Repo } from './repo';

/** A commit that touched a file. */
export interface Commit {
  id: string;
  subject: string;
  /** Position in history, oldest first. */
  order: number;
}

/**
 * The commits in `from..HEAD` (every commit when `from` is null), oldest first, by
 * each path they touched. A rename counts for both paths (`--no-renames`).
 */
export async function commitsByPath(repo: Repo, from: string | null): Promise<Map<string, Commit[]>> {
  const byPath = new Map<string, Commit[]>();
  if (!repo.head || from === repo.head) return byPath;
  const range = from ? `${from}..HEAD` : 'HEAD';
  const out = await repo.git.run([
    'log',
    '--reverse',
    '-z',
    '--name-only',
    '--no-renames',
    '--format=%x1e%H %s',
    range,
    '--',
  ]);
  let order = 0;
  for (const record of out.split('\x1e')) {
    const end = record.indexOf('\0');
    if (end === -1) continue;
    const space = record.indexOf(' ');
    const commit = { id: record.slice(0, space), subject: record.slice(space + 1, end), order: order++ };
    for (const file of record
      .slice(end + 1)
      .replace(/^\n/, '')
      .split('\0')) {
      if (!file) continue;
      const list = byPath.get(file);
      if (list) list.push(commit);
      else byPath.set(file, [commit]);
    }
  }
  return byPath;
}
