/**
 * Checks src/diff's grouping on real diffs: `npx vitest run --config bench/vitest.config.ts`
 * on CHECK_MATERIAL (default: the bench round's material.json, which `npm run bench` leaves
 * removed: capture it first with `involut rounds`). Not part of `npm test`: it needs that round.
 * For every text file of the material and both formats: the groups cover every diff line
 * exactly once with the numbers a whole-file parse gives them, and each group's placeholder
 * rows (groupRows, from line prefixes only) equal the rows of its drawn chunks.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { chunkDiff, chunkRows, groupChunks, groupDiff, groupRows, parseDiff } from '../src/diff/diff2html';

it('groups cover every line once and their placeholders are as tall as their chunks', () => {
  const file = process.env.CHECK_MATERIAL ?? '/tmp/involut-bench/repo-rounds-v2/.review/material.json';
  const material = JSON.parse(readFileSync(file, 'utf8')) as { material: Array<{ ref: string; diff: string | null }> };
  // Lines diff2html treats specially: no newline at the end, carriage returns, a huge single hunk.
  const huge = Array.from({ length: 400 }, (_, i) =>
    i % 3 ? `+added ${i}` : i % 2 ? ` kept ${i}` : `-gone ${i}`,
  ).join('\n');
  material.material.push(
    {
      ref: 'synthetic/no-newline.txt',
      diff: '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    },
    {
      ref: 'synthetic/crlf.txt',
      diff: '@@ -1,3 +1,3 @@\n one\r\n-two\r\n+2\r\n three\r\n@@ -10,1 +10,1 @@\n-x\ry\n+z\n',
    },
    { ref: 'synthetic/huge-hunk.ts', diff: `@@ -1,300 +1,300 @@\n${huge}\n` },
  );
  let checked = 0;
  let failures = 0;
  const sizes = [undefined, 7, 50];
  for (const entry of material.material) {
    if (!entry.diff) continue;
    const whole = parseDiff(entry.ref, entry.diff);
    const wholeLines = (whole?.blocks ?? []).flatMap((b) =>
      b.lines.map((l) => `${l.type}:${l.oldNumber ?? ''}:${l.newNumber ?? ''}:${l.content}`),
    );
    for (const size of sizes) {
      const groups = groupDiff(entry.diff, size);
      const chunks = groups.flatMap((g) => groupChunks(entry.ref, g));
      const lines = chunks.flatMap((c) =>
        c.file.blocks.flatMap((b) =>
          b.lines.map((l) => `${l.type}:${l.oldNumber ?? ''}:${l.newNumber ?? ''}:${l.content}`),
        ),
      );
      if (lines.join('\n') !== wholeLines.join('\n')) {
        failures++;
        console.log(
          `${entry.ref} (group size ${size}): the groups' lines differ from the whole file's (${lines.length} vs ${wholeLines.length})`,
        );
      }
      for (const format of ['line-by-line', 'side-by-side'] as const) {
        for (const group of groups) {
          const drawn = groupChunks(entry.ref, group).reduce((n, c) => n + chunkRows(c, format), 0);
          const estimated = groupRows(group, format);
          if (drawn !== estimated) {
            failures++;
            console.log(`${entry.ref} (group size ${size}, ${format}): placeholder ${estimated} rows, drawn ${drawn}`);
          }
        }
      }
      checked++;
    }
    // A single group is the whole file's chunking.
    if (
      whole &&
      groupDiff(entry.diff).length === 1 &&
      chunkDiff(whole).length !== groupChunks(entry.ref, groupDiff(entry.diff)[0]!).length
    ) {
      failures++;
      console.log(`${entry.ref}: one group, but not the whole file's chunks`);
    }
  }
  console.log(`${checked} file × group-size cases checked, ${failures} failures`);
  expect(failures).toBe(0);
});
