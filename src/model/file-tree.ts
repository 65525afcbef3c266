import type { MaterialEntry } from '../../schemas/material';

/** A folder or file of the Raw mode tree. */
export interface TreeNode {
  name: string;
  /** Full path of the folder, or the entry's ref. */
  path: string;
  entry?: MaterialEntry;
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
export function fileTree(entries: MaterialEntry[]): TreeNode {
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
      additions: 0,
      deletions: 0,
      files: 0,
    });
  }
  return finish(root);
}

/** The order of `localeCompare` (the same collation), without building it again for each comparison. */
const byName = new Intl.Collator();

function finish(node: TreeNode): TreeNode {
  if (node.entry) {
    return { ...node, additions: node.entry.additions ?? 0, deletions: node.entry.deletions ?? 0, files: 1 };
  }
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
export function treeOrder(node: TreeNode): MaterialEntry[] {
  if (node.entry) return [node.entry];
  return node.children.flatMap(treeOrder);
}

/** Rows the node takes in the tree with every folder open: its own, and each of its descendants'. */
export function treeRows(node: TreeNode): number {
  return 1 + node.children.reduce((n, child) => n + treeRows(child), 0);
}

/** The entries whose path (or old path) holds every space-separated piece of `filter`, in any case. */
export function filterEntries(entries: MaterialEntry[], filter: string): MaterialEntry[] {
  const pieces = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (pieces.length === 0) return entries;
  return entries.filter((entry) => {
    const path = `${entry.ref}\n${entry.from ?? ''}`.toLowerCase();
    return pieces.every((piece) => path.includes(piece));
  });
}
