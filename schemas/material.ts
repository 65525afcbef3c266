import { z } from 'zod';

/** Width and height in pixels of an image (PNG, JPEG, GIF, WebP). */
export const ImageSize = z.object({ w: z.number().int().nonnegative(), h: z.number().int().nonnegative() });

export const Status = z.enum(['added', 'modified', 'deleted', 'renamed']);

/** Where a change stands in git: in the round's commits, the index, the working tree, or an untracked file. */
export const PathState = z.enum(['committed', 'staged', 'unstaged', 'untracked']);

/** One commit of the round's range. */
export const RoundCommit = z.object({ id: z.string(), subject: z.string() });

/** One changed file. Contract fields first, then the additive ones (all optional). */
export const MaterialEntry = z.looseObject({
  ref: z
    .string()
    .min(1)
    .describe('Path of the file after the change (before, for a deleted file), relative to the repository root.'),
  status: Status,
  binary: z.boolean(),
  diff: z
    .string()
    .nullable()
    .describe(
      'Unified diff body from the first `@@`, exactly as git prints it; "" when there is no hunk; null for binaries and withheld files.',
    ),
  hash: z.string().min(1).describe('Derived from the git blob id of the after content (before, for a deleted file).'),
  // Optional because the contract's own example leaves it out of its binary entry; the emitter always writes it.
  commits: z
    .array(z.string())
    .optional()
    .describe('Subjects of the commits in base..HEAD that touched the file; [] when none.'),
  size: ImageSize.optional(),
  before: z.string().optional().describe('Path, relative to `.review/`, of the before copy of a binary.'),
  before_size: ImageSize.optional(),
  // Additive fields.
  from: z.string().optional().describe('Old path of a renamed file.'),
  similarity: z
    .number()
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe('How alike a renamed file is to its old path, in percent, as git measured it (`-M`).'),
  additions: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe('Added lines; null when not counted (binary, withheld).'),
  deletions: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe('Deleted lines; null when not counted (binary, withheld).'),
  bytes: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe('Whole size of the after content (before, for a deleted file); null for submodules.'),
  mode: z
    .object({ before: z.string().nullable(), after: z.string().nullable() })
    .optional()
    .describe('Git file modes, present when they differ (an executable bit, a file that became a symlink).'),
  symlink: z.boolean().optional().describe('The entry is a symbolic link; its diff is the change of the link target.'),
  submodule: z
    .object({ before: z.string().nullable(), after: z.string().nullable() })
    .optional()
    .describe('The entry is a submodule: the commits it pointed at before and after.'),
  generated: z.boolean().optional().describe('A lockfile or generated file (by name, or by `linguist-generated`).'),
  withheld: z
    .object({ reason: z.string() })
    .optional()
    .describe('A privacy-excluded file: listed with its status, its content never copied into `.review/`.'),
  conflicted: z
    .boolean()
    .optional()
    .describe(
      'The path has a merge conflict in the index: the round shows its working copy, conflict markers and all.',
    ),
  provenance: z
    .array(PathState)
    .optional()
    .describe(
      'Where the change stands: committed (base..HEAD), staged, unstaged, untracked; several when it is spread over them.',
    ),
  ref_base64: z
    .string()
    .optional()
    .describe(
      'The exact bytes of the path, base64, present only when they are not valid UTF-8 (`ref` then shows each invalid byte as a ⟨0xE9⟩ marker).',
    ),
  from_base64: z
    .string()
    .optional()
    .describe('The exact bytes of `from`, base64, present only when they are not valid UTF-8.'),
  diff_base64: z
    .string()
    .optional()
    .describe(
      'The exact bytes of the diff, base64, present only when they are not valid UTF-8 (`diff` then shows them with U+FFFD).',
    ),
});

export const Source = z.looseObject({
  kind: z.string().describe('What produced the material; "git" for the Involut emitter.'),
  id: z.string(),
  root: z.string(),
  request: z.null().describe('Always null: the emitter does not know what was asked; cards.json carries the request.'),
  // Additive fields.
  base: z.string().optional().describe('Id of the commit or tree the round is compared against.'),
  base_reason: z.string().optional().describe('Why that base was chosen.'),
  head: z.string().nullable().optional().describe('HEAD at capture; null in a repository with no commits.'),
  tree: z.string().optional().describe('Id of the captured git tree every diff, hash and blob derives from.'),
  round: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Round number; the tree is pinned under refs/involut/rounds/<round>.'),
  commits: z
    .array(RoundCommit)
    .optional()
    .describe("The commits in the round's range (base..HEAD), oldest first, merges and empty ones included."),
  warnings: z
    .array(z.string())
    .optional()
    .describe(
      'What the round could not show as a change, one sentence each naming the path (a submodule with uncommitted work inside).',
    ),
});

export const Material = z.looseObject({
  contract: z.literal(1),
  source: Source,
  generated: z.string().describe('When the material was written, ISO 8601 with the local offset.'),
  material: z.array(MaterialEntry),
});

export type ImageSize = z.infer<typeof ImageSize>;
export type Status = z.infer<typeof Status>;
export type PathState = z.infer<typeof PathState>;
export type RoundCommit = z.infer<typeof RoundCommit>;
export type MaterialEntry = z.infer<typeof MaterialEntry>;
export type Source = z.infer<typeof Source>;
export type Material = z.infer<typeof Material>;
