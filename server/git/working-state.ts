import { pathFromGit, splitBytes } from './path-bytes';
import type { Repo } from './repo';

/** A file whose working copy differs from the index, as `git status` reports it. */
export interface WorkingChange {
  path: string;
  /** untracked: not in the index; modified or deleted: the working copy of an indexed file. */
  kind: 'untracked' | 'modified' | 'deleted';
}

/** What `git status` knows that a captured tree cannot show by itself. */
export interface WorkingState {
  /** Working-copy changes of files; the round reads it only for the ones privacy withholds. */
  changes: WorkingChange[];
  /** Submodules with uncommitted work inside, and what kind: a tree holds only their commit. */
  dirtySubmodules: Array<{ path: string; what: string }>;
}

/**
 * One `git status --porcelain=v2`, run beside the capture's `git add` (it reads the same
 * files and writes nothing: optional locks are off for every git Involut runs), on the
 * paths given, or everywhere when none are.
 */
export async function readWorkingState(repo: Repo, pathspecs: string[]): Promise<WorkingState> {
  const out = await repo.git.runBytes([
    'status',
    '--porcelain=v2',
    '-z',
    '--untracked-files=all',
    '--ignore-submodules=none',
    '--no-renames',
    ...(pathspecs.length ? ['--', ...pathspecs] : []),
  ]);
  const state: WorkingState = { changes: [], dirtySubmodules: [] };
  for (const field of splitBytes(out, 0)) {
    if (field.length === 0) continue;
    const kind = String.fromCharCode(field[0]!);
    if (kind === '?') {
      state.changes.push({ path: pathFromGit(field.subarray(2)).text, kind: 'untracked' });
      continue;
    }
    if (kind !== '1') continue; // unmerged entries come from the capture's own index read
    // `1 XY sub mH mI mW hH hI path`: eight fields before the path.
    let at = 0;
    for (let spaces = 0; spaces < 8; spaces++) at = field.indexOf(32, at) + 1;
    const [, xy = '', sub = ''] = field.subarray(0, at).toString('latin1').split(' ');
    const file = pathFromGit(field.subarray(at)).text;
    if (sub.startsWith('S')) {
      const what = [sub[2] === 'M' ? 'modified files' : '', sub[3] === 'U' ? 'untracked files' : ''].filter(Boolean);
      if (what.length) state.dirtySubmodules.push({ path: file, what: what.join(' and ') });
      continue;
    }
    if (xy[1] === 'M' || xy[1] === 'T') state.changes.push({ path: file, kind: 'modified' });
    else if (xy[1] === 'D') state.changes.push({ path: file, kind: 'deleted' });
  }
  return state;
}

/** The warning a round prints, and the viewer shows, for a submodule with uncommitted work. */
export function submoduleWarning({ path, what }: { path: string; what: string }): string {
  return `${path}: the submodule has uncommitted ${what} inside it; the round shows only the commit it points at.`;
}
