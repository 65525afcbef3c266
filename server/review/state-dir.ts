import os from 'node:os';
import path from 'node:path';

/**
 * Involut's per-user folder outside the repository (the running servers' records, the unsent
 * note drafts): `$INVOLUT_STATE_DIR`, else `$XDG_STATE_HOME/involut`, else `~/.local/state/involut`.
 */
export function stateDir(): string {
  if (process.env.INVOLUT_STATE_DIR) return process.env.INVOLUT_STATE_DIR;
  return path.join(process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'involut');
}
