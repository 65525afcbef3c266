import { describe, expect, it } from 'vitest';
import type { Card } from '../../schemas/cards';
import type { MaterialEntry } from '../../schemas/material';
import { budget } from '../../src/model/budget';
import { continuations, coverage, coverageLine, groupByIntent } from '../../src/model/coverage';
import { learn, startingDetail } from '../../src/model/detail';
import { diffLines, findLine, lineAnchor } from '../../shared/diff-lines';
import { fileTree, treeMove, treeOrder, visibleRows } from '../../src/model/file-tree';
import { placeMarks } from '../../shared/marks';
import { cardKey, fileKey, lineKey, parseNoteKey } from '../../shared/note-keys';
import { placeLineNote } from '../../shared/line-notes';
import { notesPrompt } from '../../shared/prompt';
import { noteThreads, openNotes } from '../../shared/threads';
import { rangeBetween } from '../../src/model/line-range';

const entry = (ref: string, extra: Partial<MaterialEntry> = {}): MaterialEntry => ({
  ref,
  status: 'modified',
  binary: false,
  diff: '@@ -1 +1 @@\n-a\n+b\n',
  hash: `h-${ref}`,
  commits: [],
  additions: 1,
  deletions: 1,
  ...extra,
});

const card = (id: string, intent: Card['intent'], refs: string[], extra: Partial<Card> = {}): Card => ({
  id,
  title: `Card ${id}`,
  intent,
  refs,
  ...extra,
});

describe('coverage', () => {
  const material = [entry('a.ts'), entry('b.ts'), entry('c.ts')];

  it('counts the changed files the cards explain and lists the ones no card claims, in material order', () => {
    const result = coverage(material, [card('c1', 'behavior', ['a.ts']), card('c2', 'cleanup', ['a.ts', 'c.ts'])]);
    expect(result.explained).toBe(2);
    expect(result.total).toBe(3);
    expect(result.unclaimed.map((e) => e.ref)).toEqual(['b.ts']);
    expect(coverageLine(result)).toBe('2 of 3 changed files are explained by cards');
  });

  it('reports refs that are not in the material per card, without counting them as explained', () => {
    const result = coverage(material, [card('c1', 'risk', ['a.ts', 'gone.ts'])]);
    expect(result.explained).toBe(1);
    expect(result.dangling.get('c1')).toEqual(['gone.ts']);
  });

  it('with no cards every file is unclaimed', () => {
    expect(coverage(material, []).unclaimed).toHaveLength(3);
    expect(coverageLine({ explained: 0, total: 0 })).toBe('No changed files in this round.');
  });
});

describe('grouping', () => {
  it('orders groups risk, behavior, structure, cleanup, assets and drops empty ones', () => {
    const groups = groupByIntent([
      card('1', 'cleanup', []),
      card('2', 'risk', []),
      card('3', 'cleanup', []),
      card('4', 'assets', []),
    ]);
    expect(groups.map((g) => [g.intent, g.cards.map((c) => c.id)])).toEqual([
      ['risk', ['2']],
      ['cleanup', ['1', '3']],
      ['assets', ['4']],
    ]);
  });

  it('links an earlier card to the cards that continue it', () => {
    const next = continuations([
      card('c1', 'behavior', []),
      card('c2', 'behavior', [], { continues: 'c1' }),
      card('c3', 'risk', [], { continues: 'c1' }),
    ]);
    expect(next.get('c1')).toEqual(['c2', 'c3']);
    expect(next.get('c2')).toBeUndefined();
  });
});

describe('budget', () => {
  it('fits cards in reading order while the minutes last, and sums all of them', () => {
    const { total, fits } = budget(
      [
        card('a', 'risk', [], { minutes: 10 }),
        card('b', 'risk', [], { minutes: 25 }),
        card('c', 'risk', [], { minutes: 5 }),
      ],
      20,
    );
    expect(total).toBe(40);
    expect([...fits]).toEqual(['a', 'c']);
  });
});

