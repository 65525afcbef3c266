import { z } from 'zod';

/** One row of an indented hierarchy: a route, a component, a folder or a file. */
export const TreeEntry = z.looseObject({
  name: z.string({ error: 'each entry needs a name, as text' }),
  depth: z.number({ error: 'each entry needs a depth, a whole number (0 at the top)' }).int().nonnegative(),
});

/** `render: "tree"`: the same hierarchy before and after the change, each in reading order (parents first). */
export const TreePayload = z.looseObject({
  before: z.array(TreeEntry, { error: 'before is the list of entries before the change ([] when there were none)' }),
  after: z.array(TreeEntry, { error: 'after is the list of entries after the change ([] when there are none)' }),
});

export type TreeEntry = z.infer<typeof TreeEntry>;
export type TreePayload = z.infer<typeof TreePayload>;
