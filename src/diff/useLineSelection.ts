import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import type { DiffLine } from '../../shared/diff-lines';
import { rangeBetween, type LineRange } from '../model/line-range';
import type { DiffFormat } from './diff2html';
import { LINE_NUMBER_CELL, lineOfCell, numberOnSide, type Side } from './rows';

type At = { side: Side; line: number };

/** What a file's diff hands its section, and what its line-number clicks go to. */
export interface LineSelection {
  /** The lines chosen so far (drawn highlighted), or null. */
  range: LineRange | null;
  onMouseDown: (event: MouseEvent) => void;
  onMouseOver: (event: MouseEvent) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  /** A click on a line number: opens a note on that line, or on the range from the last one with Shift. */
  onLineClick: (side: Side, line: number, shift: boolean) => void;
}

const SELECTED = 'inv-line-selected';

/**
 * Choosing lines for a note, by mouse and by keyboard alone. A click opens a line note;
 * a drag over line numbers, or a Shift+click after a click, opens one note on the range.
 * On a focused line number, Up and Down move, Shift+Up and Shift+Down extend the range,
 * Enter opens the note, Esc lets the range go.
 */
export function useLineSelection(
  section: RefObject<HTMLElement | null>,
  format: DiffFormat,
  lines: () => DiffLine[],
  onOpen: (range: LineRange) => void,
): LineSelection {
  const [range, setRangeState] = useState<LineRange | null>(null);
  const current = useRef<LineRange | null>(null);
  const setRange = (next: LineRange | null) => {
    current.current = next;
    setRangeState(next);
  };
  const anchor = useRef<At | null>(null);
  const drag = useRef<{ from: At; moved: boolean } | null>(null);
  /** The line number the arrow keys moved to last. */
  const moved = useRef<Element | null>(null);
  /** A drag just ended: a click that follows it (back on its first line) must not open a one-line note too. */
  const dragged = useRef(false);

  const between = (from: At, to: At): LineRange =>
    rangeBetween(lines(), from, to) ?? { side: to.side, from: to.line, to: to.line };
  const cellAt = (event: { target: EventTarget }) => {
    const cell = (event.target as Element).closest?.(LINE_NUMBER_CELL);
    const at = cell ? lineOfCell(cell, format) : null;
    return cell && at ? { cell: cell as HTMLElement, at } : null;
  };

  useEffect(() => {
    const root = section.current;
    if (!root) return;
    for (const row of root.querySelectorAll(`.${SELECTED}`)) row.classList.remove(SELECTED);
    if (!range) return;
    for (const cell of root.querySelectorAll(LINE_NUMBER_CELL)) {
      const n = numberOnSide(cell, format, range.side);
      if (n !== null && n >= range.from && n <= range.to) cell.parentElement?.classList.add(SELECTED);
    }
  }, [range, format, section]);

  useEffect(() => {
    const up = () => {
      const done = drag.current;
      drag.current = null;
      if (!done?.moved || !anchor.current) return;
      dragged.current = true;
      const chosen = current.current;
      if (chosen) onOpen(chosen);
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, [onOpen]);

  const open = (next: LineRange) => {
    setRange(next);
    onOpen(next);
  };

  return {
    range,
    onMouseDown: (event) => {
      const hit = cellAt(event);
      dragged.current = false;
      if (!hit || event.button !== 0) return;
      // No text selection while choosing lines; the number still takes the focus.
      event.preventDefault();
      hit.cell.focus({ preventScroll: true });
      if (event.shiftKey) return;
      drag.current = { from: hit.at, moved: false };
    },
    onMouseOver: (event) => {
      const hit = cellAt(event);
      const from = drag.current?.from;
      if (!hit || !from || (event.buttons & 1) === 0) return;
      if (hit.at.side !== from.side || hit.at.line !== from.line) drag.current!.moved = true;
      anchor.current = from;
      setRange(between(from, hit.at));
    },
    onLineClick: (side, line, shift) => {
      if (dragged.current) {
        dragged.current = false;
        return;
      }
      const at = { side, line };
      if (shift && anchor.current) return open(between(anchor.current, at));
      anchor.current = at;
      open({ side, from: line, to: line });
    },
    onKeyDown: (event) => {
      const hit = cellAt(event);
      if (!hit || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const next = neighbour(hit.cell, format, event.key === 'ArrowDown' ? 1 : -1);
        event.preventDefault();
        if (!next) return;
        hit.cell.tabIndex = -1;
        next.cell.tabIndex = 0;
        next.cell.focus();
        const from = moved.current;
        moved.current = next.cell;
        if (event.shiftKey) {
          // A range grows from the line the arrows left last; a line number focused anew starts one.
          if (from !== hit.cell || !anchor.current) anchor.current = hit.at;
          setRange(between(anchor.current, next.at));
        } else {
          anchor.current = next.at;
          setRange(null);
        }
      } else if (event.key === 'Enter') {
        event.preventDefault();
        open(current.current ?? { side: hit.at.side, from: hit.at.line, to: hit.at.line });
      } else if (event.key === 'Escape' && current.current) {
        setRange(null);
        anchor.current = hit.at;
      }
    },
  };
}

/** The line number above or below in the same file (in side-by-side, on the same side). */
function neighbour(cell: HTMLElement, format: DiffFormat, step: 1 | -1): { cell: HTMLElement; at: At } | null {
  const file = cell.closest('section.inv-file');
  if (!file) return null;
  const side = lineOfCell(cell, format)?.side;
  const cells = [...file.querySelectorAll<HTMLElement>(LINE_NUMBER_CELL)].filter((c) => {
    const at = lineOfCell(c, format);
    return at !== null && (format === 'line-by-line' || at.side === side);
  });
  const next = cells[cells.indexOf(cell) + step];
  const at = next ? lineOfCell(next, format) : null;
  return next && at ? { cell: next, at } : null;
}
