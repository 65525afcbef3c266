import { exited } from './git';
import type { Repo } from './repo';

/** `linguist-generated` per path: true (set), false (explicitly unset), absent when unspecified. */
export async function generatedAttribute(repo: Repo, paths: string[]): Promise<Map<string, boolean>> {
  const result = new Map<string, boolean>();
  if (paths.length === 0) return result;
  const child = repo.git.spawn(['check-attr', '-z', '--stdin', 'linguist-generated']);
  const done = exited(child, 'git check-attr');
  child.stdin.end(paths.map((p) => `${p}\0`).join(''));
  const chunks: Buffer[] = [];
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await done;
  const fields = Buffer.concat(chunks).toString('utf8').split('\0');
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const value = fields[i + 2];
    if (value === 'set' || value === 'true') result.set(fields[i]!, true);
    else if (value === 'unset' || value === 'false') result.set(fields[i]!, false);
  }
  return result;
}
