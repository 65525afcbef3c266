import type { Repo } from './repo';

/** `linguist-generated` per path: true (set), false (explicitly unset), absent when unspecified. */
export async function generatedAttribute(repo: Repo, paths: string[]): Promise<Map<string, boolean>> {
  const result = new Map<string, boolean>();
  if (paths.length === 0) return result;
  // `--all`: only the attributes a path has are written, nothing at all where none applies.
  const args = ['check-attr', '-z', '--stdin', '--all'];
  const fields = (await repo.git.runBytes(args, {}, [], Buffer.from(paths.map((p) => `${p}\0`).join(''))))
    .toString('utf8')
    .split('\0');
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const generated = fields[i + 1] === GENERATED ? generatedValue(fields[i + 2]) : undefined;
    if (generated !== undefined) result.set(fields[i]!, generated);
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
