import { writeFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRIVACY_EXCLUDES, loadPrivacy } from '../../server/emit/privacy';
import { cleanup, tempDir } from '../helpers/git-repo';

afterAll(cleanup);

/** The privacy check as picomatch's own matchers give it: the first rule whose matcher says yes. */
function reference(patterns: Array<{ pattern: string; origin: string }>): (file: string) => string | null {
  const rules = patterns.map((rule) => ({ ...rule, matches: picomatch(rule.pattern, { dot: true, basename: !rule.pattern.includes('/') }) }));
  return (file) => {
    const rule = rules.find((r) => r.matches(file));
    return rule ? `matches privacy exclude "${rule.pattern}" (${rule.origin})` : null;
  };
}

describe('the privacy check answers as picomatch does', () => {
  it('for the built-in excludes and config patterns, on names of every kind', async () => {
    const root = tempDir();
    const extra = ['secrets/**', '**/*.key.txt', 'config/prod.yml', '*.{sql,dump}', '[Tt]oken*', '!(*.md)', 'deep/**/x', '.hidden/*', 'a?c', 'exact-name'];
    writeFileSync(path.join(root, '.involut.json'), JSON.stringify({ privacyExcludes: extra }));
    const check = await loadPrivacy(root);
    const expected = reference([
      ...DEFAULT_PRIVACY_EXCLUDES.map((pattern) => ({ pattern, origin: 'built-in default' })),
      ...extra.map((pattern) => ({ pattern, origin: '.involut.json' })),
    ]);
    const files = [
      '.env', '.env.local', 'app/.env.production', 'server.pem', 'deep/dir/server.key', 'id_rsa', 'home/id_ed25519.pub',
      '.netrc', 'x/.pgpass', 'secrets/a.txt', 'secrets/deep/b', 'not-secrets/a.txt', 'a/b/c.key.txt', 'config/prod.yml',
      'other/config/prod.yml', 'db.sql', 'x/y/backup.dump', 'Token.json', 'tokenizer.ts', 'README.md', 'src/index.ts',
      'deep/a/b/x', 'deep/x', '.hidden/file', '.hidden/sub/file', 'abc', 'a/abc', 'exact-name', 'dir/exact-name',
      'with space.pem', 'ünïcode.key', 'new\nline.env', 'weird[1].crt', 'a.b.c', '.', 'x/', '',
    ];
    for (const file of files) expect(check(file), JSON.stringify(file)).toBe(expected(file));
  });
});
