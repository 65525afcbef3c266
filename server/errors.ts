/** Error codes a user or an agent can act on; `--json` prints them as `{ error: { code, message } }`. */
export type ErrorCode =
  | 'usage'
  | 'not-a-repo'
  | 'unknown-base'
  | 'no-previous-round'
  | 'review-not-folder'
  | 'review-not-writable'
  | 'review-unsafe'
  | 'bad-config'
  | 'git-failed'
  | 'port-taken'
  | 'bad-notes'
  | 'bad-agents-md';

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
