import type { Entry } from './entry';

/** A folder or file of the Raw mode tree. */
export interface TreeNode {
  name: string;
  /** Full path of the folder, or the entry's ref. */
  path: string;
  entry?: Entry;
  children: TreeNode[];
  additions: number;
  deletions: number;
  files: number;
}

/**
 * Every entry of the material in a folder tree (folders first, then files, by name),
 * with +/− counts summed up the folders. A chain of single folders is collapsed
 * into one node (`src/auth/session` rather than three levels).
 */
export function fileTree(entries: Entry[]): TreeNode {
  const root: TreeNode = { name: '', path: '', children: [], additions: 0, deletions: 0, files: 0 };
  // Folders by path: a round of 2,000 files in wide folders is not searched folder by folder.
  const folders = new Map<string, TreeNode>([['', root]]);
  for (const entry of entries) {
    const parts = entry.ref.split('/');
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = node.path ? `${node.path}/${parts[i]}` : parts[i]!;
      let child = folders.get(path);
      if (!child) {
        child = { name: parts[i]!, path, children: [], additions: 0, deletions: 0, files: 0 };
        node.children.push(child);
        folders.set(path, child);
      }
      node = child;
    }
    node.children.push({
      name: parts[parts.length - 1]!,
      path: entry.ref,
      entry,
      children: [],
      additions: entry.additions ?? 0,
      deletions: entry.deletions ?? 0,
      files: 1,
    });
  }
  return finish(root);
}

/** The order of `localeCompare` (the same collation), without building it again for each comparison. */
const byName = new Intl.Collator();

function finish(node: TreeNode): TreeNode {
  if (node.entry) return node;
  const children = node.children.map(finish);
  children.sort((a, b) => Number(!!a.entry) - Number(!!b.entry) || byName.compare(a.name, b.name));
  const sum = (key: 'additions' | 'deletions' | 'files') => children.reduce((n, c) => n + c[key], 0);
  let collapsed: TreeNode = {
    ...node,
    children,
    additions: sum('additions'),
    deletions: sum('deletions'),
    files: sum('files'),
  };
  // Collapse a folder whose only child is a folder.
  while (collapsed.path !== '' && collapsed.children.length === 1 && !collapsed.children[0]!.entry) {
    const only = collapsed.children[0]!;
    collapsed = { ...only, name: `${collapsed.name}/${only.name}` };
  }
  return collapsed;
}

/** Files of the tree in display order (what "next file" walks through in Raw mode). */
export function treeOrder(node: TreeNode): Entry[] {
  if (node.entry) return [node.entry];
  return node.children.flatMap(treeOrder);
}

/** One row of the tree as drawn: a folder or a file, where it sits among its siblings. */
export interface TreeRow {
  node: TreeNode;
  /** 1 for the top level (`aria-level`). */
  level: number;
  /** How many siblings it has, itself included, and its place among them from 1 (`aria-setsize`, `aria-posinset`). */
  setSize: number;
  posInSet: number;
  /** The index of its folder's row; -1 at the top level. */
  parent: number;
}

/** The rows of the tree in display order: every folder, and the children of those not in `closed` (folder paths). */
export function visibleRows(root: TreeNode, closed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (folder: TreeNode, level: number, parent: number) => {
    folder.children.forEach((node, i) => {
      rows.push({ node, level, setSize: folder.children.length, posInSet: i + 1, parent });
      if (!node.entry && !closed.has(node.path)) walk(node, level + 1, rows.length - 1);
    });
  };
  walk(root, 1, -1);
  return rows;
}

/** A key of the WAI-ARIA tree pattern; what it does depends on the row it is pressed on. */
export type TreeKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';

/**
 * What a key does on row `at`: the row it moves to, or the folder it opens or closes
 * (`toggle`); null when it does nothing there.
 */
export function treeMove(
  rows: TreeRow[],
  at: number,
  key: TreeKey,
  isOpen: (row: TreeRow) => boolean,
): { to: number } | { toggle: number } | null {
  const row = rows[at];
  if (!row) return rows.length ? { to: 0 } : null;
  const folder = !row.node.entry;
  switch (key) {
    case 'ArrowUp':
      return at > 0 ? { to: at - 1 } : null;
    case 'ArrowDown':
      return at < rows.length - 1 ? { to: at + 1 } : null;
    case 'Home':
      return { to: 0 };
    case 'End':
      return { to: rows.length - 1 };
    case 'ArrowRight':
      if (!folder) return null;
      if (!isOpen(row)) return { toggle: at };
      return rows[at + 1]?.parent === at ? { to: at + 1 } : null;
    case 'ArrowLeft':
      if (folder && isOpen(row)) return { toggle: at };
      return row.parent >= 0 ? { to: row.parent } : null;
  }
}

/** The entries whose path (or old path) holds every space-separated piece of `filter`, in any case. */
export function filterEntries(entries: Entry[], filter: string): Entry[] {
  const pieces = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (pieces.length === 0) return entries;
  return entries.filter((entry) => {
    const path = `${entry.ref}\n${entry.from ?? ''}`.toLowerCase();
    return pieces.every((piece) => path.includes(piece));
  });
}
