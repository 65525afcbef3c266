/**
 * Names keep their bytes, in headless Chromium against the real built server: two files
 * whose names differ only in a byte that is not UTF-8 are two files in Raw mode, each
 * name showing its byte, each with its own diff and its own note.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2e, eventually, text, texts, until } from '../helpers/browser';

const { open } = e2e();

const fileOf = (page: Page, ref: string) => page.locator(`section.inv-file[data-ref=${JSON.stringify(ref)}]`);
const noteBox = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

describe('file names that are not UTF-8', () => {
  it('are two files with their own names, diffs and notes', async () => {
    const { page, repo, screenshot } = await open('review-basic', {
      prepare: (repo) => {
        for (const [byte, content] of [
          [0xe9, 'written in Latin-1, é\n'],
          [0xe8, 'written in Latin-1, è\n'],
        ] as const) {
          const name = Buffer.concat([Buffer.from(`${repo.dir}/caf`), Buffer.from([byte]), Buffer.from('.txt')]);
          writeFileSync(name, content);
        }
        repo.rounds();
      },
    });
    await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Raw', exact: true }).click();
    const tree = page.locator('nav[aria-label="Changed files"]');
    await eventually(() => texts(tree.locator('.inv-tree-name'))).toEqual(
      expect.arrayContaining(['caf⟨0xE9⟩.txt', 'caf⟨0xE8⟩.txt']),
    );
    for (const [ref, letter, typed] of [
      ['caf⟨0xE9⟩.txt', 'é', 'The acute one.'],
      ['caf⟨0xE8⟩.txt', 'è', 'The grave one.'],
    ] as const) {
      const file = fileOf(page, ref);
      await file.scrollIntoViewIfNeeded();
      expect(await text(file.locator('.inv-file-path'))).toBe(ref);
      expect(await text(file.locator('.inv-invisible-warning'))).toMatch(
        /^The file name holds bytes that are not UTF-8/,
      );
      expect(await text(file.locator('.d2h-code-line-ctn').first())).toContain(`written in Latin-1, ${letter}`);
      const box = noteBox(page, `Note on file ${ref}`);
      await box.click();
      await box.pressSequentially(typed);
      await until(repo.notes, (n) => n?.notes[`file:${ref}`]?.text === typed, `the note on ${ref}`);
    }
    await screenshot('non-utf8-names');
    expect(Object.keys(repo.notes()!.notes).sort()).toEqual(['file:caf⟨0xE8⟩.txt', 'file:caf⟨0xE9⟩.txt']);
  });
});
