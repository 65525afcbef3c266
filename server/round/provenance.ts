import type { MaterialEntry, PathState } from '../../schemas/material';
import { WITHOUT_REVIEW } from '../git/git';
import type { RawChange } from '../git/diff';
import { pathFromGit, splitBytes } from '../git/path-bytes';
import type { Repo } from '../git/repo';

/** Where each changed path of a round stands in git, by path; a path can be in several states. */
export type Provenance = Map<string, Set<PathState>>;

/**
 * Where the round's changes stand, from three name lists git makes without touching the
 * working tree (the capture already read it into `tree`): committed is base → HEAD, staged
 * is HEAD → the index, and the index → the captured tree is unstaged work, or untracked
 * files when the index lacks the path. Only object ids are compared, so no file is read or
 * stat'ed, and like every capture command they take no optional lock.
 */
export async function lookUpProvenance(repo: Repo, base: string | null, tree: Promise<string>): Promise<Provenance> {
  // Decoded as the diff's paths are, so a name that is not UTF-8 finds its entry.
  const names = async (args: string[]) =>
    splitBytes(await repo.git.runBytes([...args, '--no-renames', '-z', ...WITHOUT_REVIEW]), 0)
      .filter((field) => field.length > 0)
      .map((field) => pathFromGit(field).text);
  const [committed, staged, fields] = await Promise.all([
    // From the base's commit, not its tree: with --since-last or --begin the base is a captured
    // tree, and what it held uncommitted is no commit's change.
    base && repo.head && repo.head !== base ? names(['diff', '--name-only', base, repo.head]) : [],
    names(['diff-index', '--cached', '--name-only', repo.head ?? repo.emptyTree]),
    // The tree is the "before" side here: a path it has and the index lacks is untracked.
    // The first two need no tree, so they run while the capture writes it.
    tree.then((id) => names(['diff-index', '--cached', '--name-status', id])),
  ]);
  const provenance: Provenance = new Map();
  const add = (path: string, state: PathState) => addState(provenance, path, state);
  for (const path of committed) add(path, 'committed');
  for (const path of staged) add(path, 'staged');
  for (let i = 0; i + 1 < fields.length; i += 2) add(fields[i + 1]!, fields[i] === 'D' ? 'untracked' : 'unstaged');
  return provenance;
}

/** Records that a path stands in one more state. */
export function addState(provenance: Provenance, path: string, state: PathState): void {
  const states = provenance.get(path);
  if (states) states.add(state);
  else provenance.set(path, new Set([state]));
}

/** Sets an entry's `provenance` from its path, and its old path when renamed, in the order of PathState. */
export function addProvenance(entry: MaterialEntry, change: RawChange, provenance: Provenance): void {
  const states = new Set([
    ...(provenance.get(change.path) ?? []),
    ...(change.from ? (provenance.get(change.from) ?? []) : []),
  ]);
  entry.provenance = ORDER.filter((state) => states.has(state));
}

const ORDER: PathState[] = ['committed', 'staged', 'unstaged', 'untracked'];
