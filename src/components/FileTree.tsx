import { memo, useMemo, useState } from 'react';
import type { MaterialEntry } from '../../schemas/material';
import { treeRows, type TreeNode } from '../model/file-tree';
import { Visible } from './Visible';

interface Props {
  tree: TreeNode;
  onOpen: (entry: MaterialEntry) => void;
  isViewed: (entry: MaterialEntry) => boolean;
  current: string | null;
}

/** Every file of the material as a folder tree with status and +/− counts. */
export function FileTree({ tree, onOpen, isViewed, current }: Props) {
  return (
    <nav className="inv-sidebar inv-tree" aria-label="Changed files">
      <p className="inv-coverage">
        {tree.files} changed {tree.files === 1 ? 'file' : 'files'} <span className="inv-add">+{tree.additions}</span>{' '}
        <span className="inv-del">−{tree.deletions}</span>
      </p>
      <ul role="tree">
        {tree.children.map((node) => (
          <Node key={node.path} node={node} onOpen={onOpen} isViewed={isViewed} current={within(node, current)} />
        ))}
      </ul>
    </nav>
  );
}

/**
 * `current` when it is this node or inside it, else null: a row (memoized) re-renders only
 * when the selection enters or leaves it, so a jump redraws two paths, not 2,000 rows.
 */
function within(node: TreeNode, current: string | null): string | null {
  return current !== null && (current === node.path || current.startsWith(`${node.path}/`)) ? current : null;
}

const Node = memo(function TreeRow({ node, onOpen, isViewed, current }: { node: TreeNode } & Omit<Props, 'tree'>) {
  const [open, setOpen] = useState(true);
  const rows = useMemo(() => treeRows(node), [node]);
  if (node.entry) {
    const entry = node.entry;
    return (
      <li role="treeitem" aria-selected={current === entry.ref}>
        <button type="button" className={`inv-tree-file${isViewed(entry) ? ' inv-is-viewed' : ''}`} onClick={() => onOpen(entry)} title={entry.ref}>
          <span className={`inv-dot inv-status-${entry.status}`} aria-label={entry.status} />
          <span className="inv-tree-name">
            <Visible text={node.name} />
          </span>
          <span className="inv-counts">
            {entry.withheld ? 'withheld' : entry.binary ? 'bin' : (
              <>
                <span className="inv-add">+{entry.additions ?? 0}</span> <span className="inv-del">−{entry.deletions ?? 0}</span>
              </>
            )}
          </span>
        </button>
      </li>
    );
  }
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={false} className="inv-tree-group" style={{ '--rows': rows } as React.CSSProperties}>
      <button type="button" className="inv-tree-folder" onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} <Visible text={node.name} />/
      </button>
      {open && (
        <ul role="group">
          {node.children.map((child) => (
            <Node key={child.path} node={child} onOpen={onOpen} isViewed={isViewed} current={within(child, current)} />
          ))}
        </ul>
      )}
    </li>
  );
});
