import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from './errors';
import { involutCommand } from './invocation';
import { writeFileAtomic } from '../review/review-dir';

/** Claude Code's project settings, where its hooks live, relative to the repository root. */
export const CLAUDE_SETTINGS = path.join('.claude', 'settings.json');

/**
 * The Stop hook: when the agent stops, capture the round and check its cards, so a round with
 * no cards is never left behind unnoticed. Claude Code shows a failing hook's output to the user.
 */
const stopCommand = () => `${involutCommand()} rounds && ${involutCommand()} check`;

/** One of our own Stop commands, whatever form `involut` had on the machine that wrote it. */
const OURS = /^(.+) rounds && \1 check$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Adds the Stop hook to `.claude/settings.json` (the documented shape:
 * `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": …}]}]}}`), keeping every other
 * setting and hook. Running it again changes nothing; an older form of our command is replaced
 * in place. A settings file that is not a JSON object is refused and left as it was.
 * Returns the planned write, so a refusal comes before anything else is written.
 */
export async function planStopHook(
  root: string,
): Promise<{ write: () => Promise<'created' | 'updated' | 'unchanged'> }> {
  const file = await realpath(path.join(root, CLAUDE_SETTINGS)).catch(() => path.join(root, CLAUDE_SETTINGS));
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const settings = existing === null ? {} : parse(existing);
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw refuse('its "hooks" is not an object');
  const stop = hooks.Stop ?? [];
  if (!Array.isArray(stop)) throw refuse('its "hooks.Stop" is not a list');
  const command = stopCommand();
  let found = false;
  const nextStop = stop.map((group: unknown) => {
    if (!isObject(group) || !Array.isArray(group.hooks)) return group;
    return {
      ...group,
      hooks: group.hooks.map((hook: unknown) => {
        if (!isObject(hook) || typeof hook.command !== 'string' || !OURS.test(hook.command)) return hook;
        found = true;
        return { ...hook, command };
      }),
    };
  });
  if (!found) nextStop.push({ hooks: [{ type: 'command', command }] });
  const next = `${JSON.stringify({ ...settings, hooks: { ...hooks, Stop: nextStop } }, null, 2)}\n`;
  return {
    write: async () => {
      if (existing !== null && JSON.stringify(JSON.parse(existing)) === JSON.stringify(JSON.parse(next))) {
        return 'unchanged';
      }
      await writeFileAtomic(file, next);
      return existing === null ? 'created' : 'updated';
    },
  };
}

function parse(text: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse('it is not valid JSON');
  }
  if (!isObject(value)) throw refuse('it is not a JSON object');
  return value;
}

const refuse = (why: string) =>
  new InvolutError(
    'bad-claude-settings',
    `${CLAUDE_SETTINGS} was left as it was because ${why}; fix it by hand, then run \`involut skill --install --hooks\` again.`,
  );
