/**
 * A note's life, end to end: the reader writes a card note and file notes in Cards (a
 * file a card claims has its file note there too); the agent answers them with a card
 * and a new round; the reader resolves one, follows up on another and reopens the first.
 * notes.json keeps every text the reader wrote, `involut notes` lists only the open
 * notes and `--all` each with its state, and "Copy as prompt" copies only the open ones.
 */
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, eventually, text, until } from '../helpers/browser';
import { openViewer, removeLoopDirs, startAgent, type Agent, type Viewer } from '../helpers/agent-loop';

const FIRST = {
  id: 'c_1',
  title: 'Limits come from one place',
  intent: 'behavior',
  minutes: 2,
  refs: ['src/limit.ts', 'src/use.ts'],
};
const ANSWER = {
  id: 'c_2',
  title: 'The limit is documented and tested',
  intent: 'behavior',
  minutes: 1,
  refs: ['src/limit.ts'],
  addresses: ['c_1', 'file:src/limit.ts', 'file:src/use.ts'],
};
const CARD_NOTE = 'Why one place and not a setting?';
const USE_NOTE = 'Say where this is used.';
const LIMIT_NOTE = 'Add a test for the limit.';
const FOLLOW_UP = 'The test misses the edge at 30.';

let viewer: Viewer | null = null;
afterEach(async () => {
  const errors = viewer?.errors ?? [];
  await viewer?.close();
  viewer = null;
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
afterAll(removeLoopDirs);

const box = (page: Page, key: string) => page.locator(`.inv-card [data-note-key=${JSON.stringify(key)}]`);
const stateOf = (page: Page, key: string) => text(box(page, key).locator('.inv-thread-state'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Waits until the wall clock has left the second the newest note was written in: the round
 * captured next is then dated (to the second) strictly after every note.
 */
async function pastNewestNote(notes: { notes: Record<string, { at: string }> } | null): Promise<void> {
  const newest = Math.max(...Object.values(notes?.notes ?? {}).map((note) => Date.parse(note.at)));
  while (Date.now() < Math.floor(newest / 1000) * 1000 + 1000) await sleep(20);
}
const involutNotes = (agent: Agent, ...flags: string[]) =>
  execFileSync(process.execPath, [CLI, 'notes', ...flags, '--repo', agent.dir], { encoding: 'utf8' });

describe('a note’s life', () => {
  it('is resolved, followed up and reopened, and every text stays in notes.json', async () => {
    const agent = startAgent({ 'src/limit.ts': 'export const LIMIT = 10;\n', 'README.md': '# limits\n' });
    agent.begin();
    agent.write('src/limit.ts', 'export const LIMIT = 30;\n');
    agent.write('src/use.ts', "import { LIMIT } from './limit';\nexport const twice = LIMIT * 2;\n");
    agent.rounds();
    agent.writeCards({ contract: 1, request: 'one limit', cards: [FIRST] });
    viewer = await openViewer(agent);
    const { page, screenshot } = viewer;

    // In Cards: the card's note, and a file note on each file the card claims.
    await page.getByRole('textbox', { name: `Note on card ${FIRST.title}`, exact: true }).pressSequentially(CARD_NOTE);
    await page.getByRole('textbox', { name: 'Note on file src/use.ts', exact: true }).pressSequentially(USE_NOTE);
    await page.getByRole('textbox', { name: 'Note on file src/limit.ts', exact: true }).pressSequentially(LIMIT_NOTE);
    const written = await until(
      agent.notes,
      (n) =>
        n?.notes.c_1?.text === CARD_NOTE &&
        n.notes['file:src/use.ts']?.text === USE_NOTE &&
        n.notes['file:src/limit.ts']?.text === LIMIT_NOTE,
      'the card note and both file notes written in Cards',
    );

    // The agent answers all three, then captures a new round (after the notes were written).
    await pastNewestNote(written);
    agent.write('src/limit.ts', '/** The one limit. */\nexport const LIMIT = 30;\n');
    agent.writeCards({ contract: 1, request: 'one limit', cards: [FIRST, ANSWER] });
    agent.rounds();
    for (const key of ['c_1', 'file:src/use.ts', 'file:src/limit.ts'])
      await eventually(() => stateOf(page, key)).toBe('answered');
    // An answered note is read, not typed over.
    expect(await box(page, 'file:src/limit.ts').locator('textarea').count()).toBe(0);
    await screenshot('note-life-answered');

    // Resolve: kept in notes.json, with when.
    await box(page, 'file:src/use.ts').getByRole('button', { name: 'Resolve' }).click();
    const resolved = await until(
      agent.notes,
      (n) => !!n?.notes['file:src/use.ts']?.resolvedAt,
      'the resolved note in notes.json',
    );
    expect(resolved!.notes['file:src/use.ts']).toMatchObject({ text: USE_NOTE });
    await eventually(() => stateOf(page, 'file:src/use.ts')).toBe('resolved');

    // Follow up: the earlier text and its answer stay, as a thread above the new text.
    await box(page, 'file:src/limit.ts').getByRole('button', { name: 'Follow up' }).click();
    const followUp = page.getByRole('textbox', { name: 'Follow-up on file src/limit.ts', exact: true });
    await eventually(() => followUp.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(FOLLOW_UP);
    const followed = await until(
      agent.notes,
      (n) => n?.notes['file:src/limit.ts']?.text === FOLLOW_UP,
      'the follow-up in notes.json',
    );
    expect(followed!.notes['file:src/limit.ts']!.earlier).toEqual([
      {
        text: LIMIT_NOTE,
        at: expect.any(String),
        answeredBy: [{ id: ANSWER.id, title: ANSWER.title }],
      },
    ]);
    await eventually(() => stateOf(page, 'file:src/limit.ts')).toBe('open');
    expect(await text(box(page, 'file:src/limit.ts').locator('.inv-note-earlier'))).toBe(
      `${LIMIT_NOTE}answered by ${ANSWER.title}, then followed up`,
    );
    await box(page, 'file:src/limit.ts').scrollIntoViewIfNeeded();
    await screenshot('note-life-follow-up');

    // What the agent is handed: only the open note, in the CLI and in the copied prompt.
    const open = involutNotes(agent);
    expect(open.split('\n')[0]).toBe('# 1 open note');
    expect(open).toContain(FOLLOW_UP);
    expect(open).toContain(`Earlier, answered by \`c_2\`:\n\n> ${LIMIT_NOTE}`);
    for (const closed of [CARD_NOTE, USE_NOTE]) expect(open).not.toContain(closed);
    const all = involutNotes(agent, '--all');
    expect(all.split('\n')[0]).toBe('# 3 notes: 1 open, 1 answered, 1 resolved');
    expect(all).toContain(`## Change on card \`c_1\`: ${FIRST.title} (answered)`);
    expect(all).toContain('## File `src/use.ts`\n\n### Change on the file (resolved)');
    expect(all).toContain('## File `src/limit.ts`\n\n### Change on the file (open)');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy prompt: 1 note', exact: true }).click();
    await eventually(() => text(page.locator('.inv-copied'))).toBe('Copied: paste it to your agent.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(FOLLOW_UP);
    expect(copied).toContain(LIMIT_NOTE);
    for (const closed of [CARD_NOTE, USE_NOTE]) expect(copied).not.toContain(closed);

    // Reopen: open again, its text untouched.
    await box(page, 'file:src/use.ts').getByRole('button', { name: 'Reopen' }).click();
    const reopened = await until(
      agent.notes,
      (n) => n?.notes['file:src/use.ts']?.resolvedAt === undefined,
      'the reopened note in notes.json',
    );
    expect(reopened!.notes['file:src/use.ts']!.text).toBe(USE_NOTE);
    await eventually(() => stateOf(page, 'file:src/use.ts')).toBe('open');
    expect(involutNotes(agent).split('\n')[0]).toBe('# 2 open notes');
    // Every text the reader wrote is still in notes.json.
    const raw = JSON.stringify(reopened);
    for (const written of [CARD_NOTE, USE_NOTE, LIMIT_NOTE, FOLLOW_UP]) expect(raw).toContain(JSON.stringify(written));
  });
});
