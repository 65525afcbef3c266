import { z } from 'zod';

/** `.involut.json` at the repository root, layered over the user's `~/.config/involut/config.json`. */
export const Config = z.strictObject({
  $schema: z.string().optional(),
  privacyExcludes: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'Glob patterns of files whose content never enters .review/; added to the built-in defaults, never replacing them.',
    ),
  // Additive.
  keep: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'How many of the last finished rounds `involut rounds` keeps in .review/rounds/ and refs/involut/rounds/ (default 10); older ones are pruned, except a round the open notes were written on and the one before the newest.',
    ),
});

export type Config = z.infer<typeof Config>;
