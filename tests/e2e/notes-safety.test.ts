/**
 * Notes are never lost and never overwritten silently, and nothing hides in invisible
 * characters (issue findings 3, 4, 5, 6), in headless Chromium against the real built
 * server over a real repository.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLI, e2e, eventually, fixtureCards, text, texts, until } from '../helpers/browser';

const { open } = e2e();

const basic = fixtureCards('review-basic');
const noteBox = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const statusOf = (page: Page, key: string) =>
  text(page.locator(`[data-note-key=${JSON.stringify(key)}] .inv-note-status`).first());
const withIds = (ids: Record<string, string>) => ({
  ...basic,
  cards: basic.cards.filter((c) => c.id !== 'c_broken').map((c) => ({ ...c, id: ids[String(c.id)] ?? c.id })),
});
const titleOf = (id: string) => String(basic.cards.find((c) => c.id === id)!.title);

describe('note keys', () => {
  it('keeps a note on a card whose id is __proto__ across a reload, and involut notes lists it; `constructor` is no phantom note', async () => {
    const cards = withIds({ c_signout: '__proto__', c_expire: 'constructor' });
    const { page, repo, reload } = await open('review-basic', { cards: { text: JSON.stringify(cards) } });
    const signout = noteBox(page, `Note on card ${titleOf('c_signout')}`);
    await page
      .locator(`nav[aria-label="Cards"]`)
      .getByRole('button', { name: titleOf('c_signout') })
      .click();
    await signout.click();
    await signout.pressSequentially('Keep this one.');
    await until(
      repo.notes,
      (n) => n !== null && Object.keys(n.notes).includes('__proto__'),
      'the __proto__ note in notes.json',
    );
    await eventually(() => statusOf(page, '__proto__')).toBe('saved');
    await reload();
    await page
      .locator(`nav[aria-label="Cards"]`)
      .getByRole('button', { name: titleOf('c_signout') })
      .click();
    expect(await noteBox(page, `Note on card ${titleOf('c_signout')}`).inputValue()).toBe('Keep this one.');

    await page
      .locator(`nav[aria-label="Cards"]`)
      .getByRole('button', { name: titleOf('c_expire') })
      .click();
    expect(await noteBox(page, `Note on card ${titleOf('c_expire')}`).inputValue()).toBe('');
    expect(await statusOf(page, 'constructor')).toBe('');

    const listed = execFileSync(process.execPath, [CLI, 'notes', '--repo', repo.dir], { encoding: 'utf8' });
    expect(listed).toContain('Keep this one.');
    const json = JSON.parse(
      execFileSync(process.execPath, [CLI, 'notes', '--json', '--repo', repo.dir], { encoding: 'utf8' }),
    );
    expect(Object.keys(json.notes)).toEqual(['__proto__']);
  });
});

describe('a note no longer on disk', () => {
  it('says so when an older notes.json is put back under an open tab, and writes it again on request', async () => {
    const { page, repo, screenshot } = await open('review-basic');
    const key = 'c_signout';
    const box = noteBox(page, `Note on card ${titleOf(key)}`);
    await box.click();
    await box.pressSequentially('first');
    await until(repo.notes, (n) => n?.notes[key]?.text === 'first', 'the first note');
    const older = readFileSync(repo.review('notes.json'), 'utf8');
    await box.pressSequentially(' and second');
    await until(repo.notes, (n) => n?.notes[key]?.text === 'first and second', 'the second note');
    await eventually(() => statusOf(page, key)).toBe('saved');

    // A backup, a sync tool or a `git checkout` puts the older file back, right after the save:
    // before the server's watcher has read its own write.
    writeFileSync(repo.review('.notes.older'), older);
    renameSync(repo.review('.notes.older'), repo.review('notes.json'));
    await eventually(() => statusOf(page, key)).toBe('no longer in notes.json');
    const choice = page.locator(`[data-note-key="${key}"] .inv-note-choice`);
    expect(await text(choice)).toContain('which now holds an older text of it');
    expect(await box.inputValue()).toBe('first and second');
    await screenshot('notes-gone');
    await choice.getByRole('button', { name: 'Write it again' }).click();
    await until(repo.notes, (n) => n?.notes[key]?.text === 'first and second', 'the note written again');
    await eventually(() => statusOf(page, key)).toBe('saved');
  });
});

describe('two tabs on one note', () => {
  it('never overwrites silently: the second writer sees the other text and chooses, and the other tab follows live', async () => {
    const { page: first, repo, context, url, screenshot } = await open('review-basic');
    const second = await context.newPage();
    await second.goto(url);
    await second.locator('.inv-layout').waitFor();
    const key = 'c_signout';
    const label = `Note on card ${titleOf(key)}`;

    // The first tab's write is held on its way, so the second tab's lands first.
    const held: Route[] = [];
    await first.route('**/api/notes/**', (route) => void held.push(route));
    await noteBox(first, label).click();
    await noteBox(first, label).pressSequentially('Text from the first tab.');
    await eventually(() => held.length).toBeGreaterThan(0);
    await noteBox(second, label).click();
    await noteBox(second, label).pressSequentially('Text from the second tab.');
    await until(repo.notes, (n) => n?.notes[key]?.text === 'Text from the second tab.', 'the second tab’s note');
    for (const route of held.splice(0)) await route.continue();
    await first.unroute('**/api/notes/**');

    await eventually(() => statusOf(first, key)).toBe('not saved: changed elsewhere');
    const choice = first.locator(`[data-note-key="${key}"] .inv-note-choice`);
    expect(await text(choice.locator('.inv-note-theirs'))).toBe('Text from the second tab.');
    expect(await noteBox(first, label).inputValue()).toBe('Text from the first tab.');
    expect(repo.notes()!.notes[key]!.text).toBe('Text from the second tab.');
    await screenshot('notes-conflict');

    await choice.getByRole('button', { name: 'Keep mine' }).click();
    await until(repo.notes, (n) => n?.notes[key]?.text === 'Text from the first tab.', 'the first tab’s note, chosen');
    await eventually(() => statusOf(first, key)).toBe('saved');
    await eventually(() => noteBox(second, label).inputValue()).toBe('Text from the first tab.');
    await second.close();
  });
});

describe('invisible characters', () => {
  it('draws the Trojan Source line, file name and card text with visible markers and a warning', async () => {
    const trojan = 'if (accessLevel != "user\u202E \u2066// Check if admin\u2069 \u2066") {\n';
    const cards = {
      contract: 1,
      cards: [
        {
          id: 'c_t',
          title: 'Access check',
          intent: 'risk',
          minutes: 1,
          refs: ['src/access.ts'],
          why: 'Admins only\u202E.nimda',
        },
      ],
    };
    const { page, screenshot } = await open('review-basic', {
      cards: { text: JSON.stringify(cards) },
      prepare: (repo) => {
        repo.write(
          'src/access.ts',
          `export function allowed(accessLevel: string) {\n  ${trojan}    return true;\n  }\n  return false;\n}\n`,
        );
        repo.write('src_\u202Egpj.exe', 'not a picture\n');
        repo.rounds();
      },
    });
    const card = page.locator('article[data-card-id="c_t"]');
    await eventually(() => texts(card.locator('.inv-invisible-warning'))).toContainEqual(
      expect.stringMatching(/^This card holds 1 direction-control or invisible character/),
    );
    expect(await text(card.locator('.inv-field').first())).toContain('Admins only⟨U+202E⟩.nimda');
    const file = page.locator('section.inv-file[data-ref="src/access.ts"]');
    await file.locator('.inv-invisible').first().waitFor();
    const line = await file.locator('.d2h-code-line-ctn', { hasText: 'Check if admin' }).first().textContent();
    expect(line).toContain('"user⟨U+202E⟩ ⟨U+2066⟩// Check if admin⟨U+2069⟩ ⟨U+2066⟩")');
    expect(line).not.toMatch(/[\u202E\u2066\u2069]/);
    expect(await text(file.locator('.inv-invisible-warning'))).toMatch(
      /^The diff holds 4 direction-control or invisible characters/,
    );
    await screenshot('invisible-diff');

    await page.getByRole('button', { name: /raw/i }).first().click();
    const tree = page.locator('nav[aria-label="Changed files"]');
    await eventually(() => texts(tree.locator('.inv-tree-name'))).toContainEqual('src_⟨U+202E⟩gpj.exe');
    const named = page.locator('section.inv-file[data-ref="src_\u202Egpj.exe"]');
    await named.scrollIntoViewIfNeeded();
    expect(await text(named.locator('.inv-file-path'))).toBe('src_⟨U+202E⟩gpj.exe');
    expect(await text(named.locator('.inv-invisible-warning'))).toMatch(/^The file name holds 1 direction-control/);
  });
});
