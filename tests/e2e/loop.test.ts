/**
 * The loop, end to end: a scripted agent begins a round, changes files, captures the
 * round and explains it in cards; the reader answers through the viewer (a card note, a
 * file note, a line note); the agent changes the noted line, deletes the noted file,
 * writes a card that continues the first and addresses the notes, and captures again.
 * The open viewer then shows each note's thread, the changes since the last review, the
 * changed line's note as outdated, the note on a line that only moved under that line,
 * and the deleted file's note apart: none of them dropped.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventually, newSideLine, text, texts, until } from '../helpers/browser';
import { openViewer, removeLoopDirs, startAgent, type Viewer } from '../helpers/agent-loop';

const GREET_BASE = `export function greet(name: string): string {
  return 'Hello, ' + name;
}
`;
const GREET_ROUND_1 = `const greeting = 'Hello';

export function greet(name: string): string {
  return greeting + ', ' + name;
}
`;
const GREET_ROUND_2 = `const salutation = 'Hello';

export function greet(name: string): string {
  return salutation + ', ' + name;
}
`;

const FIRST = {
  id: 'c_1',
  title: 'Greetings use one shared word',
  intent: 'behavior',
  minutes: 2,
  refs: ['src/greet.ts', 'src/farewell.ts', 'src/names.ts'],
  why: 'So the word can be changed in one place.',
};
const SECOND = {
  id: 'c_2',
  title: 'The shared word is named for what it is; farewell dropped',
  intent: 'cleanup',
  minutes: 1,
  refs: ['src/greet.ts', 'src/farewell.ts'],
  why: 'Answers the notes on the first card.',
  continues: 'c_1',
};

let viewer: Viewer | null = null;
afterEach(async () => {
  const errors = viewer?.errors ?? [];
  await viewer?.close();
  viewer = null;
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
afterAll(removeLoopDirs);

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const noteBox = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const modeButton = (page: Page, name: 'Cards' | 'Raw') =>
  page.getByRole('group', { name: 'Mode' }).getByRole('button', { name, exact: true });
/** A note's thread as the reader sees it: its state, and the titles of the cards that address it. */
const threadOf = async (scope: ReturnType<Page['locator']>) => {
  const thread = scope.locator('.inv-note-thread');
  return { state: await text(thread.locator('.inv-thread-state')), by: await texts(thread.getByRole('button')) };
};
async function clickLineNumber(page: Page, ref: string, number: number): Promise<void> {
  await fileOf(page, ref)
    .locator('tbody.d2h-diff-tbody > tr')
    .filter({ has: page.locator('.line-num2', { hasText: new RegExp(`^\\s*${number}\\s*$`) }) })
    .locator('.d2h-code-linenumber')
    .click();
  await eventually(() =>
    noteBox(page, `Note on ${ref} line +${number}`).evaluate((el) => el === document.activeElement),
  ).toBe(true);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Waits until the wall clock has left the second the newest note was written in: the round
 * captured next is then dated (to the second) strictly after every note.
 */
async function pastNewestNote(notes: { notes: Record<string, { at: string }> } | null): Promise<void> {
  const newest = Math.max(...Object.values(notes?.notes ?? {}).map((note) => Date.parse(note.at)));
  while (Date.now() < Math.floor(newest / 1000) * 1000 + 1000) await sleep(20);
}

describe('the review loop across two rounds', () => {
  it('threads, since-last and outdated line notes, with notes typed in the page', async () => {
    // Round 1: the agent begins, works, captures, explains.
    const agent = startAgent({ 'src/greet.ts': GREET_BASE, 'README.md': '# greet\n' });
    agent.begin();
    agent.write('src/greet.ts', GREET_ROUND_1);
    agent.write('src/farewell.ts', "export const farewell = 'Bye';\n");
    agent.write('src/names.ts', "export const names = ['Ada'];\n");
    agent.rounds();
    agent.writeCards({ contract: 1, request: 'make the greeting word configurable', cards: [FIRST] });
    const ref = 'src/greet.ts';
    const noted = newSideLine(agent.material().material.find((e) => e.ref === ref)!.diff!, "const greeting = 'Hello';");
    const lineKey = `line:${ref}:+${noted.number}`;
    const namesKey = 'line:src/names.ts:+1';

    // The reader talks back through the page.
    viewer = await openViewer(agent);
    const { page, screenshot } = viewer;
    await noteBox(page, `Note on card ${FIRST.title}`).pressSequentially('Why a module constant and not a parameter?');
    await page
      .locator('[data-note-key="c_1"]')
      .getByRole('combobox', { name: 'Kind of note' })
      .selectOption('question');
    await modeButton(page, 'Raw').click();
    // The first round has nothing to compare with, and the switch says so.
    const which = page.getByRole('group', { name: 'Which changes' });
    await eventually(() => text(page.locator('.inv-round-unavailable'))).toBe(
      'This is the first round: there is no earlier one to compare with.',
    );
    expect(await which.getByRole('button', { name: 'Since the last round' }).isDisabled()).toBe(true);
    await clickLineNumber(page, ref, noted.number);
    await page.keyboard.type('Name it for what it is: a salutation.');
    await clickLineNumber(page, 'src/names.ts', 1);
    await page.keyboard.type('Say who these are.');
    await noteBox(page, 'Note on file src/farewell.ts').pressSequentially('Nobody asked for this; drop it.');
    const notes = await until(
      agent.notes,
      (n) =>
        n?.notes.c_1?.kind === 'question' &&
        !!n.notes[lineKey]?.text.endsWith('salutation.') &&
        !!n.notes[namesKey]?.text.endsWith('are.') &&
        !!n.notes['file:src/farewell.ts']?.text.endsWith('drop it.'),
      'the four notes in notes.json',
    );
    expect(notes!.notes[lineKey]!.quote).toBe(noted.text);
    await eventually(() => texts(page.locator('.inv-note-thread'))).toEqual(['open', 'open', 'open']); // the line and file notes in Raw

    // Round 2: the agent addresses every note, then captures (strictly after the notes were written).
    await pastNewestNote(notes);
    agent.write('src/greet.ts', GREET_ROUND_2);
    agent.remove('src/farewell.ts');
    agent.write('src/names.ts', "// The people we greet.\nexport const names = ['Ada'];\n");
    agent.writeCards({
      contract: 1,
      request: 'make the greeting word configurable',
      cards: [FIRST, { ...SECOND, addresses: ['c_1', lineKey, 'file:src/farewell.ts'] }],
    });
    agent.rounds();
    expect(agent.material().source.round).toBe(2);

    // The line note: its line changed, so it is outdated, shown at the top of its file, answered.
    const since = which.getByRole('button', { name: /^Since round 1/ });
    await eventually(() => text(since)).toBe('Since round 1 (3 files)');
    const outdated = fileOf(page, ref).locator(`.inv-outdated[data-outdated-key=${JSON.stringify(lineKey)}]`);
    await eventually(() => text(outdated.locator('.inv-outdated-label'))).toBe(
      `Outdated: line note on +${noted.number}, written on ${noted.text}. That line is no longer in this round’s diff.`,
    );
    // Answered, it is read rather than typed over.
    expect(await text(outdated.locator('.inv-note-read'))).toBe('Name it for what it is: a salutation.');
    await eventually(() => threadOf(outdated)).toEqual({ state: 'answered', by: [SECOND.title] });
    // The file the agent deleted is in neither round's whole diff now; its note stays on top of Raw.
    const elsewhere = page.getByRole('region', { name: 'Notes on files not in this round' });
    await eventually(() => text(elsewhere.locator('.inv-outdated-label'))).toBe(
      'Note on src/farewell.ts. This round does not change src/farewell.ts.',
    );
    expect(await text(elsewhere.locator('.inv-note-read'))).toBe('Nobody asked for this; drop it.');
    expect(await page.locator('section.inv-file').evaluateAll((s) => s.map((e) => e.getAttribute('data-ref')))).toEqual(
      ['src/greet.ts', 'src/names.ts'],
    );
    // A line note whose exact line is still in the diff, one line lower, follows it (and only then).
    const moved = await fileOf(page, 'src/names.ts')
      .locator('.inv-note-moved')
      .evaluate((el) => ({
        said: el.textContent,
        row: el.closest('tr')!.previousElementSibling!.querySelector('.line-num2')!.textContent!.trim(),
      }));
    expect(moved).toEqual({ said: 'Written on line +1; it followed its line, which now reads here at +2.', row: '2' });
    // Drawn again under its new line, the box the reader opened in round 1 does not take the focus again.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null)).not.toBe(
      'Note on src/names.ts line +1',
    );
    await fileOf(page, 'src/names.ts').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot('loop-raw-moved');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot('loop-raw-outdated');

    // Since my last review: only what the second round changed.
    await since.click();
    await eventually(() =>
      page.locator('section.inv-file').evaluateAll((s) => s.map((e) => e.getAttribute('data-ref'))),
    ).toEqual(['src/farewell.ts', 'src/greet.ts', 'src/names.ts']);
    const sinceDiff = await text(fileOf(page, ref).locator('.inv-diff'));
    expect(sinceDiff).toContain("const salutation = 'Hello';");
    expect(sinceDiff).not.toContain('Hello, '); // the base's line is not part of this diff
    await screenshot('loop-since-last');

    // The card side: the thread's link selects the answering card, which lists what it answers.
    await outdated.locator('.inv-note-thread').getByRole('button', { name: SECOND.title }).click();
    const answers = page.getByRole('region', { name: 'Notes this card answers' });
    await eventually(() => texts(answers.locator('li'))).toEqual([
      `${FIRST.title}questionWhy a module constant and not a parameter?`,
      `${ref} line +${noted.number}${noted.text}Name it for what it is: a salutation.`,
      'src/farewell.tsNobody asked for this; drop it.',
    ]);
    await screenshot('loop-card-addresses');

    // The first card: its note reads answered, addressed by the second card.
    await page.locator('.inv-thread').getByRole('button', { name: FIRST.title }).click();
    await eventually(() => threadOf(page.locator('[data-note-key="c_1"]'))).toEqual({
      state: 'answered',
      by: [SECOND.title],
    });
    await screenshot('loop-card-note-answered');

    // A follow-up opens it again, and keeps what was answered.
    await page.locator('[data-note-key="c_1"]').getByRole('button', { name: 'Follow up' }).click();
    await page.keyboard.type('Still unsure.');
    const followed = await until(
      agent.notes,
      (n) => n?.notes.c_1?.text === 'Still unsure.',
      'the follow-up in notes.json',
    );
    expect(JSON.stringify(followed)).toContain('Why a module constant and not a parameter?');
    await eventually(() => threadOf(page.locator('[data-note-key="c_1"]'))).toEqual({
      state: 'open',
      by: [SECOND.title],
    });
  });
});