describe('diff lines and marks', () => {
  const diff =
    '@@ -10,3 +10,4 @@ function f() {\n   const idle = now - seen;\n-  if (idle > 5) {\n+  if (idle > IDLE_LIMIT) {\n+    log();\n\\ No newline at end of file\n';

  it('numbers every line on its side and leaves the trailing newline out', () => {
    const lines = diffLines(diff);
    expect(lines.map((l) => [l.type, l.oldNumber, l.newNumber])).toEqual([
      ['hunk', null, null],
      ['context', 10, 10],
      ['delete', 11, null],
      ['insert', null, 11],
      ['insert', null, 12],
      ['meta', null, null],
    ]);
    expect(lineAnchor(lines[1]!)).toEqual({ side: '+', line: 10 });
    expect(lineAnchor(lines[2]!)).toEqual({ side: '-', line: 11 });
    expect(findLine(lines, '-', 11)?.text).toBe('-  if (idle > 5) {');
  });

  it('pins a mark under the first line containing `at` exactly, and keeps one that matches nothing', () => {
    const lines = diffLines(diff);
    const placed = placeMarks(
      [
        { mark: { ref: 'a.ts', at: 'idle > IDLE_LIMIT', text: 'the change' }, cardId: 'c1' },
        { mark: { ref: 'a.ts', at: 'idle', text: 'first idle' }, cardId: 'c1' },
        { mark: { ref: 'a.ts', at: 'idle >  IDLE_LIMIT', text: 'spacing differs' }, cardId: 'c1' },
      ],
      lines,
    );
    expect(placed[0]!.line?.newNumber).toBe(11);
    expect(placed[1]!.line?.newNumber).toBe(10);
    expect(placed[2]!.line).toBeNull();
  });
});

describe('note keys', () => {
  it('builds and reads back the four key forms, refs with colons included', () => {
    expect(cardKey('c_1')).toBe('c_1');
    expect(parseNoteKey(fileKey('src/a:b.ts'))).toEqual({ kind: 'file', ref: 'src/a:b.ts' });
    expect(parseNoteKey(lineKey('src/a:b.ts', '+', 12))).toEqual({
      kind: 'line',
      ref: 'src/a:b.ts',
      side: '+',
      line: 12,
      to: 12,
    });
    expect(parseNoteKey('line:src/a.ts:-3')).toEqual({ kind: 'line', ref: 'src/a.ts', side: '-', line: 3, to: 3 });
    expect(lineKey('src/a:b.ts', '+', 12, 18)).toBe('line:src/a:b.ts:+12-18');
    expect(parseNoteKey('line:src/a:b.ts:+12-18')).toEqual({
      kind: 'line',
      ref: 'src/a:b.ts',
      side: '+',
      line: 12,
      to: 18,
    });
    // A range that runs backwards is no line key.
    expect(parseNoteKey('line:a.ts:+18-12')).toEqual({ kind: 'card', id: 'line:a.ts:+18-12' });
    expect(parseNoteKey('c_2')).toEqual({ kind: 'card', id: 'c_2' });
  });

  it('hands the notes over as one prompt with each note as Markdown', () => {
    const prompt = notesPrompt({
      'line:src/a.ts:+12': {
        title: 'src/a.ts line +12',
        refs: ['src/a.ts'],
        text: 'Why 30?',
        at: 't',
        quote: '+const IDLE = 30;',
        kind: 'question',
      },
      c_1: { title: 'Sessions expire', refs: ['src/a.ts'], text: 'Split this.', at: 't' },
    });
    expect(prompt).toContain('Read `.review/notes.json` and address every note');
    expect(prompt).toContain('## File `src/a.ts`\n\n### Question on line +12\n');
    expect(prompt).toContain('```diff\n+const IDLE = 30;\n```');
    expect(prompt).toContain('## Change on card `c_1`: Sessions expire');
  });
});

describe('detail knob', () => {
  it('starts risk and behavior full, structure at summary, cleanup folded', () => {
    expect(startingDetail('risk', undefined)).toBe('full');
    expect(startingDetail('behavior', undefined)).toBe('full');
    expect(startingDetail('structure', undefined)).toBe('summary');
    expect(startingDetail('cleanup', undefined)).toBe('folded');
  });

  it('learns from what the reader opens and closes, per intent, one level per three net moves', () => {
    let history = undefined;
    for (let i = 0; i < 3; i++) history = learn(history, 'folded', 'full');
    expect(startingDetail('cleanup', history)).toBe('summary');
    for (let i = 0; i < 3; i++) history = learn(history, 'full', 'folded');
    expect(startingDetail('cleanup', history)).toBe('folded');
    let closing = undefined;
    for (let i = 0; i < 9; i++) closing = learn(closing, 'full', 'summary');
    expect(startingDetail('risk', closing)).toBe('folded');
  });
});

