import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitEnv, type SynthRepo } from './synth-repo';

/** 100,000 tracked files (in 1,000 folders), 10 of them changed: the common round in a big repository. */
export function manyFilesRepo(root: string, log: (line: string) => void): SynthRepo {
  return cachedRepo(root, 'many-files-v1', log, (write) => {
    for (let i = 0; i < 100_000; i++)
      write(`pkg${Math.floor(i / 100)}/file${i}.ts`, `export const value${i} = ${i};\n`);
    return () => {
      for (let i = 0; i < 100_000; i += 10_000)
        write(`pkg${Math.floor(i / 100)}/file${i}.ts`, `export const value${i} = ${i + 1};\n`);
    };
  });
}

/** 20 tracked files, one changed: the smallest round. */
export function smallRepo(root: string, log: (line: string) => void): SynthRepo {
  return cachedRepo(root, 'small-v1', log, (write) => {
    for (let i = 0; i < 20; i++) write(`src/file${i}.ts`, `export const value${i} = ${i};\n`);
    return () => write('src/file7.ts', 'export const value7 = 8;\n');
  });
}

/**
 * A repository built once under `root/<name>` and cached: `lay` writes the base's files
 * and returns what changes them into the working state (neither staged nor committed).
 * The base lives in one pack, so every other object is a capture's (see `resetRepo`).
 */
function cachedRepo(
  root: string,
  name: string,
  log: (line: string) => void,
  lay: (write: (file: string, text: string) => void) => () => void,
): SynthRepo {
  const dir = path.join(root, name);
  const markerFile = path.join(dir, '.git', 'involut-bench.json');
  if (existsSync(markerFile)) {
    const { base, basePacks } = JSON.parse(readFileSync(markerFile, 'utf8')) as { base: string; basePacks: string[] };
    return { dir, base, basePacks, version: name, built: false, stats: emptyStats() };
  }
  log(`building ${dir} …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8', maxBuffer: 1 << 28 });
  git(['init', '-q', '-b', 'main']);
  for (const [key, value] of [
    ['user.name', 'Bench'],
    ['user.email', 'bench@example.invalid'],
    ['gc.auto', '0'],
  ] as const)
    git(['config', key, value]);
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const change = lay(write);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'base']);
  git(['repack', '-a', '-d', '-q']);
  git(['prune-packed']);
  const base = git(['rev-parse', 'HEAD']).trim();
  const basePacks = readdirSync(path.join(dir, '.git', 'objects', 'pack'));
  change();
  // The index's stat data as any working repository has it, refreshed once.
  git(['update-index', '-q', '--refresh']);
  writeFileSync(markerFile, JSON.stringify({ base, basePacks }, null, 2));
  return { dir, base, basePacks, version: name, built: true, stats: emptyStats() };
}

function emptyStats(): SynthRepo['stats'] {
  return { textFiles: 0, largeLines: 0, largeBytes: 0, images: 0, imageBytes: { min: 0, max: 0, total: 0 } };
}
