import { z } from 'zod';

/** One field, column or property; `null` and a missing `type` or `note` both mean "not stated". */
export const SchemaField = z.looseObject({
  name: z.string({ error: 'each field needs a name, as text' }).min(1, 'a field name cannot be empty'),
  type: z.string({ error: 'a type is text' }).nullable().optional(),
  note: z.string({ error: 'a note is text' }).nullable().optional(),
});

/** `render: "schema"`: the fields of one table, type or message before and after the change. */
export const SchemaPayload = z.looseObject({
  schema: z.looseObject(
    {
      before: z.array(SchemaField, { error: 'before is the list of fields before the change ([] for a new schema)' }),
      after: z.array(SchemaField, { error: 'after is the list of fields after the change ([] for a dropped schema)' }),
    },
    { error: 'expected { schema: { before: [...], after: [...] } }' },
  ),
});

export type SchemaField = z.infer<typeof SchemaField>;
export type SchemaPayload = z.infer<typeof SchemaPayload>;
