/**
 * ARCHITECTURE.md's code map and the folders agree: a newcomer who reads the map finds every
 * folder of the product, and every folder it names is there.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli';

/** Folders mapped at every depth; the others (fixtures, tests, bench) are mapped by their top folder. */
const MAPPED_DEEP = /^(schemas|shared|server|src|skill)(\/|$)/;

function folders(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: projectRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  const found = new Set<string>();
  for (const file of files) {
    const dir = path.posix.dirname(file);
    if (dir === '.') continue;
    if (MAPPED_DEEP.test(dir)) for (let d = dir; d !== '.'; d = path.posix.dirname(d)) found.add(d);
    else found.add(dir.split('/')[0]!);
  }
  return [...found].sort();
}

function mapped(): string[] {
  const text = readFileSync(path.join(projectRoot, 'ARCHITECTURE.md'), 'utf8');
  return [...text.matchAll(/^### `([^`]+)\/`$/gm)].map((match) => match[1]!).sort();
}

describe('ARCHITECTURE.md', () => {
  it('maps every folder of the product, and names no folder that is not there', () => {
    expect(mapped()).toEqual(folders());
  });
});
