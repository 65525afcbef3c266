/**
 * Range notes, end to end: the reader chooses lines on the line numbers of a real diff
 * (by dragging, by Shift+click, and by keyboard alone), each choice lands in notes.json
 * as one note keyed `line:<ref>:+<a>-<b>` quoting its lines; after the agent's second
 * round, a range whose lines still read the same stays, one whose lines moved follows
 * them, and one whose lines changed is shown apart as outdated. None is dropped.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventually, text, until } from '../helpers/browser';
import { openViewer, removeLoopDirs, startAgent, type Viewer } from '../helpers/agent-loop';

const REF = 'src/steps.ts';
const line = (n: number) => `export const step${n} = ${n};`;
const ROUND_1 = Array.from({ length: 20 }, (_, i) => line(i + 1)).join('\n') + '\n';
// Line 11 changed; a line inserted after line 13, so lines 14 to 20 are one lower.
const ROUND_2 =
  [
    ...Array.from({ length: 13 }, (_, i) => (i + 1 === 11 ? 'export const step11 = 110;' : line(i + 1))),
    '// a new line',
    ...Array.from({ length: 7 }, (_, i) => line(i + 14)),
  ].join('\n') + '\n';
const quote = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `+${line(from + i)}`).join('\n');

let viewer: Viewer | null = null;
afterEach(async () => {
  const errors = viewer?.errors ?? [];
  await viewer?.close();
  viewer = null;
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
afterAll(removeLoopDirs);

const file = (page: Page) => page.locator(`section.inv-file[data-ref=${JSON.stringify(REF)}]`);
const numberCell = (page: Page, n: number) =>
  file(page)
    .locator('tbody.d2h-diff-tbody > tr')
    .filter({ has: page.locator('.line-num2', { hasText: new RegExp(`^\\s*${n}\\s*$`) }) })
    .locator('.d2h-code-linenumber');
const noteBox = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
/** The new-side number of the diff row right above a note's row: the line it is pinned under. */
const pinnedUnder = (page: Page, key: string) =>
  file(page)
    .locator(`.inv-extra:not(.inv-twin) [data-note-key=${JSON.stringify(key)}]`)
    .evaluate((el) => el.closest('tr')!.previousElementSibling!.querySelector('.line-num2')!.textContent!.trim());
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

async function drag(page: Page, from: number, to: number): Promise<void> {
  const start = (await numberCell(page, from).boundingBox())!;
  const end = (await numberCell(page, to).boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 6 });
  await page.mouse.up();
}

describe('range notes', () => {
  it('are written by drag, Shift+click and keyboard, and keep their place across rounds', async () => {
    const agent = startAgent({ 'README.md': '# steps\n' });
    agent.begin();
    agent.write(REF, ROUND_1);
    agent.rounds();
    viewer = await openViewer(agent);
    const { page, screenshot } = viewer;
    await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw', exact: true }).click();
    await numberCell(page, 1).waitFor();

    // By drag: lines 3 to 6, one note under line 6, focused.
    await drag(page, 3, 6);
    await eventually(() => focused(page)).toBe(`Note on ${REF} lines +3–6`);
    await page.keyboard.type('These four belong together.');
    expect(await pinnedUnder(page, `line:${REF}:+3-6`)).toBe('6');

    // By Shift+click: a click on line 15, then Shift+click on 17.
    await numberCell(page, 15).click();
    await numberCell(page, 17).click({ modifiers: ['Shift'] });
    await eventually(() => focused(page)).toBe(`Note on ${REF} lines +15–17`);
    await page.keyboard.type('Move these up.');
    // The one-line box the first click opened was never typed in: it gave way to the range's.
    expect(await page.locator(`[data-note-key="line:${REF}:+15"]`).count()).toBe(0);

    // By keyboard alone: focus a line number, Shift+Down twice, Enter, type.
    await numberCell(page, 10).focus();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    expect(await focused(page)).toMatch(/^Line \+12: /);
    expect(await file(page).locator('tr.inv-line-selected .line-num2').allTextContents()).toEqual([
      expect.stringMatching(/10/),
      expect.stringMatching(/11/),
      expect.stringMatching(/12/),
    ]);
    await page.keyboard.press('Enter');
    await eventually(() => focused(page)).toBe(`Note on ${REF} lines +10–12`);
    await page.keyboard.type('Name these.');
    await screenshot('range-notes-written');

    const notes = await until(
      agent.notes,
      (n) =>
        !!n?.notes[`line:${REF}:+3-6`]?.text.endsWith('together.') &&
        !!n.notes[`line:${REF}:+15-17`]?.text.endsWith('up.') &&
        !!n.notes[`line:${REF}:+10-12`]?.text.endsWith('these.'),
      'three range notes in notes.json',
    );
    expect(notes!.notes[`line:${REF}:+3-6`]!.quote).toBe(quote(3, 6));
    expect(notes!.notes[`line:${REF}:+15-17`]!.quote).toBe(quote(15, 17));
    expect(notes!.notes[`line:${REF}:+10-12`]!.quote).toBe(quote(10, 12));
    expect(notes!.notes[`line:${REF}:+10-12`]!.title).toBe(`${REF} lines +10–12`);

    // Round 2: line 11 changes, a line comes in after line 13.
    agent.write(REF, ROUND_2);
    agent.rounds();
    // Changed lines: outdated, shown apart with its quote, its text still there.
    const outdated = file(page).locator(`.inv-outdated[data-outdated-key="line:${REF}:+10-12"]`);
    await eventually(() => text(outdated.locator('.inv-outdated-label'))).toMatch(
      /^Outdated: note on lines \+10–12, written on .*step10.*step12.*\. Those lines are no longer in this round’s diff\.$/s,
    );
    expect(await noteBox(page, `Note on ${REF} lines +10–12`).inputValue()).toBe('Name these.');
    // Same lines one lower: it follows them, and says so.
    await eventually(() => pinnedUnder(page, `line:${REF}:+15-17`)).toBe('18');
    expect(await text(file(page).locator('.inv-note-moved'))).toBe(
      'Written on lines +15–17; it followed its lines, which now read here at +16–18.',
    );
    // Untouched lines: it stays.
    expect(await pinnedUnder(page, `line:${REF}:+3-6`)).toBe('6');
    await file(page).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot('range-notes-round-2');
    // Nothing was dropped from notes.json.
    expect(Object.keys(agent.notes()!.notes).sort()).toEqual(
      [`line:${REF}:+10-12`, `line:${REF}:+15-17`, `line:${REF}:+3-6`].sort(),
    );
  });
});
