import path from 'node:path';

/** Names that are generated or locked by tools, folded by default in the viewer. */
const GENERATED_NAMES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'Cargo.lock',
  'Gemfile.lock',
  'composer.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'go.sum',
  'flake.lock',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'packages.lock.json',
  'gradle.lockfile',
]);

const GENERATED_SUFFIXES = [
  '.min.js',
  '.min.css',
  '.js.map',
  '.css.map',
  '.snap',
  '.pb.go',
  '_pb2.py',
  '.generated.ts',
];

/** The suffixes as one expression: asked of every file of a round, one test instead of eight. */
const GENERATED_SUFFIX = new RegExp(
  `(?:${GENERATED_SUFFIXES.map((suffix) => suffix.replace(/[.]/g, '\\.')).join('|')})$`,
);

/** A lockfile or generated file: `linguist-generated` decides when set either way, else the name. */
export function isGenerated(file: string, attribute: boolean | undefined): boolean {
  if (attribute !== undefined) return attribute;
  const name = file.endsWith('/') ? path.posix.basename(file) : file.slice(file.lastIndexOf('/') + 1);
  return GENERATED_NAMES.has(name) || GENERATED_SUFFIX.test(name);
}
