import { z } from 'zod';

/**
 * Keys: a card id, `file:<ref>` for a file, or `line:<ref>:<side><n>` for one diff
 * line (side `+` new, `-` old) with the line's text in `quote`.
 */
export const NoteKey = z.string().min(1);

export const NoteKind = z.enum(['change', 'question']);

export const Note = z.looseObject({
  title: z.string(),
  refs: z.array(z.string()),
  text: z.string(),
  at: z.string().describe('When the note was last written, ISO 8601 with the local offset.'),
  // Additive.
  quote: z.string().optional().describe('The text of the diff line a line note is anchored to.'),
  kind: NoteKind.optional().describe('"change" (do something, the default) or "question" (answer me).'),
});

export const Notes = z.looseObject({
  contract: z.literal(1),
  notes: z.record(NoteKey, Note),
});

export type NoteKind = z.infer<typeof NoteKind>;
export type Note = z.infer<typeof Note>;
export type Notes = z.infer<typeof Notes>;
