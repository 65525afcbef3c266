/**
 * `involut notes` with a server running for the repository: each note says the viewer link
 * that opens on it (its card, file or line), in the real viewer's URL form and without the
 * session token. Without a server, no link is printed.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, CLI, makeRepo, removeTempDirs, runRounds, startLive } from '../helpers/server';

afterAll(removeTempDirs);

const note = (title: string, refs: string[], text: string) => ({ title, refs, text, at: '2000-01-01T00:00:00Z' });

describe('involut notes links', () => {
  it('prints each note’s viewer link while a server runs, and none once it stopped', async () => {
    const repo = makeRepo({ 'src/a.ts': 'one\n' });
    repo.write('src/a.ts', 'one\ntwo\n');
    const env = childEnv();
    runRounds(repo, env);
    writeFileSync(
      repo.review('cards.json'),
      JSON.stringify({ contract: 1, cards: [{ id: 'c_1', title: 'Two', intent: 'behavior', refs: ['src/a.ts'] }] }),
    );
    writeFileSync(
      repo.review('notes.json'),
      JSON.stringify({
        contract: 1,
        notes: {
          c_1: note('Two', ['src/a.ts'], 'Why?'),
          'line:src/a.ts:+2': note('src/a.ts line +2', ['src/a.ts'], 'Name it.'),
          // Its quoted line is line +2 now: the link goes there, not to whatever line +7 is.
          'line:src/a.ts:+7': { ...note('src/a.ts line +7', ['src/a.ts'], 'Moved?'), quote: '+two' },
          // Its quoted line left the diff: the link opens the file, and the note says it is outdated.
          'line:src/a.ts:+1': { ...note('src/a.ts line +1', ['src/a.ts'], 'Gone?'), quote: '+three' },
        },
      }),
    );
    const notes = () => execFileSync(process.execPath, [CLI, 'notes', '--repo', repo.dir], { env, encoding: 'utf8' });
    expect(notes()).not.toContain('- open:');

    const server = await startLive(repo.dir, env);
    try {
      const out = notes();
      const links = [...out.matchAll(/^- open: (\S+)$/gm)].map((m) => new URL(m[1]!));
      expect(links).toHaveLength(4);
      for (const link of links) {
        expect(link.origin).toBe(server.base);
        // The output is pasted to an agent: it carries no session token.
        expect(new URLSearchParams(link.hash.slice(1)).has('token')).toBe(false);
      }
      expect(out).not.toContain(server.token);
      const places = links.map((link) => Object.fromEntries(new URLSearchParams(link.hash.slice(1))));
      expect(places).toEqual([
        { mode: 'cards', card: 'c_1' },
        { mode: 'raw', file: 'src/a.ts' },
        { mode: 'raw', file: 'src/a.ts', line: '+2' },
        { mode: 'raw', file: 'src/a.ts', line: '+2' },
      ]);
      expect(out).toContain('- outdated: the quoted line is no longer in the diff');
      expect(out).toContain('- moved: the quoted line is now line +2');
    } finally {
      await server.stop();
    }
    expect(notes()).not.toContain('- open:');
  });
});
