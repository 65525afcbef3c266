import { InvolutError } from '../cli/errors';
import type { Repo } from '../git/repo';
import type { BeginRecord, RoundRecord } from './rounds';

/** What a round is compared against, and why. */
export interface Base {
  /** The commit or tree id the diff starts from. */
  oid: string;
  /** The commit whose descendants up to HEAD are the round's commits; null when there is none. */
  commit: string | null;
  /** One sentence saying why this base was chosen. */
  reason: string;
}

export interface BaseOptions {
  /** `--base REF`. */
  ref?: string;
  /** `--since-last`. */
  sinceLast?: boolean;
}

/**
 * Chooses the base in DESIGN.md's order: --base; --since-last; the base recorded by
 * --begin; the merge-base with the default branch when not on it; else HEAD.
 */
export async function resolveBase(
  repo: Repo,
  options: BaseOptions,
  begin: BeginRecord | null,
  previous: RoundRecord | null,
): Promise<Base> {
  if (options.ref !== undefined) return explicitBase(repo, options.ref);
  if (options.sinceLast) {
    if (!previous) {
      throw new InvolutError(
        'no-previous-round',
        'There is no previous round to compare with; run `involut rounds` once without --since-last.',
      );
    }
    return {
      oid: previous.tree,
      commit: previous.head,
      reason: `--since-last: the tree captured by round ${previous.round}`,
    };
  }
  if (begin) {
    return { oid: begin.tree, commit: begin.head, reason: `recorded by \`involut rounds --begin\` at ${begin.at}` };
  }
  if (!repo.head) {
    return { oid: repo.emptyTree, commit: null, reason: 'the repository has no commits yet, so every file is added' };
  }
  const defaultBranch = await findDefaultBranch(repo);
  if (!defaultBranch) {
    return { oid: repo.head, commit: repo.head, reason: 'HEAD (no default branch found: origin/HEAD, main or master)' };
  }
  if (repo.branch !== null && repo.branch === defaultBranch.name) {
    return { oid: repo.head, commit: repo.head, reason: `HEAD (on the default branch ${repo.branch})` };
  }
  const mergeBase = (await repo.git.tryRun(['merge-base', 'HEAD', defaultBranch.ref]))?.trim();
  if (!mergeBase) {
    return { oid: repo.head, commit: repo.head, reason: `HEAD (no common ancestor with ${defaultBranch.ref})` };
  }
  const on = repo.branch ?? 'detached HEAD';
  return { oid: mergeBase, commit: mergeBase, reason: `merge-base of ${on} with ${defaultBranch.ref}` };
}

/** `--base REF`: its commit when it names one, else its tree; both asked of one git. */
async function explicitBase(repo: Repo, ref: string): Promise<Base> {
  // Both asked of one git; a ref that reads as an option or as two questions is no ref.
  const lookup = !ref.startsWith('-') && ref.trim() !== '' && !/[\n\0]/.test(ref);
  const asked = lookup
    ? repo.git.run(
        ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
        {},
        [],
        Buffer.from(`${ref}^{commit}\n${ref}^{tree}\n`),
      )
    : null;
  const answer = asked ? await asked.catch(() => null) : null;
  const [commit, tree] = (answer ?? '')
    .split('\n')
    .map((line) => /^([0-9a-f]{40,64}) (commit|tree)$/.exec(line)?.[1] ?? null);
  if (!tree) {
    throw new InvolutError(
      'unknown-base',
      `Unknown base ref '${ref}': git cannot resolve it to a commit or tree; pass a branch, tag or commit id.`,
    );
  }
  return { oid: commit ?? tree, commit: commit ?? null, reason: `--base ${ref}` };
}

/** The default branch: origin/HEAD's target, else a local main or master, else origin/main or origin/master. */
async function findDefaultBranch(repo: Repo): Promise<{ ref: string; name: string } | null> {
  const candidates = ['refs/heads/main', 'refs/heads/master', 'refs/remotes/origin/main', 'refs/remotes/origin/master'];
  const [originHead, present] = await Promise.all([
    repo.git.tryRun(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']),
    repo.git.run(['for-each-ref', '--format=%(refname)', ...candidates]),
  ]);
  if (originHead?.trim()) return { ref: originHead.trim(), name: originHead.trim().replace(/^origin\//, '') };
  const found = new Set(present.split('\n'));
  const first = candidates.find((ref) => found.has(ref));
  if (!first) return null;
  const short = first.replace(/^refs\/(heads|remotes)\//, '');
  return { ref: short, name: short.replace(/^origin\//, '') };
}
