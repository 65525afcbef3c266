import type { SchemaField } from '../../schemas/renders/schema';

/**
 * The fields of a schema before and after a change, one row per field with what
 * happened to it. Fields pair by name (the second "id" with the second "id" when an
 * agent lists a name twice, which is reported). A rename is a removal and an addition:
 * nothing here guesses that two names are the same field.
 */

export type FieldStatus = 'added' | 'removed' | 'type changed' | 'unchanged';
export type FieldEntry = SchemaField;

export interface FieldRow {
  name: string;
  status: FieldStatus;
  before: FieldEntry | null;
  after: FieldEntry | null;
}

/** A name listed more than once on one side. */
export interface DuplicateField {
  side: 'before' | 'after';
  name: string;
  count: number;
}

export interface SchemaDiff {
  /** The after order, each removed field placed right after the field that preceded it before. */
  rows: FieldRow[];
  counts: Record<FieldStatus, number>;
  duplicates: DuplicateField[];
}

/** A stated type, trimmed; null when the agent gave none. */
export function typeOf(field: FieldEntry | null): string | null {
  const type = field?.type?.trim();
  return type ? type : null;
}

/** Keys that tell repeated names apart: "id", then "id" + its occurrence. */
function keyed(fields: FieldEntry[]): string[] {
  const seen = new Map<string, number>();
  return fields.map((field) => {
    const n = seen.get(field.name) ?? 0;
    seen.set(field.name, n + 1);
    return `${n}\u0000${field.name}`;
  });
}

function duplicatesOf(fields: FieldEntry[], side: DuplicateField['side']): DuplicateField[] {
  const counts = new Map<string, number>();
  for (const field of fields) counts.set(field.name, (counts.get(field.name) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 1).map(([name, count]) => ({ side, name, count }));
}

export function diffSchema(before: FieldEntry[], after: FieldEntry[]): SchemaDiff {
  const beforeKeys = keyed(before);
  const afterIndex = new Map(keyed(after).map((key, i) => [key, i]));
  const toAfter = beforeKeys.map((key) => afterIndex.get(key) ?? -1);
  const toBefore = after.map(() => -1);
  toAfter.forEach((a, b) => a !== -1 && (toBefore[a] = b));

  // Removed fields, grouped under the after-row they follow (-1: before every row).
  const removedAfter = new Map<number, FieldRow[]>();
  let anchor = -1;
  before.forEach((field, b) => {
    if (toAfter[b] !== -1) {
      anchor = toAfter[b]!;
      return;
    }
    const row: FieldRow = { name: field.name, status: 'removed', before: field, after: null };
    removedAfter.set(anchor, [...(removedAfter.get(anchor) ?? []), row]);
  });

  const rows: FieldRow[] = [...(removedAfter.get(-1) ?? [])];
  after.forEach((field, a) => {
    const b = toBefore[a]!;
    const was = b === -1 ? null : before[b]!;
    const status: FieldStatus = !was ? 'added' : typeOf(was) === typeOf(field) ? 'unchanged' : 'type changed';
    rows.push({ name: field.name, status, before: was, after: field });
    rows.push(...(removedAfter.get(a) ?? []));
  });

  const counts: Record<FieldStatus, number> = { added: 0, removed: 0, 'type changed': 0, unchanged: 0 };
  for (const row of rows) counts[row.status]++;
  return { rows, counts, duplicates: [...duplicatesOf(before, 'before'), ...duplicatesOf(after, 'after')] };
}
