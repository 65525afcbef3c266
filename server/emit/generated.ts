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

const GENERATED_SUFFIXES = ['.min.js', '.min.css', '.js.map', '.css.map', '.snap', '.pb.go', '_pb2.py', '.generated.ts'];

/** A lockfile or generated file: `linguist-generated` decides when set either way, else the name. */
export function isGenerated(file: string, attribute: boolean | undefined): boolean {
  if (attribute !== undefined) return attribute;
  const name = path.posix.basename(file);
  return GENERATED_NAMES.has(name) || GENERATED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}
