/**
 * Expanding a diff's context, checked against git itself: every unchanged line revealed
 * around the hunks must read, and be numbered, as git's own diff with that much context.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandDiff, linesAbove, linesBelow, parseHunks } from '../../src/model/context';

const dir = mkdtempSync(path.join(os.tmpdir(), 'involut-context-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** git's diff of two texts with `context` lines of context, from its first `@@` (as material.json holds it). */
function gitDiff(before: string, after: string, context: number): string {
  writeFileSync(path.join(dir, 'a'), before);
  writeFileSync(path.join(dir, 'b'), after);
  let out = '';
  try {
    execFileSync('git', ['diff', '--no-index', `-U${context}`, 'a', 'b'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    out = (error as { stdout: string }).stdout; // exit 1: the files differ
  }
  return out.slice(out.indexOf('@@'));
}

const lines = (n: number, name = 'line') => Array.from({ length: n }, (_, i) => `${name} ${i + 1}`);
const text = (all: string[]) => `${all.join('\n')}\n`;
/** Hunk headers without git's function context (its guess of the enclosing line, which a moved hunk start does not keep). */
const bare = (diff: string) => diff.replace(/^(@@[^@]*@@).*$/gm, '$1');

describe('expandDiff', () => {
  const before = lines(80);
  const after = [...before];
  after.splice(9, 1, 'changed 10'); // a modified line
  after.splice(30, 2); // two deleted lines (old 31, 32)
  after.splice(50, 0, 'added A', 'added B'); // two added lines
  const diff = gitDiff(text(before), text(after), 3);

  it('reveals the whole file exactly as git shows it with full context', () => {
    expect(parseHunks(diff).length).toBe(3);
    expect(expandDiff(diff, after, [[1, after.length]])).toBe(
      gitDiff(text(before), text(after), 1000).replace(/^(@@[^@]*@@).*$/m, '$1'),
    );
  });

  it('reveals lines between hunks with both sides numbered as git numbers them', () => {
    // Three more lines of context on each side of every hunk is git's -U6.
    const ranges = parseHunks(diff).flatMap((h, i, all): Array<[number, number]> => {
      const end = h.newFirst + h.lines.filter((l) => !l.startsWith('-')).length;
      return [[h.newFirst - 3, h.newFirst - 1], [end, end + 2], ...(i === all.length - 1 ? [] : [])];
    });
    expect(bare(expandDiff(diff, after, ranges))).toBe(bare(gitDiff(text(before), text(after), 6)));
  });

  it('steps above a hunk and below the last one, stopping at the file’s ends and at other hunks', () => {
    const [first, second] = parseHunks(diff).map((h) =>
      diff.split('\n').find((l) => l.startsWith(`@@`) && l.includes(`+${h.newFirst}`))!,
    );
    expect(linesAbove(diff, first!, 20)).toEqual([1, 6]);
    // Between the first hunk (new lines 7 to 13) and the second: every line, the gap being under 20.
    expect(linesAbove(diff, second!, 20)).toEqual([14, 27]);
    expect(linesBelow(diff, after.length, 20)).toEqual([56, 75]);
    expect(linesBelow(expandDiff(diff, after, [[56, 80]]), after.length, 20)).toBeNull();
    const whole = expandDiff(diff, after, [[1, after.length]]);
    expect(linesAbove(whole, whole.split('\n')[0]!, 20)).toBeNull();
  });

  it('handles a diff whose hunk only adds, or only deletes, at the start of the file', () => {
    for (const [b, a] of [
      [lines(30), ['new 0', ...lines(30)]],
      [lines(30), lines(30).slice(1)],
    ]) {
      const d = gitDiff(text(b!), text(a!), 3);
      expect(expandDiff(d, a!, [[1, a!.length]])).toBe(
        gitDiff(text(b!), text(a!), 1000).replace(/^(@@[^@]*@@).*$/m, '$1'),
      );
    }
  });
});
