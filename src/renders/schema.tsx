import { useMemo } from 'react';
import type { SchemaPayload } from '../../schemas/renders/schema';
import {
  diffSchema,
  typeOf,
  type DuplicateField,
  type FieldEntry,
  type FieldRow,
  type FieldStatus,
} from '../model/schema-diff';
import type { RenderProps } from './registry';
import { ShowMore, useShownRows } from './ShowMore';

const SIGN: Record<FieldStatus, string> = { added: '+', removed: '−', 'type changed': '≠', unchanged: '=' };
const SLUG: Record<FieldStatus, string> = {
  added: 'added',
  removed: 'removed',
  'type changed': 'changed',
  unchanged: 'unchanged',
};

/** One row per field: what happened to it, its type before and after, and the agent's notes. */
export function SchemaDraw({ data }: RenderProps<SchemaPayload>) {
  const { before, after } = data.schema;
  const diff = useMemo(() => diffSchema(before, after), [before, after]);
  const { shown, more } = useShownRows(diff.rows.length);
  if (diff.rows.length === 0) return <p className="inv-drawing-note">The schema lists no fields, before or after.</p>;
  const notes = diff.rows.some((row) => row.before?.note || row.after?.note);
  const { added, removed, unchanged } = diff.counts;
  return (
    <div className="inv-schema">
      {diff.duplicates.length > 0 && <Duplicates duplicates={diff.duplicates} />}
      <table className="inv-schema-table">
        <caption>
          Fields before and after: {added} added · {removed} removed · {diff.counts['type changed']} type changed ·{' '}
          {unchanged} unchanged
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">What happened</th>
            <th scope="col">Type before</th>
            <th scope="col">Type after</th>
            {notes && <th scope="col">Note</th>}
          </tr>
        </thead>
        <tbody>
          {diff.rows.slice(0, shown).map((row, i) => (
            <tr key={i} className={`inv-schema-${SLUG[row.status]}`} data-status={row.status}>
              <th scope="row">{row.name}</th>
              <td>
                <span className="inv-change-badge">
                  <span aria-hidden="true">{SIGN[row.status]} </span>
                  {row.status}
                </span>
              </td>
              <TypeCell field={row.before} side="before" />
              <TypeCell field={row.after} side="after" />
              {notes && <td className="inv-schema-note">{noteOf(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore shown={shown} total={diff.rows.length} noun="fields" onMore={more} />
    </div>
  );
}

function TypeCell({ field, side }: { field: FieldEntry | null; side: 'before' | 'after' }) {
  if (!field) return <td className="inv-schema-type inv-muted">{side === 'before' ? '— (new field)' : '— (gone)'}</td>;
  const type = typeOf(field);
  return (
    <td className="inv-schema-type">
      {type === null ? <em className="inv-muted">no type stated</em> : <code>{type}</code>}
    </td>
  );
}

/** The note to show: the one there is, or the new one with the old one under it when they differ. */
function noteOf(row: FieldRow) {
  const was = row.before?.note || null;
  const now = row.after?.note || null;
  if (!was || !now || was === now) return now ?? was;
  return (
    <>
      {now}
      <span className="inv-schema-was">before: {was}</span>
    </>
  );
}

function Duplicates({ duplicates }: { duplicates: DuplicateField[] }) {
  return (
    <p className="inv-drawing-report" role="note">
      ⚠ Repeated field names, paired in the order listed:{' '}
      {duplicates.map((d) => `“${d.name}” ${d.count} times ${d.side}`).join('; ')}.
    </p>
  );
}
