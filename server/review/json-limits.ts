import type { z } from 'zod';
import type { Issue } from '../../schemas/api';

/** The bounds Involut keeps when it reads a review file's JSON, and the issues it reports of it. */

/** How many schema issues a file's state lists; at most: the first ones. */
export const MAX_ISSUES = 100;

export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
    message: issue.message,
    code: issue.code,
  }));
}

/** How deep a review file may nest; the contract's files need a handful of levels, a render payload a few more. */
export const MAX_JSON_DEPTH = 256;

/** How deeply a parsed JSON value nests, without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}
