import { pathFromGit, splitBytes } from './path-bytes';
import type { Repo } from './repo';

/**
 * `linguist-generated` per path (keyed by its text, see `pathFromGit`): true (set), false
 * (explicitly unset), absent when unspecified. A path that is not UTF-8 is given as its bytes.
 */
export async function generatedAttribute(repo: Repo, paths: Array<string | Buffer>): Promise<Map<string, boolean>> {
  const result = new Map<string, boolean>();
  if (paths.length === 0) return result;
  // `--all`: only the attributes a path has are written, nothing at all where none applies.
  const args = ['check-attr', '-z', '--stdin', '--all'];
  const input = Buffer.concat(paths.flatMap((p) => [Buffer.from(p), Buffer.from([0])]));
  // With no index: the attributes come from the working tree's .gitattributes, as the captured
  // tree has them, and git does not read a large index only to find a .gitattributes in it.
  const out = await repo.git.runBytes(args, { GIT_INDEX_FILE: `${repo.scratchIndex}.none` }, [], input);
  const fields = splitBytes(out, 0);
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const generated =
      fields[i + 1]!.toString('utf8') === GENERATED ? generatedValue(fields[i + 2]!.toString('utf8')) : undefined;
    if (generated !== undefined) result.set(pathFromGit(fields[i]!).text, generated);
  }
  return result;
}

const GENERATED = 'linguist-generated';

/** What a `linguist-generated` value says: true (set), false (unset), undefined (anything else). */
function generatedValue(value: string | undefined): boolean | undefined {
  if (value === 'set' || value === 'true') return true;
  if (value === 'unset' || value === 'false') return false;
  return undefined;
}
