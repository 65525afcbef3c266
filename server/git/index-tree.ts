import type { IndexEntry, IndexFile } from './index-file';
import { objectId, writePack, type PackedObject } from './object-pack';

/**
 * Writes the tree of a capture's temporary index (as read by `readIndexFile`; null when it
 * could not be), as `git write-tree` does, and returns its id; `null` when the index is one
 * git must handle (its own write-tree then runs).
 *
 * git writes each new tree as a loose object, a file of its own: on the bench round about
 * 130 files created, and a process that reads the whole index again, while the round's diff
 * wants both cores. Here the index already read is walked once, subtrees the index's
 * cache-tree still vouches for are taken as they are (as git does), and only the trees that
 * changed are hashed and stored, as one pack (see object-pack.ts).
 *
 * Left to git: unresolved conflicts (git refuses them), intent-to-add entries (git leaves
 * them and the folders they empty out of the tree), a sparse or split index, SHA-256 ids,
 * and an index that cannot be read.
 */
export async function writeIndexTree(index: IndexFile | null, packDir: string, hashBytes: number, changed: string[] = []): Promise<string | null> {
  if (hashBytes !== 20) return null;
  if (!index || index.extensions.some((signature) => signature === 'link' || signature === 'sdir')) return null;
  if (index.entries.some((e) => e.stage !== 0 || e.intentToAdd)) return null;
  const cached = index.cacheTree ? parseCacheTree(index.cacheTree, hashBytes) : null;
  if (cached) for (const file of changed) invalidate(cached, file);
  const built = new TreeBuilder(index.entries);
  const root = built.tree('', 0, cached);
  if (root.at !== index.entries.length) return null; // the cache-tree's counts do not match the entries
  if (built.written.length > 0) await writePack(packDir, built.written);
  return root.oid;
}

/** Marks every folder above a changed path (its raw bytes, as Latin-1) as no longer matching its cached tree. */
function invalidate(root: CachedTree, file: string): void {
  let node: CachedTree | undefined = root;
  for (let start = 0; node; ) {
    node.oid = null;
    const slash = file.indexOf('/', start);
    if (slash === -1) return;
    node = node.children.get(file.slice(start, slash));
    start = slash + 1;
  }
}

/**
 * The entries of an index after a capture changed some (see `addDirectly`): `updated` ones
 * replace or join those of the same path, `removed` paths go, and the result is in index
 * order (paths' bytes). Returns the paths that changed too, to invalidate the cache-tree.
 */
export function updatedEntries(entries: IndexEntry[], updated: IndexEntry[], removed: Iterable<string>): { entries: IndexEntry[]; changed: string[] } {
  const byPath = new Map(updated.map((e) => [e.rawPath, e]));
  const gone = new Set(removed);
  const kept: IndexEntry[] = [];
  for (const entry of entries) {
    if (gone.has(entry.rawPath)) continue;
    const replacement = byPath.get(entry.rawPath);
    if (replacement) byPath.delete(entry.rawPath);
    kept.push(replacement ?? entry);
  }
  const added = [...byPath.values()].sort((a, b) => (a.rawPath < b.rawPath ? -1 : a.rawPath > b.rawPath ? 1 : 0));
  const merged: IndexEntry[] = [];
  let i = 0;
  for (const entry of added) {
    while (i < kept.length && kept[i]!.rawPath < entry.rawPath) merged.push(kept[i++]!);
    merged.push(entry);
  }
  while (i < kept.length) merged.push(kept[i++]!);
  return { entries: merged, changed: [...updated.map((e) => e.rawPath), ...gone] };
}

/** One node of the index's cache-tree: how many entries its folder holds and its tree id when still valid. */
interface CachedTree {
  entries: number;
  oid: string | null;
  children: Map<string, CachedTree>;
}

/**
 * Reads the `TREE` extension: for each folder (depth first, the root's name empty), its name,
 * NUL, its entry count (-1 when invalidated), a space, its number of subfolders, a newline,
 * and its tree id when valid.
 */
function parseCacheTree(data: Buffer, hashBytes: number): CachedTree | null {
  let at = 0;
  const node = (): [string, CachedTree] | null => {
    const nul = data.indexOf(0, at);
    const nl = nul === -1 ? -1 : data.indexOf(0x0a, nul);
    if (nl === -1) return null;
    const name = data.toString('latin1', at, nul);
    const [entries, subtrees] = data.toString('latin1', nul + 1, nl).split(' ').map(Number) as [number, number];
    if (!Number.isInteger(entries) || !Number.isInteger(subtrees) || subtrees < 0) return null;
    at = nl + 1;
    let oid: string | null = null;
    if (entries >= 0) {
      if (at + hashBytes > data.length) return null;
      oid = data.toString('hex', at, at + hashBytes);
      at += hashBytes;
    }
    const children = new Map<string, CachedTree>();
    for (let i = 0; i < subtrees; i++) {
      const child = node();
      if (!child) return null;
      children.set(child[0], child[1]);
    }
    return [name, { entries, oid, children }];
  };
  try {
    return node()?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Builds trees from index entries in index order (which is tree order), collecting the new ones. */
class TreeBuilder {
  readonly written: PackedObject[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly entries: IndexEntry[]) {}

  /**
   * The tree of the folder `prefix` (empty or ending in `/`) whose first entry is at `at`:
   * its id and where its entries end. A valid cache-tree node stands for the whole folder.
   */
  tree(prefix: string, at: number, cached: CachedTree | null | undefined): { oid: string; at: number } {
    const { entries } = this;
    if (cached && cached.oid !== null && cached.entries > 0) {
      const end = at + cached.entries;
      // The count must cover exactly this folder's entries (cheap to check at its two ends).
      if (end <= entries.length && entries[end - 1]!.rawPath.startsWith(prefix) && !entries[end]?.rawPath.startsWith(prefix)) {
        return { oid: cached.oid, at: end };
      }
    }
    const pieces: Buffer[] = [];
    while (at < entries.length) {
      const entry = entries[at]!;
      if (!entry.rawPath.startsWith(prefix)) break;
      const slash = entry.rawPath.indexOf('/', prefix.length);
      if (slash === -1) {
        pieces.push(Buffer.from(`${entry.mode} ${entry.rawPath.slice(prefix.length)}\0`, 'latin1'), Buffer.from(entry.oid, 'hex'));
        at++;
      } else {
        const name = entry.rawPath.slice(prefix.length, slash);
        const sub = this.tree(`${prefix}${name}/`, at, cached?.children.get(name));
        pieces.push(Buffer.from(`40000 ${name}\0`, 'latin1'), Buffer.from(sub.oid, 'hex'));
        at = sub.at;
      }
    }
    const content = Buffer.concat(pieces);
    const oid = objectId('tree', content);
    if (!this.seen.has(oid)) {
      this.seen.add(oid);
      this.written.push({ oid, content, type: 'tree' });
    }
    return { oid, at };
  }
}
