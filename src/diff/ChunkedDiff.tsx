import { useMemo, useRef } from 'react';
import type { LoadedEntry } from '../model/entry';
import { useTargetIn, type Target } from '../state/target';
import { ChunkView, type LineExtra } from './ChunkView';
import {
  chunkHasLine,
  groupChunks,
  groupDiff,
  groupHasLine,
  groupRows,
  type DiffFormat,
  type DiffGroup,
} from './diff2html';
import { ROW_HEIGHT, type Side } from './rows';
import { NEAR, useNearViewport } from './useNearViewport';

interface Props {
  entry: LoadedEntry;
  format: DiffFormat;
  extras: LineExtra[];
  onLineClick: (side: Side, n: number, shift: boolean) => void;
  /** Called with a clicked hunk header's text; none when the file has no context to show. */
  onHunkClick?: (header: string) => void;
}

/**
 * A file's diff, drawn lazily at two levels. The text is cut into groups of hunks
 * (GROUP_LINES lines each) by their line prefixes alone; a group far from the viewport is
 * one placeholder of its exact height, and is parsed and cut into chunks only when it
 * comes near (and dropped again when far). Each chunk then draws itself when near. A file
 * of one group, as most are, skips the first level.
 */
export function ChunkedDiff({ entry, format, extras, onLineClick, onHunkClick }: Props) {
  const groups = useMemo(() => (entry.diff ? groupDiff(entry.diff) : []), [entry.diff]);
  const target = useTargetIn(entry.ref);
  const line = target?.line ? target : null;
  return (
    <div className={`inv-diff inv-${format}`}>
      {groups.length === 1 ? (
        <GroupChunks
          refName={entry.ref}
          group={groups[0]!}
          format={format}
          extras={extras}
          onLineClick={onLineClick}
          onHunkClick={onHunkClick}
          target={line}
        />
      ) : (
        groups.map((group, i) => (
          <LazyGroup
            key={i}
            refName={entry.ref}
            group={group}
            format={format}
            extras={extras}
            onLineClick={onLineClick}
            onHunkClick={onHunkClick}
            target={line && groupHasLine(group, line.line!.side, line.line!.number) ? line : null}
          />
        ))
      )}
    </div>
  );
}

interface GroupProps {
  refName: string;
  group: DiffGroup;
  format: DiffFormat;
  extras: LineExtra[];
  onLineClick: (side: Side, n: number, shift: boolean) => void;
  onHunkClick?: (header: string) => void;
  /** A jump's target line in this group: the group is drawn whatever the viewport. */
  target: Target | null;
}

function LazyGroup(props: GroupProps) {
  const host = useRef<HTMLDivElement>(null);
  const near = useNearViewport(host, NEAR) || props.target !== null;
  const rows = useMemo(() => groupRows(props.group, props.format), [props.group, props.format]);
  return (
    <div ref={host} className="inv-group" style={near ? undefined : { height: rows * ROW_HEIGHT }}>
      {near && <GroupChunks {...props} />}
    </div>
  );
}

function GroupChunks({ refName, group, format, extras, onLineClick, onHunkClick, target }: GroupProps) {
  const chunks = useMemo(() => groupChunks(refName, group), [refName, group]);
  return (
    <>
      {chunks.map((chunk, i) => (
        <ChunkView
          key={i}
          chunk={chunk}
          format={format}
          extras={extras}
          onLineClick={onLineClick}
          onHunkClick={onHunkClick}
          target={target?.line && chunkHasLine(chunk, target.line.side, target.line.number) ? target : null}
        />
      ))}
    </>
  );
}
