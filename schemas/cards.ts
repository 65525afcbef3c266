import { z } from 'zod';

/**
 * In every optional field, `null` means "not filled in" and `[]` / `""` means
 * "looked, found nothing". The schema keeps both apart; the viewer draws them apart.
 */
const Stated = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const Intent = z.enum(['structure', 'behavior', 'cleanup', 'assets', 'risk']);
export const RenderKind = z.enum(['code', 'tree', 'graph', 'image', 'schema', 'table']);

const Unsure = z.looseObject({
  about: z.string(),
  chose: z.string(),
  because: z.string(),
  alternative: z.string().nullable().optional(),
});

export const Question = z.looseObject({
  when: z.enum(['before', 'after']),
  text: z.string(),
  options: Stated(z.array(z.string())),
  answer: Stated(z.string()),
});

/** A sentence pinned under the first diff line of `ref` that contains `at`. */
export const Mark = z.looseObject({
  ref: z.string().min(1),
  at: z.string().min(1),
  text: z.string(),
});

export const Card = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  intent: Intent,
  minutes: Stated(z.number().nonnegative()),
  refs: z.array(z.string()),
  why: Stated(z.string()),
  skipped: Stated(z.union([z.string(), z.array(z.string())])),
  unsure: Stated(Unsure),
  unrequested: Stated(z.union([z.string(), z.array(z.string())])),
  might_break: Stated(z.array(z.string())),
  question: Stated(Question),
  render: Stated(RenderKind),
  payload: z.unknown().optional().describe('What the render draws; each render kind validates its own shape.'),
  continues: Stated(z.string()),
  marks: Stated(z.array(Mark)),
  // Additive: the note keys this card answers, so the agent replies without writing notes.json.
  addresses: Stated(z.array(z.string())),
});

export const Cards = z.looseObject({
  contract: z.literal(1),
  request: z.string().nullable().optional().describe('What the human asked for, in their words.'),
  cards: z.array(Card),
});

/** The file's frame alone, so the server can validate each card on its own and keep the good ones. */
export const CardsFrame = Cards.extend({ cards: z.array(z.unknown()) });

export type Intent = z.infer<typeof Intent>;
export type RenderKind = z.infer<typeof RenderKind>;
type Unsure = z.infer<typeof Unsure>;
export type Question = z.infer<typeof Question>;
export type Mark = z.infer<typeof Mark>;
export type Card = z.infer<typeof Card>;
export type Cards = z.infer<typeof Cards>;
