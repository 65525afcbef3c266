import { readConfig, repoConfigFile, userConfigFile } from './config';

/** Files whose content never enters `.review/`, whatever a config says: secrets and keys. */
const DEFAULT_PRIVACY_EXCLUDES = [
  '.env*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.crt',
  '*.cer',
  '*.der',
  '*.jks',
  '*.keystore',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '.netrc',
  '.pgpass',
];

/** Answers why a path is withheld, or null when its content may be captured. */
export type PrivacyCheck = (file: string) => string | null;

/** The privacy rules twice over: as the check the material applies, and as what git add leaves out. */
export interface Privacy {
  /** Compiled while the capture starts: only the material (and the rare fallback) needs it. */
  check: Promise<PrivacyCheck>;
  /**
   * `git add` pathspecs that keep every withheld path out of the capture, so no byte of it
   * is ever hashed into the object store; null when a pattern uses picomatch syntax git's
   * globs lack (braces, extglobs, a leading `!`), and the paths must be listed first.
   */
  excludes: string[] | null;
  /**
   * The same patterns as lines of an ignore file (see `gitIgnoreLines`), which keep untracked
   * withheld files out of `git add` at the cost of the ignore rules git checks anyway; null
   * when `excludes` is, or a pattern reads otherwise in an ignore file.
   */
  ignoreLines: string[] | null;
}

/** Loads the privacy rules (see `loadPrivacyRules`) as the check alone. */
export async function loadPrivacy(root: string): Promise<PrivacyCheck> {
  return await (
    await loadPrivacyRules(root)
  ).check;
}

/**
 * Loads the built-in excludes, then the user's config, then the repository's `.involut.json`.
 * A pattern without a slash (`*.pem`) matches a file's name in any folder; one with a slash
 * (`secrets/**`) matches the path from the repository root. The name is cut once per file:
 * picomatch's own `basename` option cuts it again for every pattern, a tenth of a 2,000-file round.
 */
export async function loadPrivacyRules(root: string): Promise<Privacy> {
  const read = [
    { origin: 'built-in default', patterns: Promise.resolve(DEFAULT_PRIVACY_EXCLUDES) },
    {
      origin: '~/.config/involut/config.json',
      patterns: readExcludes(userConfigFile()),
    },
    { origin: '.involut.json', patterns: readExcludes(repoConfigFile(root)) },
  ].map(async (layer) => ({ origin: layer.origin, patterns: await layer.patterns }));
  const layers = await Promise.all(read);
  const check = compile(layers);
  check.catch(() => {}); // awaited by whoever reads the check
  const patterns = layers.flatMap((layer) => layer.patterns);
  return { check, excludes: gitExcludes(patterns), ignoreLines: gitIgnoreLines(patterns) };
}

async function compile(layers: Array<{ origin: string; patterns: string[] }>): Promise<PrivacyCheck> {
  // Loaded here rather than at start-up, which `involut rounds` keeps short so its capture starts early.
  const { default: picomatch } = await import('picomatch');
  const rules = layers.flatMap(({ origin, patterns }) =>
    patterns.map((pattern) => ({
      reason: `matches privacy exclude "${pattern}" (${origin})`,
      byName: !pattern.includes('/'),
      matches: picomatch(pattern, { dot: true }),
    })),
  );
  return (file) => {
    const name = file.slice(file.lastIndexOf('/') + 1);
    return rules.find((rule) => rule.matches(rule.byName ? name : file))?.reason ?? null;
  };
}

/**
 * The patterns as `git add` exclusions matching the same paths: a name pattern in any
 * folder (under `**`), a path pattern from the top. git's `glob` magic reads `*`, `?`,
 * `[...]` and `**` as picomatch does (with `dot`); anything else makes the answer null.
 */
function gitExcludes(patterns: string[]): string[] | null {
  const excludes: string[] = [];
  for (const pattern of patterns) {
    if (/[{}()]/.test(pattern) || /^(!|\/|\.\/)/.test(pattern) || pattern.endsWith('/')) return null;
    excludes.push(`:(exclude,glob,top)${pattern.includes('/') ? '' : '**/'}${pattern}`);
  }
  return excludes;
}

/**
 * The patterns as gitignore lines matching the same files: a name pattern matches in any
 * folder, one with a slash from the top, as in a `.gitignore` at the top. An ignore pattern
 * also matches folders (and so everything in them), which a privacy pattern does not: each
 * is followed by its negation for folders only (`!pattern/`). Null when a pattern is not
 * one git's globs read as picomatch does (see `gitExcludes`), or would read as a comment,
 * an escape or with its trailing spaces cut.
 */
function gitIgnoreLines(patterns: string[]): string[] | null {
  if (gitExcludes(patterns) === null || patterns.some((p) => /^#|\\|\s$/.test(p))) return null;
  return [...patterns, ...patterns.map((pattern) => `!${pattern}/`)];
}

async function readExcludes(file: string): Promise<string[]> {
  return (await readConfig(file))?.privacyExcludes ?? [];
}
