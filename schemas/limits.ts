/** Diffs one answer of `GET /api/diffs` carries at most (the viewer asks in batches of this many). */
export const MAX_DIFFS = 400;
