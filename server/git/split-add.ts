import type { IndexEntry } from './index-file';

/**
 * Two sets of literal pathspecs that cut the working tree in two: `first` names whole
 * subtrees (folders or files, by their path from the top), `second` is everything else
 * (the top, minus each of them). A path is in exactly one of the two, so `git add --all`
 * run with each, into two copies of one index, stages every path exactly once.
 */
export interface AddSplit {
  /** The subtrees, as paths from the top. */
  subtrees: string[];
  first: string[];
  second: string[];
}

export interface SplitLimits {
  /** Below this weight (recorded bytes, plus `perFile` a file), one `git add` does it all. */
  fromBytes: number;
  /** What one file costs git beyond its bytes (stat, compare, index entry), in bytes. */
  perFile: number;
  /** At most this many subtrees (every path is matched against each pathspec). */
  maxSubtrees: number;
}

interface Node {
  path: string;
  weight: number;
  children: Map<string, Node> | null;
}

/**
 * Chooses subtrees holding about half the weight of the index's files: the top-level
 * entries in order while they fit, then, within the first that does not, its entries in
 * order, and so on down. `null` when the index is small, sparse, or nothing fits.
 * Untracked files are not in the index: they count for nothing here, and are staged by
 * whichever half their path falls in.
 */
export function planAddSplit(entries: IndexEntry[], limits: SplitLimits): AddSplit | null {
  const root: Node = { path: '', weight: 0, children: new Map() };
  for (const entry of entries) {
    // Sparse checkouts are left to one git: a pathspec that meets only sparse entries is an error.
    // So are names that are not UTF-8: they could not be given back to git as they are.
    if (entry.skipWorktree || entry.path.includes('\uFFFD')) return null;
    const weight = entry.size + limits.perFile;
    root.weight += weight;
    let node = root;
    for (let start = 0; start <= entry.path.length; ) {
      const slash = entry.path.indexOf('/', start);
      const end = slash === -1 ? entry.path.length : slash;
      const name = entry.path.slice(start, end);
      let child = node.children?.get(name);
      if (!child) {
        child = { path: entry.path.slice(0, end), weight: 0, children: slash === -1 ? null : new Map() };
        node.children?.set(name, child);
      }
      child.weight += weight;
      node = child;
      start = end + 1;
    }
  }
  if (root.weight < limits.fromBytes) return null;
  const subtrees: string[] = [];
  let budget = root.weight / 2;
  let node: Node = root;
  for (;;) {
    let crossing: Node | null = null;
    for (const child of node.children?.values() ?? []) {
      // `.review` leaves the capture anyway; naming it (ignored) would make git add fail.
      if (child.path === '.review') continue;
      if (child.weight <= budget) {
        subtrees.push(child.path);
        budget -= child.weight;
        if (subtrees.length >= limits.maxSubtrees) break;
      } else {
        crossing = child;
        break;
      }
    }
    if (!crossing?.children || subtrees.length >= limits.maxSubtrees || budget < root.weight / 20) break;
    node = crossing;
  }
  // Not worth a second git when one side would get under a fifth of the work.
  if (root.weight / 2 - budget < root.weight / 5) return null;
  return splitOf(subtrees);
}

/** The pathspecs of a split into the given subtrees and the rest. */
export function splitOf(subtrees: string[]): AddSplit {
  return {
    subtrees,
    first: subtrees.map((p) => `:(top,literal)${p}`),
    second: [':(top)', ...subtrees.map((p) => `:(top,exclude,literal)${p}`)],
  };
}
