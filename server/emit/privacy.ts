import { readConfig, repoConfigFile, userConfigFile } from './config';

/** Files whose content never enters `.review/`, whatever a config says: secrets and keys. */
export const DEFAULT_PRIVACY_EXCLUDES = [
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

/**
 * Loads the built-in excludes, then the user's config, then the repository's `.involut.json`.
 * A pattern without a slash (`*.pem`) matches a file's name in any folder; one with a slash
 * (`secrets/**`) matches the path from the repository root. The name is cut once per file:
 * picomatch's own `basename` option cuts it again for every pattern, a tenth of a 2,000-file round.
 */
export async function loadPrivacy(root: string): Promise<PrivacyCheck> {
  const layers: Array<{ origin: string; patterns: string[] }> = [
    { origin: 'built-in default', patterns: DEFAULT_PRIVACY_EXCLUDES },
    {
      origin: '~/.config/involut/config.json',
      patterns: await readExcludes(userConfigFile()),
    },
    { origin: '.involut.json', patterns: await readExcludes(repoConfigFile(root)) },
  ];
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

async function readExcludes(file: string): Promise<string[]> {
  return (await readConfig(file))?.privacyExcludes ?? [];
}
