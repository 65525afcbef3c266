import { Git } from './git';

/**
 * The first gits of `involut rounds`, started before its modules load (about 20 ms):
 * where the repository is (`REPO_PROBE`, see `openRepo`), then, at its top level, what
 * changed (`LISTING`), the settings that decide how it is staged (`SETTINGS`, see
 * `addDirectly`) and the rounds already pinned (`ROUND_REFS`, see `nextRoundNumber`). Each answer is taken once, by the code that would otherwise ask the same
 * question of the same folder; anything not taken is simply not used.
 */
export function startEarly(dir: string, base?: string): void {
  const where = new Git(dir).tryRun(REPO_PROBE);
  const top = where.then((lines) => lines?.split('\n')[0] || null);
  const at = (args: string[], input?: Buffer) =>
    top.then((root) => {
      if (!root) return null;
      const answer = new Git(root).runBytes(args, {}, [], input);
      answer.catch(() => {}); // a failure is met again when the question is asked for real
      return { root, answer };
    });
  const questions = base === undefined ? null : baseQuestions(base);
  started = {
    dir,
    where,
    listing: at(LISTING),
    settings: at(['config', '-z', '--get-regexp', SETTINGS]),
    rounds: at(ROUND_REFS),
    base: questions ? at(BASE_LOOKUP, questions) : Promise.resolve(null),
    baseRef: base,
  };
}

let started: {
  dir: string;
  where: Promise<string | null>;
  listing: Promise<{ root: string; answer: Promise<Buffer> } | null>;
  settings: Promise<{ root: string; answer: Promise<Buffer> } | null>;
  rounds: Promise<{ root: string; answer: Promise<Buffer> } | null>;
  base: Promise<{ root: string; answer: Promise<Buffer> } | null>;
  baseRef: string | undefined;
} | null = null;

/** `openRepo`'s one git command (`REPO_PROBE`) for `dir`, if it was started early; taken once. */
export function takeEarlyProbe(dir: string): Promise<string | null> | null {
  if (!started || started.dir !== dir) return null;
  const { where } = started;
  started = { ...started, dir: '' };
  return where;
}

/**
 * The answer of the listing, the settings or the base lookup run at `root` (for the base,
 * of `ref`), if it was started early; taken once.
 */
export async function takeEarly(which: 'listing' | 'settings' | 'rounds' | 'base', root: string, ref?: string): Promise<Buffer | null> {
  const early = started?.[which];
  if (!early || !started || (which === 'base' && started.baseRef !== ref)) return null;
  started = { ...started, [which]: Promise.resolve(null) };
  const ran = await early;
  return ran && ran.root === root ? ran.answer : null;
}

/** How `--base REF` is resolved: its commit and its tree, asked of one `cat-file`. */
export const BASE_LOOKUP = ['cat-file', '--batch-check=%(objectname) %(objecttype)'];

/** The questions for `BASE_LOOKUP`; null for a ref that cannot be one (it would read as an option or a second question). */
export function baseQuestions(ref: string): Buffer | null {
  if (ref.startsWith('-') || ref.trim() === '' || /[\n\0]/.test(ref)) return null;
  return Buffer.from(`${ref}^{commit}\n${ref}^{tree}\n`);
}

/** Where a repository and its git files are (see `openRepo`). */
export const REPO_WHERE = ['rev-parse', '--show-toplevel', '--path-format=absolute', '--git-path', 'index', '--git-path', 'info/exclude', '--git-path', 'objects', '--show-object-format'];
/** …with HEAD and its branch: `--abbrev-ref=loose` shortens as `symbolic-ref --short` does; a detached HEAD prints `HEAD`. */
export const REPO_PROBE = [...REPO_WHERE, 'HEAD^{commit}', '--abbrev-ref=loose', 'HEAD'];

/** The refs of the rounds pinned so far. */
export const ROUND_REFS = ['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/'];

/** Every changed path of the working tree: modified or deleted tracked files and untracked ones not ignored. */
export const LISTING = ['ls-files', '-z', '--modified', '--others', '--exclude-standard'];

/** The settings that decide whether `addDirectly` stages as git would. */
export const SETTINGS = '^core\\.(filemode|symlinks|ignorecase|precomposeunicode|sharedrepository|autocrlf)$';
