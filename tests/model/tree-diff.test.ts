import { describe, expect, it } from 'vitest';
import { diffTrees, type TreeCell, type TreeDiff, type TreeEntry } from '../../src/model/tree-diff';

/** A hierarchy written as indented lines, two spaces a level. */
function tree(text: string): TreeEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => ({ name: line.trim(), depth: (line.length - line.trimStart().length) / 2 }));
}

const side = (cell: TreeCell | null) => {
  if (!cell) return '·';
  const status = cell.status === 'unchanged' ? '' : ` (${cell.status}${cell.reordered ? ', reordered' : ''})`;
  return `${'  '.repeat(cell.depth)}${cell.name}${status}${cell.carried ? ' (carried)' : ''}`;
};

/** Each row as "before | after", the way the drawing lays it out. */
const rows = (diff: TreeDiff) => diff.rows.map((row) => `${side(row.before)} | ${side(row.after)}`);

describe('diffTrees', () => {
  it('lays identical trees on one row per node, all unchanged', () => {
    const routes = tree(`
/
  about
  users
    :id
`);
    const diff = diffTrees(routes, routes);
    expect(rows(diff)).toEqual(['/ | /', '  about |   about', '  users |   users', '    :id |     :id']);
    expect(diff.counts).toEqual({ added: 0, removed: 0, moved: 0, unchanged: 4 });
    expect(diff.jumps).toEqual([]);
  });

  it('marks a node only before as removed and one only after as added, each on its own row in place', () => {
    const diff = diffTrees(
      tree(`
app
  legacy
  home
`),
      tree(`
app
  home
  search
`),
    );
    expect(rows(diff)).toEqual(['app | app', '  legacy (removed) | ·', '  home |   home', '· |   search (added)']);
    expect(diff.counts).toEqual({ added: 1, removed: 1, moved: 0, unchanged: 2 });
  });

  it('marks a node whose parent changed as moved, says where from and to, and its children move along unchanged', () => {
    const diff = diffTrees(
      tree(`
home
settings
  profile
  billing
account
`),
      tree(`
home
account
  settings
    profile
    billing
`),
    );
    // The nodes that stayed keep their rows; the moved block shows where it left and where it landed.
    expect(rows(diff)).toEqual([
      'home | home',
      'settings (moved) | ·',
      '  profile (carried) | ·',
      '  billing (carried) | ·',
      'account | account',
      '· |   settings (moved)',
      '· |     profile (carried)',
      '· |     billing (carried)',
    ]);
    const moved = diff.rows.flatMap((r) => [r.before, r.after]).filter((c) => c?.status === 'moved');
    expect(moved.map((c) => [c!.parents, c!.otherParents])).toEqual([
      [[], ['account']],
      [['account'], []],
    ]);
    expect(diff.counts).toEqual({ added: 0, removed: 0, moved: 1, unchanged: 4 });
  });

  it('keeps a moved node on one row with its old self when the order allows it', () => {
    const diff = diffTrees(
      tree(`
/
  users
    :id
  about
`),
      tree(`
/
  admin
    users
      :id
  about
`),
    );
    expect(rows(diff)).toEqual([
      '/ | /',
      '· |   admin (added)',
      '  users (moved) |     users (moved)',
      '    :id |       :id',
      '  about |   about',
    ]);
    expect(diff.rows[2]!.after!.otherParents).toEqual(['/']);
    expect(diff.rows[2]!.before!.otherParents).toEqual(['/', 'admin']);
  });

  it('marks siblings that swapped places as moved (reordered), not as removed and added', () => {
    const diff = diffTrees(tree('nav\n  Logo\n  Menu\n'), tree('nav\n  Menu\n  Logo\n'));
    expect(rows(diff)).toEqual([
      'nav | nav',
      '· |   Menu (moved, reordered)',
      '  Logo |   Logo',
      '  Menu (moved, reordered) | ·',
    ]);
    expect(diff.counts.moved).toBe(1);
  });

  it('treats a renamed folder as removed and added, with its files moved into the new one', () => {
    const diff = diffTrees(tree('src\n  components\n    Button.tsx\n'), tree('src\n  ui\n    Button.tsx\n'));
    expect(rows(diff)).toEqual([
      'src | src',
      '  components (removed) | ·',
      '· |   ui (added)',
      '    Button.tsx (moved) |     Button.tsx (moved)',
    ]);
    expect(diff.rows[3]!.after!.otherParents).toEqual(['src', 'components']);
    expect(diff.counts).toEqual({ added: 1, removed: 1, moved: 1, unchanged: 1 });
  });

  it('pairs a common name under the parent it stays with before pairing it by name alone', () => {
    const diff = diffTrees(
      tree(`
old
  index
settings
  index
`),
      tree(`
account
  settings
    index
new
  index
`),
    );
    const settingsIndex = diff.rows.find(
      (r) => r.after?.name === 'index' && r.after.parents.join('/') === 'account/settings',
    )!;
    expect(settingsIndex.after!.status).toBe('unchanged'); // it moved with settings
    const newIndex = diff.rows.find((r) => r.after?.name === 'index' && r.after.parents[0] === 'new')!;
    expect(newIndex.after).toMatchObject({ status: 'moved', otherParents: ['old'] });
    expect(diff.counts).toEqual({ added: 2, removed: 1, moved: 2, unchanged: 1 });
  });

  it('pairs repeated sibling names in order (two Buttons stay two Buttons)', () => {
    const diff = diffTrees(tree('Toolbar\n  Button\n  Button\n'), tree('Toolbar\n  Button\n  Button\n  Button\n'));
    expect(rows(diff)).toEqual([
      'Toolbar | Toolbar',
      '  Button |   Button',
      '  Button |   Button',
      '· |   Button (added)',
    ]);
  });

  it('reports a depth jump, hangs the row under the nearest shallower row, and draws it at the depth given', () => {
    const diff = diffTrees(tree('app\n  page\n'), [
      { name: 'app', depth: 0 },
      { name: 'page', depth: 1 },
      { name: 'Card', depth: 3 },
      { name: 'footer', depth: 1 },
    ]);
    expect(diff.jumps).toEqual([{ side: 'after', index: 2, name: 'Card', depth: 3, previous: 1 }]);
    const card = diff.rows.find((r) => r.after?.name === 'Card')!.after!;
    expect(card).toMatchObject({ depth: 3, parents: ['app', 'page'], status: 'added', jump: true });
    expect(diff.rows.filter((r) => r.after?.jump)).toHaveLength(1);
  });

  it('does not count a first row deeper than 0 as a jump, nor a climb back up', () => {
    const diff = diffTrees(
      [
        { name: 'src', depth: 1 },
        { name: 'a.ts', depth: 2 },
        { name: 'b', depth: 0 },
      ],
      [],
    );
    expect(diff.jumps).toEqual([]);
    expect(diff.counts.removed).toBe(3);
  });

  it('draws a tree that did not exist before as all added, and two empty trees as no rows', () => {
    expect(rows(diffTrees([], tree('a\n  b\n')))).toEqual(['· | a (added)', '· |   b (added)']);
    expect(diffTrees([], []).rows).toEqual([]);
  });

  it('diffs a 5,000-entry folder tree with a folder moved to the end', () => {
    const folder = (name: string, depth: number) => [
      { name, depth },
      ...Array.from({ length: 49 }, (_, i) => ({ name: `file${i}.ts`, depth: depth + 1 })),
    ];
    const before = Array.from({ length: 100 }, (_, f) => folder(`dir${f}`, 0)).flat();
    const after = [...Array.from({ length: 99 }, (_, f) => folder(`dir${f + 1}`, 0)).flat(), ...folder('dir0', 1)];
    const diff = diffTrees(before, after);
    expect(diff.counts).toEqual({ added: 0, removed: 0, moved: 1, unchanged: 4999 });
    expect(diff.rows).toHaveLength(5000 + 50); // the moved folder shows where it left and where it landed
  });
});
