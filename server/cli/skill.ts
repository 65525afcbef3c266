import { chmod, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from './errors';
import { runnable } from './invocation';
import { packageRoot } from './package-root';
import { writeFileAtomic } from '../review/review-dir';

/** Where Claude Code looks for a project skill, relative to the repository root. */
const CLAUDE_SKILL = path.join('.claude', 'skills', 'involut', 'SKILL.md');
/** The instructions file Codex and other agents read, relative to the repository root. */
export const AGENTS_MD = 'AGENTS.md';

export const BEGIN = '<!-- involut:begin -->';
export const END = '<!-- involut:end -->';

/** What `installSkill` did to one file. */
export interface Installed {
  /** Relative to the repository root. */
  path: string;
  /** The agents that read it. */
  for: string;
  action: 'created' | 'updated' | 'unchanged';
}

/** Where skill/SKILL.md's example says the JSON Schema of cards.json is: a global install's. */
const SCHEMA_EXAMPLE = '/usr/local/lib/node_modules/involut/schemas/json/cards.schema.json';

/** The JSON Schema of cards.json that this Involut ships, for `"$schema"`. */
const cardsSchemaPath = () => path.join(packageRoot(), 'schemas', 'json', 'cards.schema.json');

/**
 * The skill as the package ships it (skill/SKILL.md), with its commands in the form that
 * runs on this machine and the path of this Involut's cards.json schema.
 */
export async function skillText(): Promise<string> {
  const text = await readFile(path.join(packageRoot(), 'skill', 'SKILL.md'), 'utf8');
  return runnable(text.replaceAll(SCHEMA_EXAMPLE, cardsSchemaPath()));
}

/**
 * Writes the skill where agents look: Claude Code's skill file, whole, and a section of
 * AGENTS.md between BEGIN and END, leaving every byte outside the markers as it was.
 * Running it again replaces the section in place, so there is only ever one copy.
 */
export async function installSkill(root: string): Promise<Installed[]> {
  const text = await skillText();
  const claude = await writeIfChanged(path.join(root, CLAUDE_SKILL), () => text);
  const agents = await writeIfChanged(path.join(root, AGENTS_MD), (existing) =>
    withSection(existing, agentsSection(text)),
  );
  return [
    { path: CLAUDE_SKILL, for: 'Claude Code', action: claude },
    { path: AGENTS_MD, for: 'Codex and other agents that read AGENTS.md', action: agents },
  ];
}

/** The skill for AGENTS.md: no front matter, headings one level down so they sit under the user's own. */
export function agentsSection(skill: string): string {
  const body = skill.replace(/^---\n[\s\S]*?\n---\n+/, '');
  let fenced = false;
  const lines = body
    .trimEnd()
    .split('\n')
    .map((line) => {
      if (/^(```|~~~)/.test(line)) fenced = !fenced;
      return !fenced && /^#{1,5} /.test(line) ? `#${line}` : line;
    });
  return [
    BEGIN,
    '<!-- Written by `involut skill --install`, which replaces everything between these two markers. -->',
    ...lines,
    END,
  ].join('\n');
}

/**
 * `existing` with `section` in place of its marked section (the first one; any later copy is
 * dropped), or appended after a blank line when it has none. Refuses a marker without its
 * partner: where the user's own text resumes would be a guess.
 */
export function withSection(existing: string | null, section: string): string {
  if (existing === null || existing.trim() === '') return `${section}\n`;
  const newline = existing.includes('\r\n') ? '\r\n' : '\n';
  const ours = section.replace(/\n/g, newline);
  const pairs = markedSections(existing);
  if (pairs.length === 0) return `${existing}${existing.endsWith('\n') ? newline : newline + newline}${ours}${newline}`;
  let result = existing.slice(0, pairs[0]!.start) + ours;
  pairs.forEach(({ end }, i) => {
    const next = pairs[i + 1];
    // A dropped copy takes its line break along, so no blank lines pile up where it was.
    result += next ? existing.slice(end, next.start).replace(/\r?\n$/, '') : existing.slice(end);
  });
  return result;
}

/** Each BEGIN…END span, in order; throws when the markers do not alternate. */
function markedSections(text: string): Array<{ start: number; end: number }> {
  const markers = [...text.matchAll(new RegExp(`${BEGIN}|${END}`, 'g'))];
  const pairs: Array<{ start: number; end: number }> = [];
  markers.forEach((marker, i) => {
    const expected = i % 2 === 0 ? BEGIN : END;
    if (marker[0] !== expected || (expected === BEGIN && i === markers.length - 1)) {
      throw new InvolutError(
        'bad-agents-md',
        `AGENTS.md has an unpaired ${marker[0]} marker; pair or remove it by hand, then run \`involut skill --install\` again.`,
      );
    }
    if (expected === END) pairs.push({ start: markers[i - 1]!.index, end: marker.index + END.length });
  });
  return pairs;
}

/** Writes `file` when its content would change; follows a symlink to its target and keeps the mode. */
async function writeIfChanged(
  file: string,
  content: (existing: string | null) => string,
): Promise<Installed['action']> {
  const target = await realpath(file).catch(() => file);
  const existing = await readFile(target, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const next = content(existing);
  if (next === existing) return 'unchanged';
  const mode = (await stat(target).catch(() => null))?.mode;
  await writeFileAtomic(target, next);
  if (mode !== undefined) await chmod(target, mode & 0o7777);
  return existing === null ? 'created' : 'updated';
}
