/** Error codes a user or an agent can act on; `--json` prints them as `{ error: { code, message } }`. */
export type ErrorCode =
  | 'usage'
  | 'not-a-repo'
  | 'unknown-base'
  | 'no-previous-round'
  | 'review-not-folder'
  | 'review-not-writable'
  | 'review-unsafe'
  | 'disk-full'
  | 'permission-denied'
  | 'read-only-disk'
  | 'disk-failed'
  | 'bad-config'
  | 'git-failed'
  | 'port-taken'
  | 'bad-notes'
  | 'bad-agents-md'
  | 'bad-claude-settings'
  | 'git-too-old'
  | 'round-running'
  | 'round-incomplete';

/** An expected failure: one sentence that names what is wrong and what to do. */
export class InvolutError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'InvolutError';
  }
}

/**
 * A failure of the machine (disk full, permission denied, an I/O error, a read-only file system) as one
 * sentence naming the file and what to do; null for any other error.
 */
export function machineFault(error: unknown): InvolutError | null {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  const file = path ?? 'a file under .review/';
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new InvolutError(
      'disk-full',
      `The disk holding ${file} is full; free some space and run the command again.`,
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new InvolutError(
      'permission-denied',
      `Involut may not write ${file} (permission denied); fix its permissions and run the command again.`,
    );
  if (code === 'EIO')
    return new InvolutError(
      'disk-failed',
      `The disk holding ${file} failed to read or write it (an input/output error); check the disk and run the command again.`,
    );
  if (code === 'EROFS')
    return new InvolutError(
      'read-only-disk',
      `${file} is on a read-only file system; run the command where it can write.`,
    );
  return null;
}
