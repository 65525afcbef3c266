import { memo, useDeferredValue, useMemo, useState } from 'react';
import type { MaterialEntry } from '../../schemas/material';
import { fileTree, filterEntries, treeRows, type TreeNode } from '../model/file-tree';
import { foldAll } from '../state/folding';
import { Visible } from './Visible';

interface Props {
  tree: TreeNode;
  /** The files the tree shows, for the filter and the viewed count. */
  entries: MaterialEntry[];
  onOpen: (entry: MaterialEntry) => void;
  isViewed: (entry: MaterialEntry) => boolean;
  current: string | null;
}

/** Every file of the material as a folder tree with status and +/− counts, a filter by path, and how many are viewed. */
export function FileTree({ tree, entries, onOpen, isViewed, current }: Props) {
  const [filter, setFilter] = useState('');
  const deferred = useDeferredValue(filter);
  const shown = useMemo(
    () => (deferred.trim() ? fileTree(filterEntries(entries, deferred)) : tree),
    [deferred, entries, tree],
  );
  const viewed = useMemo(() => entries.filter(isViewed).length, [entries, isViewed]);
  return (
    <nav className="inv-sidebar inv-tree" aria-label="Changed files">
      <p className="inv-coverage">
        {tree.files} changed {tree.files === 1 ? 'file' : 'files'} <span className="inv-add">+{tree.additions}</span>{' '}
        <span className="inv-del">−{tree.deletions}</span>
      </p>
      <p className="inv-progress">
        <span className="inv-viewed-count">
          {viewed} of {entries.length} viewed
        </span>
        <button type="button" className="inv-link" onClick={() => foldAll(false)}>
          Collapse all
        </button>
        <button type="button" className="inv-link" onClick={() => foldAll(true)}>
          Expand all
        </button>
      </p>
      <input
        type="search"
        className="inv-tree-filter"
        placeholder="Filter files by path"
        aria-label="Filter files by path"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {deferred.trim() && (
        <p className="inv-muted inv-filter-count" role="status">
          {shown.files} of {tree.files} files
        </p>
      )}
      <ul role="tree">
        {shown.children.map((node) => (
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

const Node = memo(function TreeRow({
  node,
  onOpen,
  isViewed,
  current,
}: { node: TreeNode } & Omit<Props, 'tree' | 'entries'>) {
  const [open, setOpen] = useState(true);
  const rows = useMemo(() => treeRows(node), [node]);
  if (node.entry) {
    const entry = node.entry;
    return (
      <li role="treeitem" aria-selected={current === entry.ref}>
        <button
          type="button"
          className={`inv-tree-file${isViewed(entry) ? ' inv-is-viewed' : ''}`}
          onClick={() => onOpen(entry)}
          title={entry.ref}
        >
          <span className={`inv-dot inv-status-${entry.status}`} aria-label={entry.status} />
          <span className="inv-tree-name">
            <Visible text={node.name} />
          </span>
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
        </button>
      </li>
    );
  }
  return (
    <li
      role="treeitem"
      aria-expanded={open}
      aria-selected={false}
      className="inv-tree-group"
      style={{ '--rows': rows } as React.CSSProperties}
    >
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