describe('file tree', () => {
  it('nests files by folder, folders first, sums the counts, and collapses single-folder chains', () => {
    const tree = fileTree([
      entry('src/auth/session.ts', { additions: 3, deletions: 1 }),
      entry('README.md', { additions: 1, deletions: 0 }),
      entry('src/auth/token.ts', { additions: 2, deletions: 2 }),
      entry('assets/hero.png', { binary: true, diff: null, additions: null, deletions: null }),
    ]);
    expect(tree.children.map((c) => c.name)).toEqual(['assets', 'src/auth', 'README.md']);
    expect(tree.files).toBe(4);
    expect(tree.additions).toBe(6);
    expect(tree.children[1]!.additions).toBe(5);
    expect(treeOrder(tree).map((e) => e.ref)).toEqual([
      'assets/hero.png',
      'src/auth/session.ts',
      'src/auth/token.ts',
      'README.md',
    ]);
  });

  it('draws a closed folder as one row, and gives each row its level, place among its siblings and folder', () => {
    const tree = fileTree([entry('src/auth/session.ts'), entry('src/auth/token.ts'), entry('README.md')]);
    const open = visibleRows(tree, new Set());
    expect(open.map((r) => [r.node.name, r.level, r.posInSet, r.setSize, r.parent])).toEqual([
      ['src/auth', 1, 1, 2, -1],
      ['session.ts', 2, 1, 2, 0],
      ['token.ts', 2, 2, 2, 0],
      ['README.md', 1, 2, 2, -1],
    ]);
    expect(visibleRows(tree, new Set(['src/auth'])).map((r) => r.node.name)).toEqual(['src/auth', 'README.md']);
  });

  it('moves through the tree as the WAI-ARIA tree pattern says', () => {
    const tree = fileTree([entry('src/auth/session.ts'), entry('src/auth/token.ts'), entry('README.md')]);
    const rows = visibleRows(tree, new Set());
    const isOpen = () => true;
    expect(treeMove(rows, 0, 'ArrowDown', isOpen)).toEqual({ to: 1 });
    expect(treeMove(rows, 0, 'ArrowUp', isOpen)).toBeNull();
    expect(treeMove(rows, 3, 'ArrowDown', isOpen)).toBeNull();
    expect(treeMove(rows, 2, 'Home', isOpen)).toEqual({ to: 0 });
    expect(treeMove(rows, 0, 'End', isOpen)).toEqual({ to: 3 });
    // Right on an open folder enters it, on a closed one opens it; Left closes, or goes up to the folder.
    expect(treeMove(rows, 0, 'ArrowRight', isOpen)).toEqual({ to: 1 });
    expect(treeMove(rows, 0, 'ArrowRight', () => false)).toEqual({ toggle: 0 });
    expect(treeMove(rows, 0, 'ArrowLeft', isOpen)).toEqual({ toggle: 0 });
    expect(treeMove(rows, 2, 'ArrowLeft', isOpen)).toEqual({ to: 0 });
    expect(treeMove(rows, 3, 'ArrowLeft', isOpen)).toBeNull();
    expect(treeMove(rows, 1, 'ArrowRight', isOpen)).toBeNull();
  });

  it('sorts names as localeCompare does, and finds each folder once however many files it holds', () => {
    const refs = ['b/Z.ts', 'b/a.ts', 'a/x.ts', 'b/é.ts', 'b/e.ts', 'a/y/1.ts', 'a/y/2.ts'];
    const tree = fileTree(refs.map((ref) => entry(ref)));
    expect(treeOrder(tree).map((e) => e.ref)).toEqual([
      'a/y/1.ts',
      'a/y/2.ts',
      'a/x.ts',
      'b/a.ts',
      'b/e.ts',
      'b/é.ts',
      'b/Z.ts',
    ]);
    expect(tree.children.map((c) => [c.name, c.files])).toEqual([
      ['a', 3],
      ['b', 4],
    ]);
  });
});

