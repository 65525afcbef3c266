import path from 'node:path';
import { InvolutError } from '../errors';
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
  /** Full id of HEAD, or `null` in a repository with no commits yet. */
  head: string | null;
  /** The current branch's short name, or `null` when HEAD is detached. */
  branch: string | null;
  /** The empty tree's id in this repository's hash format. */
  emptyTree: string;
}

/** Finds the repository that contains `dir` (the git top level, so a subfolder works too). */
export async function openRepo(dir: string): Promise<Repo> {
  const probe = new Git(dir);
  const top = await probe.tryRun(['rev-parse', '--show-toplevel']);
  if (top === null || top.trim() === '') {
    throw new InvolutError('not-a-repo', `${dir} is not inside a git working tree; run Involut from your repository or pass --repo DIR.`);
  }
  const root = top.trim();
  const git = new Git(root);
  const [paths, head, branch, emptyTree] = await Promise.all([
    git.run(['rev-parse', '--path-format=absolute', '--git-path', 'index', '--git-path', 'info/exclude']),
    git.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']),
    git.tryRun(['symbolic-ref', '--quiet', '--short', 'HEAD']),
    git.run(['hash-object', '-t', 'tree', '/dev/null']),
  ]);
  const [indexFile, excludeFile] = paths.trim().split('\n');
  return {
    git,
    root,
    indexFile: path.resolve(root, indexFile!),
    excludeFile: path.resolve(root, excludeFile!),
    head: head?.trim() || null,
    branch: branch?.trim() || null,
    emptyTree: emptyTree.trim(),
  };
}
