import { useMemo, useRef } from 'react';
import type { Entry } from '../model/entry';
import type { TreeNode } from '../model/file-tree';
import { foldAll } from '../state/folding';
import { TreeRows } from './TreeRows';

interface Props {
  /** Every file of the view, for its totals. */
  tree: TreeNode;
  /** The files the filter keeps, drawn as rows (the same as `tree` without a filter). */
  shown: TreeNode;
  /** The files of the view, for the viewed count. */
  entries: Entry[];
  /** The filter as typed, and as last applied (it lags while a large round is filtered). */
  filter: string;
  applied: string;
  onFilter: (filter: string) => void;
  onOpen: (entry: Entry) => void;
  isViewed: (entry: Entry) => boolean;
  current: string | null;
}

/**
 * Every file of the view as a folder tree with status and +/− counts, a filter by path (its
 * owner narrows the page with it too), and how many are viewed.
 */
export function FileTree({ tree, shown, entries, filter, applied, onFilter, onOpen, isViewed, current }: Props) {
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
        onChange={(e) => onFilter(e.target.value)}
      />
      {applied.trim() && (
        <p className="inv-muted inv-filter-count" role="status">
          {shown.files} of {tree.files} files
        </p>
      )}
      <TreeRows tree={shown} scroller={nav} onOpen={onOpen} isViewed={isViewed} current={current} />
    </nav>
  );
}
