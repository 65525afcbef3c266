import { z } from 'zod';

/** A cell: text, a number, true or false, or null (drawn apart from an empty text). */
export const TableCell = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: 'a cell is text, a number, true, false or null',
});

/** `render: "table"`: rows of cells under named columns. Rows may be ragged; the drawing reports them. */
export const TablePayload = z.looseObject({
  table: z.looseObject(
    {
      columns: z.array(z.union([z.string(), z.number()], { error: 'a column name is text' }), {
        error: 'columns is the list of column names',
      }),
      rows: z.array(z.array(TableCell, { error: 'each row is a list of cells' }), {
        error: 'rows is a list of rows, each a list of cells',
      }),
    },
    { error: 'expected { table: { columns: [...], rows: [[...]] } }' },
  ),
});

export type TableCell = z.infer<typeof TableCell>;
export type TablePayload = z.infer<typeof TablePayload>;