describe('note threads', () => {
  const note = (at: string) => ({ title: 't', refs: [], text: 'x', at });
  it('lists the cards that address a note, and reads it as answered only if it was not written again after the capture', () => {
    const threads = noteThreads(
      {
        c_1: note('2026-09-02T18:10:00-03:00'),
        'file:a.ts': note('2026-09-02T23:00:00+00:00'),
        other: note('2026-09-01T00:00:00Z'),
      },
      [
        card('c_2', 'behavior', [], { addresses: ['c_1', 'file:a.ts'] }),
        card('c_3', 'risk', [], { addresses: ['c_1'] }),
      ],
      '2026-09-02T22:00:00+00:00',
    );
    expect(threads.get('c_1')).toEqual({ addressedBy: ['c_2', 'c_3'], answered: true, state: 'answered' });
    expect(threads.get('file:a.ts')).toEqual({ addressedBy: ['c_2'], answered: false, state: 'open' });
    expect(threads.get('other')).toEqual({ addressedBy: [], answered: false, state: 'open' });
  });

  it('reads a resolved note as resolved, answered or not, and leaves it out of the open notes', () => {
    const notes = {
      c_1: { ...note('2026-09-02T18:10:00-03:00'), resolvedAt: '2026-09-02T23:30:00+00:00' },
      other: { ...note('2026-09-01T00:00:00Z'), resolvedAt: '2026-09-01T00:00:01Z' },
      open: note('2026-09-01T00:00:00Z'),
    };
    const threads = noteThreads(notes, [card('c_2', 'behavior', [], { addresses: ['c_1'] })], '2026-09-02T22:00:00Z');
    expect([...threads].map(([key, t]) => [key, t.state])).toEqual([
      ['c_1', 'resolved'],
      ['other', 'resolved'],
      ['open', 'open'],
    ]);
    expect(openNotes(notes, threads).map(([key]) => key)).toEqual(['open']);
  });
});

describe('line notes across rounds', () => {
  const lines = diffLines('@@ -1,3 +1,4 @@\n const a = 1;\n+const b = 2;\n+const c = 3;\n const d = 4;\n');
  it('stays on its line while the line reads as quoted', () => {
    expect(placeLineNote(lines, '+', 2, '+const b = 2;')).toMatchObject({ state: 'anchored', line: { newNumber: 2 } });
  });
  it('moves only to the one line that reads exactly as quoted', () => {
    expect(placeLineNote(lines, '+', 9, '+const c = 3;')).toMatchObject({ state: 'moved', line: { newNumber: 3 } });
  });
  it('is outdated when its line is gone, never moved to a nearby line', () => {
    expect(placeLineNote(lines, '+', 2, '+const b = 20;')).toEqual({ state: 'outdated' });
    const twice = diffLines('@@ -1,2 +1,2 @@\n+x\n+x\n');
    expect(placeLineNote(twice, '+', 7, '+x')).toEqual({ state: 'outdated' });
  });
  it('places a range by all its lines: stays, moves on one exact run, else outdated', () => {
    const bc = '+const b = 2;\n+const c = 3;';
    expect(placeLineNote(lines, '+', 2, bc, 3)).toMatchObject({
      state: 'anchored',
      line: { newNumber: 3 },
      from: 2,
      to: 3,
    });
    expect(placeLineNote(lines, '+', 5, bc, 6)).toMatchObject({
      state: 'moved',
      line: { newNumber: 3 },
      from: 2,
      to: 3,
    });
    expect(placeLineNote(lines, '+', 2, '+const b = 2;\n+const c = 30;', 3)).toEqual({ state: 'outdated' });
    // Lines that read as quoted but not one after another are no match.
    const apart = diffLines('@@ -1,1 +1,3 @@\n+const b = 2;\n x\n+const c = 3;\n');
    expect(placeLineNote(apart, '+', 1, bc, 2)).toEqual({ state: 'outdated' });
  });
});

describe('choosing lines', () => {
  const lines = diffLines('@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -10,1 +10,1 @@\n-x\n+y\n');
  it('takes the lines between two chosen lines, within the hunk, on the side that numbers most of them', () => {
    expect(rangeBetween(lines, { side: '+', line: 1 }, { side: '+', line: 3 })).toEqual({ side: '+', from: 1, to: 3 });
    expect(rangeBetween(lines, { side: '+', line: 3 }, { side: '-', line: 2 })).toEqual({ side: '+', from: 2, to: 3 });
    expect(rangeBetween(lines, { side: '-', line: 1 }, { side: '+', line: 3 })).toEqual({ side: '-', from: 1, to: 3 });
    // A context line and the deleted line below it: the old side numbers both.
    expect(rangeBetween(lines, { side: '+', line: 1 }, { side: '-', line: 2 })).toEqual({ side: '-', from: 1, to: 2 });
    // Dragged past the hunk's end: the range stops at it.
    expect(rangeBetween(lines, { side: '+', line: 2 }, { side: '+', line: 10 })).toEqual({ side: '+', from: 2, to: 3 });
    expect(rangeBetween(lines, { side: '+', line: 99 }, { side: '+', line: 1 })).toBeNull();
  });
});
