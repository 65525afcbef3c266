import { stat } from 'node:fs/promises';
import { loadPrivacy } from './privacy';
import { capturedIndex } from './capture';
import { WITHOUT_REVIEW } from '../git/git';
import type { Repo } from '../git/repo';

/**
 * Whether the working state differs from a captured tree, found without writing an
 * object, a pack, a ref or the real index: against the index the capture kept (see
 * `capturedIndex`), `git diff --name-only` lists the captured files that changed (git compares
 * the bytes of files whose stat data moved, and may refresh that index's stat data, which
 * is Involut's own file) and `ls-files` lists the files a capture would now add; a withheld
 * path in either list does not count. Null when
 * that index is not there (the tree was captured elsewhere, or by an older Involut).
 * Withheld files never enter a capture, so their working copies say nothing about it.
 */
export async function movedSince(repo: Repo, tree: string): Promise<boolean | null> {
  const index = capturedIndex(repo, tree);
  if (!(await stat(index).catch(() => null))) return null;
  const env = { GIT_INDEX_FILE: index };
  const [changed, added, withheld] = await Promise.all([
    repo.git.run(['diff', '--name-only', '-z', '--no-ext-diff', '--ignore-submodules=dirty', ...WITHOUT_REVIEW], env),
    repo.git.run(['ls-files', '-z', '--others', '--exclude-standard', ...WITHOUT_REVIEW], env),
    loadPrivacy(repo.root),
  ]);
  return `${changed}${added}`.split('\0').some((file) => file !== '' && withheld(file) === null);
}
