import { InvolutError } from '../cli/errors';
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
  /** Where a capture keeps its temporary index: a name in this worktree's git folder, a suffix added. */
  scratchIndex: string;
  /** Where a running `git gc` says so (`gc.pid`, in the shared git folder). */
  gcPidFile: string;
  /** Full id of HEAD, or `null` in a repository with no commits yet. */
  head: string | null;
  /** The current branch's short name, or `null` when HEAD is detached. */
  branch: string | null;
  /** The empty tree's id in this repository's hash format. */
  emptyTree: string;
}

/** The oldest git Involut runs with: `rev-parse --path-format` came in 2.31. */
const GIT_NEEDED = [2, 31] as const;

/** The empty tree's id in each hash format git knows today; another one is asked of git. */
const EMPTY_TREES: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Where the top level and git's files are (absolute paths, one a line), and the hash format. */
const WHERE = [
  'rev-parse',
  '--show-toplevel',
  '--path-format=absolute',
  ...['index', 'info/exclude', 'involut-index', 'gc.pid'].flatMap((file) => ['--git-path', file]),
  '--show-object-format',
];
/** …with HEAD and its branch: `--abbrev-ref=loose` shortens as `symbolic-ref --short` does; a detached HEAD prints `HEAD`. */
const PROBE = [...WHERE, 'HEAD^{commit}', '--abbrev-ref=loose', 'HEAD'];
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Finds the repository that contains `dir` (the git top level, so a subfolder works too),
 * and refuses a git older than GIT_NEEDED. One git answers where everything is when HEAD
 * is a commit; in a repository with no commits yet that question fails whole, and three
 * smaller ones are asked at once.
 */
export async function openRepo(dir: string): Promise<Repo> {
  const probe = new Git(dir);
  const [all, version] = await Promise.all([probe.tryRun(PROBE), probe.tryRun(['version'])]);
  checkVersion(version);
  let lines = all?.split('\n') ?? [];
  let head: string | null = lines[6] ?? '';
  let branch: string | null = lines[7] === 'HEAD' ? null : (lines[7] ?? null);
  if (!OBJECT_ID.test(head)) {
    const [found, commit, name] = await Promise.all([
      probe.tryRun(WHERE),
      probe.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']),
      probe.tryRun(['symbolic-ref', '--quiet', '--short', 'HEAD']),
    ]);
    [lines, head, branch] = [found?.split('\n') ?? [], commit?.trim() || null, name?.trim() || null];
  }
  const [top, indexFile, excludeFile, scratchIndex, gcPidFile, format] = lines;
  if (!top || !indexFile || !excludeFile || !scratchIndex || !gcPidFile || !format) {
    throw new InvolutError(
      'not-a-repo',
      `${dir} is not inside a git working tree; run Involut from your repository or pass --repo DIR.`,
    );
  }
  const git = new Git(top);
  return {
    git,
    root: top,
    indexFile,
    excludeFile,
    scratchIndex,
    gcPidFile,
    head,
    branch,
    emptyTree: EMPTY_TREES[format] ?? (await git.run(['hash-object', '-t', 'tree', '/dev/null'])).trim(),
  };
}

/** `git version 2.39.5` → fine; an older git, or none, is refused with the version needed. */
function checkVersion(answer: string | null): void {
  const needed = GIT_NEEDED.join('.');
  if (answer === null)
    throw new InvolutError('git-failed', `git could not be run; install git ${needed} or later and put it on PATH.`);
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(answer) ?? []).slice(1).map(Number);
  if (major < GIT_NEEDED[0] || (major === GIT_NEEDED[0] && minor < GIT_NEEDED[1])) {
    throw new InvolutError(
      'git-too-old',
      `Involut needs git ${needed} or later, and this is ${answer.trim()}; update git.`,
    );
  }
}
