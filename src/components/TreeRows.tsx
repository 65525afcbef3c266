import { useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Entry } from '../model/entry';
import { treeMove, visibleRows, type TreeKey, type TreeNode, type TreeRow } from '../model/file-tree';
import { DiffsContext, useWantDiffs } from '../state/diffs';
import { scrollRowIntoView, useRowWindow } from '../state/useRowWindow';
import { Visible } from './Visible';

/** Every row is this tall, so the rows in view follow from the scroll position alone. */
const ROW = 21;

const MOVES = new Set<string>(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End']);

interface Props {
  tree: TreeNode;
  /** The box the rows scroll in. */
  scroller: RefObject<HTMLElement | null>;
  onOpen: (entry: Entry) => void;
  isViewed: (entry: Entry) => boolean;
  /** The file on screen (or jumped to): selected, and kept in the tree's view. */
  current: string | null;
}

/**
 * The tree's rows as a WAI-ARIA tree: one tab stop, arrows to move and to open or close
 * folders, Home and End, Enter to open a file. Only the rows in view are in the page
 * (each row as tall as the next), so a round of 10,000 files draws a few dozen.
 */
export function TreeRows({ tree, scroller, onOpen, isViewed, current }: Props) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(tree, closed), [tree, closed]);
  const at = useMemo(() => new Map(rows.map((row, i) => [row.node.path, i])), [rows]);
  const [active, setActive] = useState<string | null>(null);
  // The one tab stop: the row last moved to, else the file on screen, else the first row.
  const stop = at.get(active ?? '') ?? at.get(current ?? '') ?? 0;
  const list = useRef<HTMLUListElement>(null);
  const { start, end } = useRowWindow(scroller, list, rows.length, ROW);
  const focusStop = useRef(false);
  // The files the tree shows are one click away: their diffs are fetched while the reader looks.
  const shownRefs = useMemo(
    () =>
      rows
        .slice(start, end)
        .flatMap(({ node }) => (node.entry && node.entry.diff === undefined ? [node.entry.ref] : [])),
    [rows, start, end],
  );
  useWantDiffs(shownRefs, true);
  const diffs = useContext(DiffsContext);

  const toggle = (path: string) =>
    setClosed((was) => {
      const next = new Set(was);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  const moveTo = (i: number) => {
    const row = rows[i];
    if (!row || !scroller.current || !list.current) return;
    setActive(row.node.path);
    focusStop.current = true;
    scrollRowIntoView(scroller.current, list.current, i, ROW);
  };
  const choose = (row: TreeRow) => {
    if (!row.node.entry) return toggle(row.node.path);
    // Asked before the jump renders, so the answer is on its way while the file's block mounts.
    diffs?.want([row.node.entry.ref]);
    onOpen(row.node.entry);
  };

  // A moved-to row takes the focus once drawn (it is drawn even when out of the window).
  useLayoutEffect(() => {
    if (!focusStop.current) return;
    focusStop.current = false;
    list.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus({ preventScroll: true });
  });
  // The file on screen stays in the tree's view, unless the reader is moving in the tree.
  useEffect(() => {
    const i = at.get(current ?? '');
    if (i === undefined || !scroller.current || !list.current || list.current.contains(document.activeElement)) return;
    scrollRowIntoView(scroller.current, list.current, i, ROW);
  }, [current, at, scroller]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const row = rows[stop];
    if (row && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      choose(row);
    } else if (MOVES.has(event.key)) {
      event.preventDefault();
      const move = treeMove(rows, stop, event.key as TreeKey, (r) => !closed.has(r.node.path));
      if (move && 'to' in move) moveTo(move.to);
      else if (move) toggle(rows[move.toggle]!.node.path);
    }
  };

  const drawn: number[] = [];
  for (let i = start; i < end; i++) drawn.push(i);
  if (rows.length && (stop < start || stop >= end)) drawn.push(stop);
  return (
    <ul
      ref={list}
      role="tree"
      aria-label="Changed files"
      className="inv-tree-rows"
      style={{ height: rows.length * ROW, '--tree-row': `${ROW}px` } as React.CSSProperties}
      onKeyDown={onKeyDown}
    >
      {drawn.map((i) => {
        const row = rows[i]!;
        const entry = row.node.entry;
        return (
          <li
            key={row.node.path}
            role="treeitem"
            aria-level={row.level}
            aria-setsize={row.setSize}
            aria-posinset={row.posInSet}
            aria-expanded={entry ? undefined : !closed.has(row.node.path)}
            aria-selected={entry ? current === entry.ref : false}
            tabIndex={i === stop ? 0 : -1}
            className={`inv-tree-row ${entry ? `inv-tree-file${isViewed(entry) ? ' inv-is-viewed' : ''}` : 'inv-tree-folder'}`}
            title={entry?.ref}
            style={{ top: i * ROW, '--level': row.level } as React.CSSProperties}
            onClick={() => {
              setActive(row.node.path);
              choose(row);
            }}
          >
            {entry ? (
              <FileRow name={row.node.name} entry={entry} />
            ) : (
              <FolderRow row={row} open={!closed.has(row.node.path)} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

function FileRow({ name, entry }: { name: string; entry: Entry }) {
  return (
    <>
      <span className={`inv-dot inv-status-${entry.status}`} aria-hidden="true" />
      <span className="inv-tree-name">
        <Visible text={name} />
      </span>
      <span className="inv-visually-hidden">, {entry.status}</span>
      <span className="inv-counts">
        {entry.withheld ? (
          'withheld'
        ) : entry.binary ? (
          'bin'
        ) : (
          <>
            <span className="inv-add">+{entry.additions ?? 0}</span>{' '}
            <span className="inv-del">−{entry.deletions ?? 0}</span>
          </>
        )}
      </span>
    </>
  );
}

function FolderRow({ row, open }: { row: TreeRow; open: boolean }) {
  return (
    <>
      <span aria-hidden="true">{open ? '▾' : '▸'}</span>
      <span className="inv-tree-name">
        <Visible text={row.node.name} />/
      </span>
    </>
  );
}
