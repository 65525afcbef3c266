/** A changed path and what staging it costs (its bytes, plus a per-file cost). */
export interface Weighed {
  path: string;
  weight: number;
}

export interface ShareLimits {
  /** Below this total weight, git gets no share. */
  fromBytes: number;
  /** The part of the weight git gets (0–1). */
  share: number;
  /** At most this many subtrees (every path is matched against each pathspec). */
  maxSubtrees: number;
}

interface Node {
  path: string;
  weight: number;
  children: Map<string, Node> | null;
}

/**
 * Whole subtrees (folders or files, as paths from the top) holding about `share` of the
 * changed paths' weight: the top-level entries in order while they fit, then, within the
 * first that does not, its entries in order, and so on down. `git add --all` stages them
 * while Involut hashes the rest (see direct-add.ts), so both cores work. `null` when the
 * round is small or nothing fits. `.review` is never one of them.
 */
export function gitShare(changed: Weighed[], limits: ShareLimits): string[] | null {
  const root: Node = { path: '', weight: 0, children: new Map() };
  for (const { path, weight } of changed) {
    root.weight += weight;
    let node = root;
    for (let start = 0; start <= path.length; ) {
      const slash = path.indexOf('/', start);
      const end = slash === -1 ? path.length : slash;
      const name = path.slice(start, end);
      let child = node.children?.get(name);
      if (!child) {
        child = { path: path.slice(0, end), weight: 0, children: slash === -1 ? null : new Map() };
        node.children?.set(name, child);
      }
      child.weight += weight;
      node = child;
      start = end + 1;
    }
  }
  if (root.weight < limits.fromBytes) return null;
  const subtrees: string[] = [];
  const wanted = root.weight * limits.share;
  let budget = wanted;
  let node: Node = root;
  for (;;) {
    let crossing: Node | null = null;
    for (const child of node.children?.values() ?? []) {
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
    if (!crossing?.children || subtrees.length >= limits.maxSubtrees || budget < wanted / 10) break;
    node = crossing;
  }
  // Not worth a git of its own for under half its share.
  return wanted - budget < wanted / 2 ? null : subtrees;
}

/** Whether a path is one of the subtrees or inside one. */
export function inSubtrees(path: string, subtrees: Set<string>): boolean {
  if (subtrees.has(path)) return true;
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    if (subtrees.has(path.slice(0, slash))) return true;
  }
  return false;
}
