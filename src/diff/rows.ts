import type { DiffFormat } from './diff2html';

/** Height of every diff row; fixed so a chunk's placeholder is exactly as tall as the chunk. */
export const ROW_HEIGHT = 20;

export type Side = '+' | '-';

/** The cells that show line numbers, in both formats. */
export const LINE_NUMBER_CELL = '.d2h-code-linenumber, .d2h-code-side-linenumber';

/** Reads which side and line number a clicked line-number cell shows. */
export function lineOfCell(cell: Element, format: DiffFormat): { side: Side; line: number } | null {
  if (format === 'line-by-line') {
    const newNo = Number(cell.querySelector('.line-num2')?.textContent?.trim() || NaN);
    if (Number.isFinite(newNo)) return { side: '+', line: newNo };
    const oldNo = Number(cell.querySelector('.line-num1')?.textContent?.trim() || NaN);
    return Number.isFinite(oldNo) ? { side: '-', line: oldNo } : null;
  }
  const n = Number(cell.textContent?.trim() || NaN);
  if (!Number.isFinite(n)) return null;
  const left = cell.closest('.d2h-file-side-diff') === cell.closest('.d2h-files-diff')?.firstElementChild;
  return { side: left ? '-' : '+', line: n };
}

/**
 * The number a line-number cell shows on one side, or null: in unified diffs a context
 * line shows both, in side-by-side each table shows one side.
 */
export function numberOnSide(cell: Element, format: DiffFormat, side: Side): number | null {
  if (format === 'line-by-line') {
    const text = cell.querySelector(side === '+' ? '.line-num2' : '.line-num1')?.textContent?.trim();
    return text ? Number(text) : null;
  }
  const at = lineOfCell(cell, format);
  return at && at.side === side ? at.line : null;
}

/** The table bodies of a drawn chunk: one for line-by-line, left and right for side-by-side. */
function bodies(root: Element): HTMLTableSectionElement[] {
  return [...root.querySelectorAll<HTMLTableSectionElement>('tbody.d2h-diff-tbody')];
}

/** Row index (in every body) of the row showing this line, or -1. */
export function rowIndexOf(root: Element, format: DiffFormat, side: Side, line: number): number {
  const [first, second] = bodies(root);
  if (!first) return -1;
  const body = format === 'side-by-side' && side === '+' ? second! : first;
  const rows = body.rows;
  for (let i = 0; i < rows.length; i++) {
    const cell = rows[i]!.cells[0];
    if (!cell) continue;
    if (format === 'line-by-line') {
      const text = cell.querySelector(side === '+' ? '.line-num2' : '.line-num1')?.textContent?.trim();
      if (text === String(line)) return i;
    } else if (cell.textContent?.trim() === String(line)) return i;
  }
  return -1;
}

/** The row showing this line (in side-by-side, the row of that side's table), or null. */
export function rowOf(root: Element, format: DiffFormat, side: Side, line: number): HTMLTableRowElement | null {
  const index = rowIndexOf(root, format, side, line);
  if (index === -1) return null;
  const all = bodies(root);
  const body = format === 'side-by-side' && side === '+' ? all[1] : all[0];
  return body?.rows[index] ?? null;
}

/**
 * Inserts an empty full-width row after row `index` in every body of the chunk and
 * returns the cell of each, so React can portal marks and notes into them. In
 * side-by-side, both tables get the row so they stay aligned.
 */
export function insertRows(root: Element, index: number): HTMLTableCellElement[] {
  return bodies(root).map((body) => {
    const row = body.insertRow(index + 1);
    row.className = 'inv-extra-row';
    const cell = row.insertCell();
    cell.colSpan = 2;
    cell.className = 'inv-extra-cell';
    return cell;
  });
}
