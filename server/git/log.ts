import { pathFromGit } from './path-bytes';
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
  for (const record of split(out, 0x1e)) {
    const end = record.indexOf(0);
    if (end === -1) continue;
    const header = record.subarray(0, end).toString('utf8');
    const space = header.indexOf(' ');
    const commit = { id: header.slice(0, space), subject: header.slice(space + 1), order: order++ };
    const names = record.subarray(record[end + 1] === 0x0a ? end + 2 : end + 1);
    // Decoded as the diff's paths are, so a name that is not UTF-8 finds its entry.
    for (const name of split(names, 0)) {
      if (name.length === 0) continue;
      const file = pathFromGit(name).text;
      const list = byPath.get(file);
      if (list) list.push(commit);
      else byPath.set(file, [commit]);
    }
  }
  return byPath;
}

function split(bytes: Buffer, separator: number): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(separator); end !== -1; end = bytes.indexOf(separator, start)) {
    parts.push(bytes.subarray(start, end));
    start = end + 1;
  }
  parts.push(bytes.subarray(start));
  return parts;
}
