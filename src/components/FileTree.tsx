import { useDeferredValue, useMemo, useRef, useState } from 'react';
import type { Entry } from '../model/entry';
import { fileTree, filterEntries, type TreeNode } from '../model/file-tree';
import { foldAll } from '../state/folding';
import { TreeRows } from './TreeRows';

interface Props {
  tree: TreeNode;
  /** The files the tree shows, for the filter and the viewed count. */
  entries: Entry[];
  onOpen: (entry: Entry) => void;
  isViewed: (entry: Entry) => boolean;
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
  const nav = useRef<HTMLElement>(null);
  return (
    <nav ref={nav} className="inv-sidebar inv-tree" aria-label="Changed files">
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
      <TreeRows tree={shown} scroller={nav} onOpen={onOpen} isViewed={isViewed} current={current} />
    </nav>
  );
}
