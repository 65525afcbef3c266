import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';

let cached: string | null = null;

/**
 * How to run this Involut from a shell on this machine, for every command Involut prints:
 * `involut` when that name on PATH is this very program, else the way this process was
 * started (`node /abs/path/dist/server/cli.js`), so a printed command works before
 * Involut is installed anywhere.
 */
export function involutCommand(): string {
  cached ??= findCommand();
  return cached;
}

function findCommand(): string {
  const script = real(process.argv[1] ?? '');
  const onPath = onPathReal('involut');
  if (script && onPath === script) return 'involut';
  const node = onPathReal('node') === real(process.execPath) ? 'node' : shellWord(process.execPath);
  return `${node} ${shellWord(script ?? path.resolve(process.argv[1] ?? ''))}`;
}

/** The real path of the first executable `name` on PATH, or null. */
function onPathReal(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return real(file);
    } catch {
      // not here: the next folder on PATH
    }
  }
  return null;
}

function real(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

/** A path as one shell word: quoted only when it holds something a shell would split or expand. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

const PRINTED = /`(?:npx )?involut(?=[ `])/g;

/** `text` with every command it quotes (`` `involut …` ``, `` `npx involut …` ``) in the form that works here. */
export function runnable(text: string): string {
  return text.includes('involut') ? text.replace(PRINTED, `\`${involutCommand()}`) : text;
}
