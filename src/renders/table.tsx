import { raggedRows, raggedSentence, type Ragged } from '../../schemas/drawing-faults';
import type { TableCell, TablePayload } from '../../schemas/renders/table';
import type { RenderProps } from './registry';
import { ShowMore, useShownRows } from './ShowMore';

/** Rows and columns as given; ragged rows are reported and drawn whole, extra cells under "extra" columns. */
export function TableDraw({ data }: RenderProps<TablePayload>) {
  const { columns, rows } = data.table;
  const ragged = raggedRows(columns.length, rows);
  const width = rows.reduce((max, row) => Math.max(max, row.length), columns.length);
  const { shown, more } = useShownRows(rows.length);
  if (width === 0) return <p className="inv-drawing-note">The table has no columns and no cells.</p>;
  return (
    <div className="inv-table">
      {ragged.length > 0 && <RaggedReport ragged={ragged} columns={columns.length} />}
      <div className="inv-table-scroll" role="region" aria-label="Table, scrolls sideways when wide" tabIndex={0}>
        <table className="inv-table-grid">
          <caption>
            {rows.length} {rows.length === 1 ? 'row' : 'rows'} × {columns.length}{' '}
            {columns.length === 1 ? 'column' : 'columns'}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="inv-table-num">
                #
              </th>
              {Array.from({ length: width }, (_, c) => (
                <th key={c} scope="col" className={c < columns.length ? undefined : 'inv-table-extra'}>
                  {c < columns.length ? String(columns[c]) : 'extra'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shown).map((row, r) => (
              <tr key={r} data-ragged={row.length === columns.length ? undefined : 'true'}>
                <th scope="row" className="inv-table-num">
                  {r + 1}
                  {row.length !== columns.length && <span title="this row's cells do not match the columns"> ⚠</span>}
                </th>
                {Array.from({ length: width }, (_, c) => (
                  <Cell key={c} cells={row} at={c} columns={columns.length} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowMore shown={shown} total={rows.length} noun="rows" onMore={more} />
      {rows.length === 0 && <p className="inv-drawing-note">The table has no rows.</p>}
    </div>
  );
}

function Cell({ cells, at, columns }: { cells: TableCell[]; at: number; columns: number }) {
  if (at >= cells.length)
    return at < columns ? <td className="inv-table-missing">no cell</td> : <td className="inv-table-blank" />;
  const value = cells[at];
  const extra = at >= columns ? ' inv-table-extra' : '';
  if (value === null)
    return (
      <td className={`inv-table-null${extra}`}>
        <span>null</span>
      </td>
    );
  if (typeof value === 'boolean') return <td className={`inv-table-bool${extra}`}>{String(value)}</td>;
  if (typeof value === 'number') return <td className={`inv-table-number${extra}`}>{String(value)}</td>;
  return (
    <td className={extra.trim() || undefined}>
      <span className="inv-table-text">{value}</span>
    </td>
  );
}

function RaggedReport({ ragged, columns }: { ragged: Ragged[]; columns: number }) {
  return (
    <p className="inv-drawing-report" role="note">
      ⚠ {raggedSentence(columns, ragged)}
    </p>
  );
}
