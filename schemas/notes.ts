import { z } from 'zod';
import { noteRecord } from './note-record';

/**
 * Keys: a card id, `file:<ref>` for a file, `line:<ref>:<side><n>` for one diff line
 * (side `+` new, `-` old) with the line's text in `quote`, or `line:<ref>:<side><a>-<b>`
 * for the lines a to b of one side (a < b) with their texts, one a line, in `quote`.
 */
const NoteKey = z.string().min(1);

export const NoteKind = z.enum(['change', 'question']);

/** A text the note held before a follow-up replaced it, and the cards that had answered it. */
export const EarlierText = z.looseObject({
  text: z.string(),
  at: z.string().describe('When that text was written.'),
  answeredBy: z
    .array(z.looseObject({ id: z.string(), title: z.string() }))
    .describe('The cards that listed the note in `addresses` when the reader followed up, with their titles.'),
});

export const Note = z.looseObject({
  title: z.string(),
  refs: z.array(z.string()),
  text: z.string(),
  at: z.string().describe('When the note was last written, ISO 8601 with the local offset.'),
  // Additive.
  quote: z
    .string()
    .optional()
    .describe('The text of the diff line a line note is anchored to; for a range, its lines joined by newlines.'),
  kind: NoteKind.optional().describe('"change" (do something, the default) or "question" (answer me).'),
  resolvedAt: z
    .string()
    .optional()
    .describe('When the reader resolved the note (nothing more to do); absent while it is open.'),
  earlier: z
    .array(EarlierText)
    .optional()
    .describe('Earlier texts of the note, oldest first: `text` is a follow-up on the last of them.'),
});

/** One hand-over: the reader told the agent the notes are ready to be addressed. */
export const HandOver = z.looseObject({
  at: z.string().describe('When the reader handed the notes over, ISO 8601 with the local offset.'),
  round: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The round (material.json `source.round`) the notes were handed over on; absent when it had none.'),
  open: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('How many open notes were handed over; 0 is "nothing to address".'),
});

export const Notes = z.looseObject({
  contract: z.literal(1),
  notes: z.record(NoteKey, Note),
  // Additive.
  handedOver: z
    .array(HandOver)
    .optional()
    .describe('Each time the reader handed the notes over to the agent, oldest first; earlier ones are kept.'),
});

export type NoteKind = z.infer<typeof NoteKind>;
export type Note = z.infer<typeof Note>;
export type EarlierText = z.infer<typeof EarlierText>;
export type HandOver = z.infer<typeof HandOver>;
export type Notes = z.infer<typeof Notes>;

/**
 * Validates a parsed notes.json and returns it with its notes in a `noteRecord`. zod
 * builds records by assignment, which turns a `__proto__` entry into the prototype and
 * loses it, so the entries are taken from the JSON's own keys, each validated alone.
 */
export function parseNotes(value: unknown): ReturnType<typeof Notes.safeParse> {
  const parsed = Notes.safeParse(value);
  if (!parsed.success) return parsed;
  const raw = (value as { notes: Record<string, unknown> }).notes;
  const notes = noteRecord(Object.keys(raw).map((key) => [key, Note.parse(raw[key])]));
  return { ...parsed, data: { ...parsed.data, notes } };
}
