/**
 * The loop closing by itself: the reader writes a note, the agent waits in
 * `involut notes --wait` (the real built CLI, a child process), the header says so,
 * "Hand over" is pressed, the waiter wakes with the note, notes.json keeps the note and
 * gains the hand-over record, and the next `involut rounds` is announced on the open page.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, e2e, eventually, fixtureCards, text, until } from '../helpers/browser';

const { open } = e2e();
const basic = fixtureCards('review-basic');
const title = String(basic.cards.find((c) => c.id === 'c_signout')!.title);

describe('hand over', () => {
  it('wakes an agent waiting in notes --wait with the notes, and announces the next round', async () => {
    const { page, repo, screenshot } = await open('review-basic');
    const box = page.getByRole('textbox', { name: `Note on card ${title}`, exact: true });
    const typed = 'Keep the mobile app signed in.';
    await box.click();
    await box.pressSequentially(typed);
    await until(repo.notes, (n) => n?.notes.c_signout?.text === typed, 'the card note in notes.json');

    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
    const waiter = spawn(process.execPath, [CLI, 'notes', '--wait', '--timeout', '120', '--repo', repo.dir], { env });
    let out = '';
    waiter.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => waiter.on('exit', (code) => resolve(code)));
    try {
      const state = page.locator('.inv-handover-state');
      await eventually(() => text(state)).toBe('The agent is waiting for your hand-over');
      await screenshot('handover-waiting');

      const button = page.getByRole('button', { name: 'Hand over 1 note', exact: true });
      await button.click();
      expect(await exited).toBe(0);
      expect(out).toContain(typed);

      const notes = repo.notes() as { notes: Record<string, { text: string }>; handedOver?: unknown[] } | null;
      expect(notes!.notes.c_signout!.text).toBe(typed);
      expect(notes!.handedOver).toHaveLength(1);
      expect(notes!.handedOver![0]).toMatchObject({ open: 1 });

      repo.write('src/extra.ts', 'export const extra = 1;\n');
      repo.rounds();
      await eventually(() => text(page.locator('.inv-round-arrived')), 20_000).toMatch(/^Round 2 arrived/);
      await screenshot('handover-round-arrived');
    } finally {
      waiter.kill();
    }
  });
});
