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
});

export type Config = z.infer<typeof Config>;
