import path from 'node:path';
import { InvolutError } from '../errors';
import { REPO_PROBE, REPO_WHERE, takeEarlyProbe } from './early';
import { Git } from './git';

/** Where a repository and its git files are, resolved once per command. */
export interface Repo {
  git: Git;
  /** The working tree's top level. */
  root: string;
  /** The real index file (per worktree). */
  indexFile: string;
  /** `info/exclude` (shared by all worktrees). */
  excludeFile: string;
  /** The object store's folder (shared by all worktrees). */
  objectsDir: string;
  /** Full id of HEAD, or `null` in a repository with no commits yet. */
  head: string | null;
  /** The current branch's short name, or `null` when HEAD is detached. */
  branch: string | null;
  /** The empty tree's id in this repository's hash format. */
  emptyTree: string;
}

/** The empty tree's id in each hash format git knows today; another one is asked of git. */
const EMPTY_TREES: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/**
 * Finds the repository that contains `dir` (the git top level, so a subfolder works too).
 * One git command answers everything when HEAD is a commit (every round starts with this,
 * and a spawn costs milliseconds); a repository with no commits yet asks three at once.
 */
export async function openRepo(dir: string): Promise<Repo> {
  const probe = new Git(dir);
  const all = await (takeEarlyProbe(dir) ?? probe.tryRun(REPO_PROBE));
  const lines = all?.split('\n') ?? [];
  if (all !== null && lines.length >= 7 && OBJECT_ID.test(lines[5]!)) {
    const [top, indexFile, excludeFile, objectsDir, format, head, branch] = lines as [string, string, string, string, string, string, string];
    return repoAt({ top, indexFile, excludeFile, objectsDir, format }, head, branch === 'HEAD' ? null : branch);
  }
  const [found, head, branch] = await Promise.all([
    probe.tryRun(REPO_WHERE),
    probe.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']),
    probe.tryRun(['symbolic-ref', '--quiet', '--short', 'HEAD']),
  ]);
  const [top, indexFile, excludeFile, objectsDir, format] = (found ?? '').split('\n');
  if (!top || !indexFile || !excludeFile || !objectsDir || !format) {
    throw new InvolutError('not-a-repo', `${dir} is not inside a git working tree; run Involut from your repository or pass --repo DIR.`);
  }
  return repoAt({ top, indexFile, excludeFile, objectsDir, format }, head?.trim() || null, branch?.trim() || null);
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

interface Where {
  top: string;
  indexFile: string;
  excludeFile: string;
  objectsDir: string;
  format: string;
}

async function repoAt({ top, indexFile, excludeFile, objectsDir, format }: Where, head: string | null, branch: string | null): Promise<Repo> {
  const git = new Git(top);
  return {
    git,
    root: top,
    indexFile: path.resolve(top, indexFile),
    excludeFile: path.resolve(top, excludeFile),
    objectsDir: path.resolve(top, objectsDir),
    head,
    branch,
    emptyTree: EMPTY_TREES[format] ?? (await git.run(['hash-object', '-t', 'tree', '/dev/null'])).trim(),
  };
}
