import type { TreeEntry } from '../../schemas/renders/tree';

/**
 * Two indented hierarchies (routes, components, folders) compared node by node and laid
 * side by side, row by row.
 *
 * Identity: roots pair with roots of the same name, then children pair with children of
 * the same name under paired parents. What is left pairs by name alone, shallowest
 * first: that node's parent changed, so it "moved", and its children pair under it as
 * unchanged (they moved with it). Unpaired nodes are "removed" (before) or "added" (after).
 */

export type { TreeEntry };
export type TreeStatus = 'added' | 'removed' | 'moved' | 'unchanged';
export type TreeSide = 'before' | 'after';

export interface TreeCell {
  name: string;
  depth: number;
  /** Position in its own side's list, from 0. */
  index: number;
  status: TreeStatus;
  /** Names from the root down to this node's parent, on this side. */
  parents: string[];
  /** A moved node's parents on the other side: where it went (before) or came from (after). */
  otherParents?: string[];
  /** True when it kept its parent but changed place among its siblings. */
  reordered?: boolean;
  /** True when the node sits on its own row because an ancestor moved and took it along. */
  carried?: boolean;
  /** True when the row is more than one level deeper than the row above it. */
  jump?: boolean;
}

/** One row of the side-by-side drawing; a side is null when the row belongs to the other side only. */
interface TreeRow {
  before: TreeCell | null;
  after: TreeCell | null;
}

/** A row more than one level deeper than the row above it: rows in between are missing. */
export interface DepthJump {
  side: TreeSide;
  index: number;
  name: string;
  depth: number;
  previous: number;
}

export interface TreeDiff {
  rows: TreeRow[];
  jumps: DepthJump[];
  /** Nodes added, removed, moved and unchanged (a pair counts once). */
  counts: Record<TreeStatus, number>;
}

interface Placed {
  entry: TreeEntry;
  parent: number;
  children: number[];
  parents: string[];
}

/** Finds each entry's parent (the nearest shallower row above it) and the depth jumps on the way. */
function placeEntries(entries: TreeEntry[], side: TreeSide): { nodes: Placed[]; jumps: DepthJump[] } {
  const nodes: Placed[] = [];
  const jumps: DepthJump[] = [];
  const stack: number[] = [];
  entries.forEach((entry, index) => {
    const previous = entries[index - 1];
    if (previous && entry.depth > previous.depth + 1) {
      jumps.push({ side, index, name: entry.name, depth: entry.depth, previous: previous.depth });
    }
    while (stack.length && entries[stack[stack.length - 1]!]!.depth >= entry.depth) stack.pop();
    const parent = stack.length ? stack[stack.length - 1]! : -1;
    const parents = parent === -1 ? [] : [...nodes[parent]!.parents, nodes[parent]!.entry.name];
    nodes.push({ entry, parent, children: [], parents });
    if (parent !== -1) nodes[parent]!.children.push(index);
    stack.push(index);
  });
  return { nodes, jumps };
}

function listed<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** Pairs before-nodes with after-nodes; returns after-index by before-index (-1: unpaired). */
function pairNodes(before: Placed[], after: Placed[]): number[] {
  const toAfter = before.map(() => -1);
  const taken = after.map(() => false);
  const pair = (b: number, a: number) => {
    const work: Array<[number, number]> = [[b, a]];
    for (let next = work.pop(); next; next = work.pop()) {
      const [bi, ai] = next;
      toAfter[bi] = ai;
      taken[ai] = true;
      const free = new Map<string, number[]>();
      for (const child of after[ai]!.children) {
        if (!taken[child]) listed(free, after[child]!.entry.name).push(child);
      }
      for (const child of before[bi]!.children) {
        const match = free.get(before[child]!.entry.name)?.shift();
        if (match !== undefined) work.push([child, match]);
      }
    }
  };

  const afterRoots = after.flatMap((node, i) => (node.parent === -1 ? [i] : []));
  before.forEach((node, b) => {
    if (node.parent !== -1 || toAfter[b] !== -1) return;
    const match = afterRoots.find((a) => !taken[a] && after[a]!.entry.name === node.entry.name);
    if (match !== undefined) pair(b, match);
  });

  const byName = new Map<string, number[]>();
  after.forEach((node, a) => listed(byName, node.entry.name).push(a));
  const shallowFirst = before.map((_, b) => b).sort((x, y) => before[x]!.entry.depth - before[y]!.entry.depth || x - y);
  for (const b of shallowFirst) {
    if (toAfter[b] !== -1) continue;
    const depth = before[b]!.entry.depth;
    const free = (byName.get(before[b]!.entry.name) ?? []).filter((a) => !taken[a]);
    if (free.length === 0) continue;
    const closest = free.reduce((best, a) =>
      Math.abs(after[a]!.entry.depth - depth) < Math.abs(after[best]!.entry.depth - depth) ? a : best,
    );
    pair(b, closest);
  }
  return toAfter;
}

/**
 * Indices (into `pairs`, sorted by before-position) of the heaviest run of pairs whose
 * after-positions increase with their before-positions: the pairs that share a row.
 */
