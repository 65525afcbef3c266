/**
 * `involut demo` closes the loop with nothing but the repository: its scripted agent waits
 * for a hand-over as `involut notes --wait` does (the header says so), and when the reader
 * hands over a change request and a question, it answers each with a new card in round 2.
 * The open page announces the round and shows each note answered by its card.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cards } from '../../schemas/cards';
import { CLI, FIXTURES, SCREENSHOTS, eventually, text } from '../helpers/browser';
import { launchBrowser } from '../helpers/find-browser';
import { childEnv, removeTempDirs, startCli, tempDir, type LiveServer } from '../helpers/server';

const CARDS = Cards.parse(JSON.parse(readFileSync(path.join(FIXTURES, 'demo-repo', 'cards.json'), 'utf8')));
const title = (id: string) => CARDS.cards.find((c) => c.id === id)!.title;

let demo: LiveServer | undefined;
let browser: Browser;
let tmpdir = '';
const errors: string[] = [];

beforeAll(async () => {
  // The demo's repository goes into TMPDIR, a folder of this test's, where the test reads it.
  tmpdir = tempDir('involut-demo-agent-tmp-');
  demo = await startCli(['demo', '--no-open', '--port', '0'], childEnv({ GIT_CONFIG_NOSYSTEM: '1', TMPDIR: tmpdir }));
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  removeTempDirs();
});

const article = (page: Page, id: string) => page.locator(`article[data-card-id="${id}"]`);

async function noteOn(page: Page, id: string, words: string, kind: 'change' | 'question'): Promise<void> {
  await page
    .locator('nav[aria-label="Cards"]')
    .getByRole('button', { name: title(id) })
    .click();
  const box = article(page, id).getByRole('textbox', { name: `Note on card ${title(id)}`, exact: true });
  await box.click();
  await box.pressSequentially(words);
  const note = page.locator(`.inv-note[data-note-key="${id}"]`);
  await eventually(() => text(note.locator('.inv-note-status'))).toBe('saved');
  // Saved before the hand-over, which sends every draft first.
  if (kind === 'question') await note.getByRole('combobox', { name: /^Kind of note/ }).selectOption('question');
}

describe('involut demo: the scripted agent', () => {
  it('answers each handed-over note with a card in round 2, announced on the open page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
    await page.goto(demo!.url);
    await page.locator('.inv-layout').waitFor({ state: 'visible' });

    const state = page.locator('.inv-handover-state');
    await eventually(() => text(state)).toBe('The agent is waiting for your hand-over');

    const change = 'Let the mobile app keep 45 minutes until its refresh is fixed.';
    const question = 'Why is the sweep a job and not a check on each request?';
    await noteOn(page, 'c_limits', change, 'change');
    await noteOn(page, 'c_idle', question, 'question');

    await page.getByRole('button', { name: 'Hand over 2 notes', exact: true }).click();
    await eventually(() => text(page.locator('.inv-round-arrived strong')), 30_000).toBe(
      'Round 2 arrived: 2 new cards, 2 notes answered',
    );
    await eventually(() => text(state)).toBe('The agent is waiting for your hand-over');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'demo-agent-round-2.png') });

    // Each note reads answered, with the card that answers it linked under it.
    const idleThread = article(page, 'c_idle').locator('.inv-note-thread');
    await eventually(() => idleThread.getAttribute('data-thread-state')).toBe('answered');
    await idleThread.getByRole('button').click();
    const answer = page.locator('article[data-card-id^="c_r2_"]');
    await answer.waitFor();
    expect(await text(answer.locator('.inv-addresses'))).toContain(question);
    expect(await text(answer)).toContain(`You asked: “${question}”`);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'demo-agent-answer.png') });

    // On disk: the round, the agent's new cards appended (earlier ones untouched), and the TODO where the note was.
    const [folder] = readdirSync(tmpdir).filter((name) => name.startsWith('involut-demo-'));
    const repo = path.join(tmpdir, folder!, 'dungeon-dash');
    const cards = Cards.parse(JSON.parse(readFileSync(path.join(repo, '.review/cards.json'), 'utf8')));
    expect(cards.cards.slice(0, CARDS.cards.length)).toEqual(CARDS.cards);
    const answers = cards.cards.slice(CARDS.cards.length);
    expect(answers.map((c) => c.addresses)).toEqual([['c_limits'], ['c_idle']]);
    expect(answers.map((c) => c.continues)).toEqual(['c_limits', 'c_idle']);
    const material = JSON.parse(readFileSync(path.join(repo, '.review/material.json'), 'utf8')) as {
      source: { round: number };
      material: Array<{ ref: string; diff: string | null }>;
    };
    expect(material.source.round).toBe(2);
    const todo = material.material.find((entry) => entry.ref === 'docs/review-todo.md');
    expect(todo?.diff).toContain(change);
    const session = material.material.find((entry) => entry.ref === 'src/auth/session.ts');
    expect(session?.diff).toContain(`+// Asked in review: ${question}`);
    // The agent's answer passes the check the skill asks an agent to run before it hands back.
    const checked = spawnSync(process.execPath, [CLI, 'check', '--json', '--repo', repo], { encoding: 'utf8' });
    const report = JSON.parse(checked.stdout) as { errors: number; findings: unknown[] };
    expect(report.errors, JSON.stringify(report.findings)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
