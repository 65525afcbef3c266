import { pathFromGit, splitBytes } from './path-bytes';
import type { Repo } from './repo';

/** A commit that touched a file. */
export interface Commit {
  id: string;
  subject: string;
  /** Position in history, oldest first. */
  order: number;
}

/** A round's commits: every one, oldest first, and by each path it touched. */
export interface RoundLog {
  /** Merges and empty commits too, which touch no path here. */
  commits: Commit[];
  byPath: Map<string, Commit[]>;
}

/**
 * The commits in `from..HEAD` (every commit when `from` is null), oldest first, by
 * each path they touched. A rename counts for both paths (`--no-renames`).
 */
export async function roundLog(repo: Repo, from: string | null): Promise<RoundLog> {
  const byPath = new Map<string, Commit[]>();
  const commits: Commit[] = [];
  if (!repo.head || from === repo.head) return { commits, byPath };
  const range = from ? `${from}..HEAD` : 'HEAD';
  const out = await repo.git.runBytes([
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
  for (const record of splitBytes(out, 0x1e)) {
    if (record.length === 0) continue;
    // A commit that touched nothing (a merge, an empty commit) has no NUL when it is the last.
    const cut = record.indexOf(0);
    const end = cut === -1 ? record.length : cut;
    const header = record.subarray(0, end).toString('utf8');
    const space = header.indexOf(' ');
    const commit = { id: header.slice(0, space), subject: header.slice(space + 1), order: order++ };
    commits.push(commit);
    if (cut === -1) continue;
    const names = record.subarray(record[end + 1] === 0x0a ? end + 2 : end + 1);
    // Decoded as the diff's paths are, so a name that is not UTF-8 finds its entry.
    for (const name of splitBytes(names, 0)) {
      if (name.length === 0) continue;
      const file = pathFromGit(name).text;
      const list = byPath.get(file);
      if (list) list.push(commit);
      else byPath.set(file, [commit]);
    }
  }
  return { commits, byPath };
}
