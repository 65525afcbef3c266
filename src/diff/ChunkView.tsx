import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import {
  chunkHasLine,
  chunkRows,
  drawChunk,
  highlightChunk,
  scrollableByKeyboard,
  type Chunk,
  type DiffFormat,
} from './diff2html';
import type { Target } from '../state/target';
import { insertRows, lineOfCell, LINE_NUMBER_CELL, rowIndexOf, rowOf, ROW_HEIGHT, type Side } from './rows';
import { whenIdle } from '../idle';
import { useDrawTurn } from './drawTurn';
import { landInSight, showAlongRow } from './landInSight';
import { highlightFound, paintFound } from './found';
import { useNearViewport } from './useNearViewport';
import { levelSideRows } from './syncRows';
import { useViewSettings } from '../state/settings';

/** Something shown under one diff line: marks, line notes. */
export interface LineExtra {
  side: Side;
  line: number;
  /** Changes whenever the extra's placement must be redone. */
  id: string;
  render: () => ReactNode;
}

interface Props {
  chunk: Chunk;
  format: DiffFormat;
  extras: LineExtra[];
  /** A click on a line number; `shift` when Shift was held (it extends a range). */
  onLineClick: (side: Side, line: number, shift: boolean) => void;
  /** Called with the text of a clicked hunk header row. */
  onHunkClick?: (header: string) => void;
  /** A jump's target line in this chunk: drawn at once, its row highlighted and scrolled below the headers. */
  target?: Target | null;
}

/**
 * One chunk of a file's diff: a placeholder of the exact height while far from view,
 * drawn by diff2html when near (at once when on screen, else in its turn, one chunk per
 * frame), highlighted when the browser is idle, and dropped again when scrolled far away.
 */
export function ChunkView({ chunk, format, extras, onLineClick, onHunkClick, target = null }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const near = useNearViewport(host);
  const drawn = useDrawTurn(host, near) || target !== null;
  // Slots hold where each extra goes; what it shows is always read from the current props.
  const [slots, setSlots] = useState<Array<{ id: string; side: Side; cells: HTMLTableCellElement[] }>>([]);
  const mine = extras.filter((x) => chunkHasLine(chunk, x.side, x.line));
  const placement = mine.map((x) => x.id).join('|');
  const { wrap, scheme } = useViewSettings();
  // Wrapped side-by-side rows are levelled across the two tables, again whenever the width changes.
  useLayoutEffect(() => {
    const element = host.current;
    if (!drawn || !wrap || format !== 'side-by-side' || !element) return;
    let width = -1;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry || entry.contentRect.width === width) return;
      width = entry.contentRect.width;
      levelSideRows(element);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      for (const row of element.querySelectorAll<HTMLElement>('.d2h-file-side-diff tr')) row.style.height = '';
    };
  }, [drawn, wrap, format, chunk, placement, slots]);

  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return;
    if (!drawn) {
      element.replaceChildren();
      setSlots([]);
      return;
    }
    const target = document.createElement('div');
    element.replaceChildren(target);
    drawChunk(target, chunk, format, scheme);
    focusableNumbers(target, format);
    if (onHunkClick) {
      for (const cell of target.querySelectorAll<HTMLElement>('td.d2h-info')) {
        cell.title = 'Show more lines above this hunk';
        cell.parentElement?.classList.add('inv-hunk-expand');
      }
    }
    const placed = mine
      .map((extra) => {
        const index = rowIndexOf(target, format, extra.side, extra.line);
        return index === -1 ? null : { id: extra.id, side: extra.side, cells: insertRows(target, index) };
      })
      .filter((x) => x !== null);
    setSlots(placed);
    return whenIdle(
      () =>
        void highlightChunk(target, format).then(() => {
          scrollableByKeyboard(target);
          paintFound();
        }),
      300,
    );
    // `placement` stands for `mine`: redraw only when what is placed, or where, changes.
  }, [drawn, chunk, format, placement, scheme]); // eslint-disable-line react-hooks/exhaustive-deps

  // After the draw above: the target's row is marked and brought into sight, once per jump.
  useLayoutEffect(() => {
    const element = host.current;
    if (!drawn || !target?.line || !element) return;
    const row = rowOf(element, format, target.line.side, target.line.number);
    if (!row) return;
    for (const old of document.querySelectorAll('.inv-hit')) old.classList.remove('inv-hit');
    row.classList.add('inv-hit');
    row.dataset.hitSeq = String(target.seq);
    highlightFound(row, target.find);
    if (!target.scroll) return;
    landInSight(row);
    if (target.find) showAlongRow(row, target.find);
  }, [drawn, target, format, placement]);

  const onClick = (event: React.MouseEvent) => {
    const row = (event.target as Element).closest('tr');
    const header =
      onHunkClick && row?.querySelector('td.d2h-info')
        ? /@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(row.textContent ?? '')
        : null;
    if (header) return onHunkClick!(header[0]);
    const cell = (event.target as Element).closest(LINE_NUMBER_CELL);
    if (!cell) return;
    const at = lineOfCell(cell, format);
    if (at) onLineClick(at.side, at.line, event.shiftKey);
  };

  return (
    <div
      ref={host}
      className="inv-chunk"
      onClick={onClick}
      style={drawn ? undefined : { height: chunkRows(chunk, format) * ROW_HEIGHT }}
    >
      {slots.flatMap(({ id, side, cells }) => {
        const extra = mine.find((x) => x.id === id);
        if (!extra) return [];
        return cells.map((cell, i) => {
          // In side-by-side the other table gets an invisible twin, so both stay the same height.
          const twin = cells.length === 2 && (side === '+' ? i === 0 : i === 1);
          return createPortal(
            <div
              className={`inv-extra${twin ? ' inv-twin' : ''}`}
              aria-hidden={twin || undefined}
              inert={twin || undefined}
            >
              {extra.render()}
            </div>,
            cell,
            `${id}:${i}`,
          );
        });
      })}
    </div>
  );
}

/**
 * Line numbers take the focus, so a line note needs no mouse: the first of the chunk is
 * in the Tab order, the others are reached with the arrow keys (useLineSelection).
 */
function focusableNumbers(root: Element, format: DiffFormat): void {
  let first = true;
  for (const cell of root.querySelectorAll<HTMLElement>(LINE_NUMBER_CELL)) {
    const at = lineOfCell(cell, format);
    if (!at) continue;
    cell.tabIndex = first ? 0 : -1;
    cell.setAttribute('aria-label', `Line ${at.side}${at.line}: Enter writes a note, Shift+arrows select lines`);
    first = false;
  }
}
