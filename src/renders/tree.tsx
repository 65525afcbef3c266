import { useMemo, type CSSProperties } from 'react';
import type { TreePayload } from '../../schemas/renders/tree';
import { diffTrees, type DepthJump, type TreeCell, type TreeSide, type TreeStatus } from '../model/tree-diff';
import type { RenderProps } from './registry';
import { ShowMore, useShownRows } from './ShowMore';

const SIGN: Record<TreeStatus, string> = { added: '+', removed: '−', moved: '↷', unchanged: '' };

/** Two indented hierarchies side by side, row by row, with added, removed and moved nodes marked in words. */
export function TreeDraw({ data }: RenderProps<TreePayload>) {
  const diff = useMemo(() => diffTrees(data.before, data.after), [data]);
  const { shown, more } = useShownRows(diff.rows.length);
  if (diff.rows.length === 0)
    return <p className="inv-drawing-note">Both trees are empty: there is nothing to draw.</p>;
  const { added, removed, moved, unchanged } = diff.counts;
  return (
    <div className="inv-hier">
      {diff.jumps.length > 0 && <DepthJumps jumps={diff.jumps} />}
      <table className="inv-hier-table">
        <caption>
          Tree before and after: {added} added · {removed} removed · {moved} moved · {unchanged} unchanged
        </caption>
        <thead>
          <tr>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {diff.rows.slice(0, shown).map((row, i) => (
            <tr key={i}>
              <Side cell={row.before} side="before" />
              <Side cell={row.after} side="after" />
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMore shown={shown} total={diff.rows.length} noun="rows" onMore={more} />
    </div>
  );
}

function Side({ cell, side }: { cell: TreeCell | null; side: TreeSide }) {
  if (!cell) return <td className="inv-hier-cell inv-hier-none" />;
  const name = cell.name === '' ? <em className="inv-muted">(no name)</em> : cell.name;
  return (
    <td
      className={`inv-hier-cell inv-hier-${cell.status}`}
      data-status={cell.status}
      style={{ '--depth': cell.depth } as CSSProperties}
    >
      <span className="inv-hier-sign" aria-hidden="true">
        {SIGN[cell.status]}
      </span>
      <span className="inv-hier-name">{name}</span>
      {cell.status !== 'unchanged' && <span className="inv-change-badge">{badge(cell, side)}</span>}
      {cell.carried && <span className="inv-hier-aside">moved along with its parent</span>}
      {cell.jump && <span className="inv-hier-jump">⚠ depth jump</span>}
    </td>
  );
}

/** The words on a marked node: its status, and for a move, where it went or came from. */
function badge(cell: TreeCell, side: TreeSide): string {
  if (cell.status !== 'moved') return cell.status;
  if (cell.reordered) return 'moved: new place among its siblings';
  const where = cell.otherParents!.length ? cell.otherParents!.join(' › ') : 'the top level';
  return side === 'before' ? `moved to ${where}` : `moved from ${where}`;
}

function DepthJumps({ jumps }: { jumps: DepthJump[] }) {
  return (
    <div className="inv-drawing-report" role="note">
      <p>
        ⚠ {jumps.length === 1 ? 'One entry is' : `${jumps.length} entries are`} more than one level deeper than the
        entry above it, so levels in between are missing from the payload. Drawn at the depth given, under the nearest
        shallower entry:
      </p>
      <ul>
        {jumps.map((jump) => (
          <li key={`${jump.side}:${jump.index}`}>
            {jump.side}, entry {jump.index + 1} “{jump.name}”: depth {jump.depth} right after depth {jump.previous}
          </li>
        ))}
      </ul>
    </div>
  );
}