function alignedPairs(pairs: Array<[number, number]>, weights: number[]): Set<number> {
  // Fenwick tree over after-positions holding the best run ending at or below each position.
  const size = pairs.reduce((max, [, a]) => Math.max(max, a + 1), 0);
  const tree: Array<{ total: number; at: number }> = Array.from({ length: size + 1 }, () => ({ total: 0, at: -1 }));
  const best = (end: number) => {
    let found = { total: 0, at: -1 };
    for (let i = end; i > 0; i -= i & -i) if (tree[i]!.total > found.total) found = tree[i]!;
    return found;
  };
  const back = pairs.map(() => -1);
  let top = { total: 0, at: -1 };
  pairs.forEach(([, a], i) => {
    const before = best(a);
    back[i] = before.at;
    const run = { total: before.total + weights[i]!, at: i };
    if (run.total > top.total) top = run;
    for (let j = a + 1; j <= size; j += j & -j) if (run.total > tree[j]!.total) tree[j] = run;
  });
  const kept = new Set<number>();
  for (let i = top.at; i !== -1; i = back[i]!) kept.add(i);
  return kept;
}

/** Compares two hierarchies and lays them out row by row for a side-by-side drawing. */
export function diffTrees(beforeEntries: TreeEntry[], afterEntries: TreeEntry[]): TreeDiff {
  const before = placeEntries(beforeEntries, 'before');
  const after = placeEntries(afterEntries, 'after');
  const toAfter = pairNodes(before.nodes, after.nodes);
  const toBefore = after.nodes.map(() => -1);
  toAfter.forEach((a, b) => a !== -1 && (toBefore[a] = b));

  const sameParent = (b: number) => {
    const parent = before.nodes[b]!.parent;
    return parent === -1
      ? after.nodes[toAfter[b]!]!.parent === -1
      : toAfter[parent] === after.nodes[toAfter[b]!]!.parent;
  };
  // A moved node and everything it took along weigh little, so the rows keep the nodes
  // that stayed in place aligned and the moved block shows where it left and where it landed.
  const inMovedBlock = before.nodes.map(() => false);
  before.nodes.forEach((node, b) => {
    if (toAfter[b] !== -1) inMovedBlock[b] = !sameParent(b) || (node.parent !== -1 && inMovedBlock[node.parent]!);
  });
  const pairs = toAfter.flatMap((a, b): Array<[number, number]> => (a === -1 ? [] : [[b, a]]));
  const kept = alignedPairs(
    pairs,
    pairs.map(([b]) => (inMovedBlock[b] ? 1 : 1000)),
  );
  const aligned = new Set(pairs.filter((_, i) => kept.has(i)).map(([b]) => b));

  const cell = (side: TreeSide, index: number): TreeCell => {
    const node = (side === 'before' ? before.nodes : after.nodes)[index]!;
    const result: TreeCell = {
      name: node.entry.name,
      depth: node.entry.depth,
      index,
      parents: node.parents,
      status: side === 'before' ? 'removed' : 'added',
    };
    if ((side === 'before' ? before.jumps : after.jumps).some((j) => j.index === index)) result.jump = true;
    const b = side === 'before' ? index : toBefore[index]!;
    if (b === -1 || toAfter[b] === -1) return result;
    const parent = before.nodes[b]!.parent;
    if (!sameParent(b)) {
      result.status = 'moved';
      result.otherParents = side === 'before' ? after.nodes[toAfter[b]!]!.parents : before.nodes[b]!.parents;
    } else if (!aligned.has(b) && (parent === -1 || aligned.has(parent))) {
      result.status = 'moved';
      result.reordered = true;
    } else {
      result.status = 'unchanged';
      if (!aligned.has(b)) result.carried = true;
    }
    return result;
  };

  const rows = layRows(
    pairs.filter((_, i) => kept.has(i)),
    before.nodes.length,
    after.nodes.length,
    cell,
  );
  const counts: Record<TreeStatus, number> = { added: 0, removed: 0, moved: 0, unchanged: 0 };
  for (const row of rows) {
    if (row.after) counts[row.after.status]++;
    else if (row.before!.status === 'removed') counts.removed++;
  }
  return { rows, jumps: [...before.jumps, ...after.jumps], counts };
}

/** Rows in both sides' own order: each aligned pair on one row, everything between them on rows of its own. */
function layRows(
  aligned: Array<[number, number]>,
  beforeCount: number,
  afterCount: number,
  cell: (side: TreeSide, index: number) => TreeCell,
): TreeRow[] {
  const rows: TreeRow[] = [];
  let b = 0;
  let a = 0;
  const flush = (bEnd: number, aEnd: number) => {
    for (; b < bEnd; b++) rows.push({ before: cell('before', b), after: null });
    for (; a < aEnd; a++) rows.push({ before: null, after: cell('after', a) });
  };
  for (const [pb, pa] of aligned) {
    flush(pb, pa);
    rows.push({ before: cell('before', pb), after: cell('after', pa) });
    b = pb + 1;
    a = pa + 1;
  }
  flush(beforeCount, afterCount);
  return rows;
}
