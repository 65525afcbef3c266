import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../schemas/config';
import { InvolutError } from '../cli/errors';

/** The user's config, `~/.config/involut/config.json` (under `$XDG_CONFIG_HOME` when set). */
export const userConfigFile = () =>
  path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'involut', 'config.json');

/** The repository's config, `.involut.json` at its root. */
export const repoConfigFile = (root: string) => path.join(root, '.involut.json');

/**
 * Reads and checks one config file. Only a missing file is silent (null): one that cannot be
 * read (a folder, no permission) or is not a valid config is an error naming the file and
 * the cause, so a setting the user wrote is never dropped without a word.
 */
export async function readConfig(file: string): Promise<Config | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return null;
    const cause = code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : message;
    throw new InvolutError('bad-config', `${file} cannot be read (${cause}); fix or remove it.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InvolutError('bad-config', `${file} is not valid JSON (${(error as Error).message}); fix or remove it.`);
  }
  // Loaded only when there is a config to check: zod is a third of `involut rounds`' start-up.
  const { Config } = await import('../../schemas/config');
  const parsed = Config.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'the top level';
    throw new InvolutError('bad-config', `${file} is not a valid Involut config: ${where}: ${issue.message}.`);
  }
  return parsed.data;
}

/** How many finished rounds are kept when no config says: see `keep` in schemas/config.ts. */
const DEFAULT_KEEP = 10;

/** `keep` from `.involut.json`, over the user's config, over the default. */
export async function readKeep(root: string): Promise<number> {
  const [user, repo] = await Promise.all([readConfig(userConfigFile()), readConfig(repoConfigFile(root))]);
  return repo?.keep ?? user?.keep ?? DEFAULT_KEEP;
}
