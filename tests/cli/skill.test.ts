import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentsSection, BEGIN, END, withSection } from '../../server/cli/skill';
import { assertBuilt, gitRepo, projectRoot, removeTemporaryFolders, runCli, temporaryFolder } from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

const skillFile = path.join(projectRoot, 'skill', 'SKILL.md');
const count = (text: string, part: string) => text.split(part).length - 1;
const schemaFile = path.join(projectRoot, 'schemas', 'json', 'cards.schema.json');
/** skill/SKILL.md as `involut skill` prints it: its example `"$schema"` is the path of this Involut's schema. */
const shippedSkill = async () =>
  (await readFile(skillFile, 'utf8')).replaceAll(
    '/usr/local/lib/node_modules/involut/schemas/json/cards.schema.json',
    schemaFile,
  );

describe('involut skill', () => {
  it('prints skill/SKILL.md as the package ships it, from any folder, naming the schema this Involut ships', async () => {
    const result = await runCli(['skill'], { cwd: await temporaryFolder() });
    expect(result).toEqual({ code: 0, stdout: await shippedSkill(), stderr: '' });
    expect(result.stdout).toContain(`"$schema": "${schemaFile}"`);
    expect(existsSync(schemaFile)).toBe(true);
  });

  it('names only commands and flags that exist', async () => {
    const skill = await readFile(skillFile, 'utf8');
    const help = (await runCli(['--help'], { cwd: await temporaryFolder() })).stdout;
    const commands = [...skill.matchAll(/involut (\w+)((?: --[\w-]+)*)/g)];
    expect(commands.length).toBeGreaterThan(4);
    for (const [, name, flags] of commands) {
      // Every command parses its flags strictly: an unknown one exits 2 before --help is read.
      const result = await runCli([name!, ...flags!.trim().split(' ').filter(Boolean), '--help'], {
        cwd: await temporaryFolder(),
      });
      expect(result.code, `involut ${name}${flags}`).toBe(0);
      expect(help).toContain(`involut ${name}`);
    }
    for (const [flag] of skill.matchAll(/--[a-z][\w-]*/g)) expect(help, flag).toContain(flag);
  });

  it('teaches every part of the loop', async () => {
    const skill = await readFile(skillFile, 'utf8');
    for (const field of [
      'contract',
      'request',
      'id',
      'title',
      'intent',
      'minutes',
      'refs',
      'why',
      'skipped',
      'unsure',
      'unrequested',
      'might_break',
      'question',
      'render',
      'payload',
      'continues',
      'marks',
      'addresses',
    ]) {
      expect(skill, field).toContain(`\`${field}\``);
    }
    for (const kind of ['`code`', '`tree`', '`graph`', '`schema`', '`table`', '`image`']) expect(skill).toContain(kind);
    for (const phrase of [
      '`involut rounds --begin`',
      '`involut rounds`',
      '`involut check`',
      '`involut notes`',
      '"$schema"',
      '"when": "before"',
      '`null` means',
      '`file:<ref>`',
      '`line:<ref>:+<n>`',
      '`"question"`',
      '**Never write `notes.json`**',
      '**Never edit or delete a card',
    ]) {
      expect(skill).toContain(phrase);
    }
  });
});

describe('involut skill --install', () => {
  it('writes the Claude Code skill and a section of AGENTS.md; a second run leaves one copy and the user’s text intact', async () => {
    const { dir } = await gitRepo();
    const mine = '# Our agents\n\nAlways run the linter.\n';
    await writeFile(path.join(dir, 'AGENTS.md'), mine);

    const first = await runCli(['skill', '--install'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(
      'Created .claude/skills/involut/SKILL.md (Claude Code).\n' +
        'Wrote the involut section into AGENTS.md (Codex and other agents that read AGENTS.md); text outside its markers is untouched.\n',
    );
    const skill = await shippedSkill();
    expect(await readFile(path.join(dir, '.claude', 'skills', 'involut', 'SKILL.md'), 'utf8')).toBe(skill);
    const agents = await readFile(path.join(dir, 'AGENTS.md'), 'utf8');
    expect(agents.startsWith(`${mine}\n${BEGIN}\n`)).toBe(true);
    expect(agents.endsWith(`${END}\n`)).toBe(true);
    expect(agents).toContain('## Working with Involut');
    expect(agents).not.toContain('name: involut');

    // The user adds text under the section; a second run changes nothing.
    const withMore = `${agents}\n## Later\n\nMine too.\n`;
    await writeFile(path.join(dir, 'AGENTS.md'), withMore);
    const second = await runCli(['skill', '--install'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(
      '.claude/skills/involut/SKILL.md already has the current skill (Claude Code).\n' +
        'AGENTS.md already has the current skill (Codex and other agents that read AGENTS.md).\n',
    );
    expect(await readFile(path.join(dir, 'AGENTS.md'), 'utf8')).toBe(withMore);
    expect(count(withMore, BEGIN)).toBe(1);
    expect(count(withMore, END)).toBe(1);
    expect(count(withMore, '## Working with Involut')).toBe(1);
  });

  it('replaces an outdated section in place and keeps the text on both sides', async () => {
    const { dir } = await gitRepo();
    const file = path.join(dir, 'AGENTS.md');
    await writeFile(file, `Before.\n\n${BEGIN}\nold skill\n${END}\n\nAfter.\n`);
    const result = await runCli(['skill', '--install', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      root: dir,
      installed: [
        { path: '.claude/skills/involut/SKILL.md', for: 'Claude Code', action: 'created' },
        { path: 'AGENTS.md', for: 'Codex and other agents that read AGENTS.md', action: 'updated' },
      ],
    });
    const agents = await readFile(file, 'utf8');
    expect(agents).toBe(`Before.\n\n${agentsSection(await shippedSkill())}\n\nAfter.\n`);
    expect(agents).not.toContain('old skill');
  });

  it('creates AGENTS.md when there is none, at the repository root from a subfolder', async () => {
    const { dir } = await gitRepo();
    await mkdir(path.join(dir, 'deep', 'down'), { recursive: true });
    const result = await runCli(['skill', '--install'], { cwd: path.join(dir, 'deep', 'down') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created AGENTS.md with the involut section');
    const agents = await readFile(path.join(dir, 'AGENTS.md'), 'utf8');
    expect(agents).toBe(`${agentsSection(await shippedSkill())}\n`);
    expect(await lstat(path.join(dir, '.claude', 'skills', 'involut', 'SKILL.md'))).toBeTruthy();
  });

  it('writes through an AGENTS.md that is a symlink, and keeps the link', async () => {
    const { dir } = await gitRepo();
    await writeFile(path.join(dir, 'CLAUDE.md'), 'Shared instructions.\n');
    await symlink('CLAUDE.md', path.join(dir, 'AGENTS.md'));
    expect((await runCli(['skill', '--install'], { cwd: dir })).code).toBe(0);
    expect(await readlink(path.join(dir, 'AGENTS.md'))).toBe('CLAUDE.md');
    const shared = await readFile(path.join(dir, 'CLAUDE.md'), 'utf8');
    expect(shared.startsWith(`Shared instructions.\n\n${BEGIN}\n`)).toBe(true);
  });

  it('refuses an AGENTS.md with an unpaired marker and leaves it byte for byte', async () => {
    const { dir } = await gitRepo();
    const file = path.join(dir, 'AGENTS.md');
    const text = `Mine.\n${BEGIN}\nwho knows where this ends\n`;
    await writeFile(file, text);
    const result = await runCli(['skill', '--install', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        code: 'bad-agents-md',
        message: `AGENTS.md has an unpaired ${BEGIN} marker; pair or remove it by hand, then run \`involut skill --install\` again.`,
      },
    });
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('--hooks merges a Stop hook into .claude/settings.json once, keeping every setting; without it writes none', async () => {
    const { dir } = await gitRepo();
    const settings = path.join(dir, '.claude', 'settings.json');
    expect((await runCli(['skill', '--install'], { cwd: dir })).code).toBe(0);
    expect(existsSync(settings)).toBe(false);
    const mine = { model: 'sonnet', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } };
    await writeFile(settings, JSON.stringify(mine));
    const first = await runCli(['skill', '--install', '--hooks'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Added the Involut Stop hook to .claude/settings.json');
    const second = await runCli(['skill', '--install', '--hooks'], { cwd: dir });
    expect(second.stdout).toContain('.claude/settings.json already has the Involut Stop hook.');
    const written = JSON.parse(await readFile(settings, 'utf8'));
    expect(written.model).toBe('sonnet');
    expect(written.hooks.Stop).toHaveLength(2);
    expect(written.hooks.Stop[0]).toEqual(mine.hooks.Stop[0]);
    expect(written.hooks.Stop[1].hooks[0]).toMatchObject({
      type: 'command',
      command: expect.stringMatching(/ rounds && .* check$/),
    });
    await writeFile(settings, '{broken');
    const refused = await runCli(['skill', '--install', '--hooks'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('.claude/settings.json was left as it was because it is not valid JSON');
    expect(await readFile(settings, 'utf8')).toBe('{broken');
  });

  it('refuses a folder that is not in a git repository', async () => {
    const result = await runCli(['skill', '--install'], { cwd: await temporaryFolder() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^involut: .* is not inside a git working tree; run Involut from your repository or pass --repo DIR\.\n$/,
    );
  });
});

describe('the AGENTS.md section', () => {
  const section = `${BEGIN}\nnew\n${END}`;

  it('is appended after a blank line, whatever the file ends with', () => {
    expect(withSection('Mine.\n', section)).toBe(`Mine.\n\n${section}\n`);
    expect(withSection('Mine.', section)).toBe(`Mine.\n\n${section}\n`);
    expect(withSection(null, section)).toBe(`${section}\n`);
    expect(withSection('', section)).toBe(`${section}\n`);
  });

  it('keeps CRLF line endings', () => {
    expect(withSection('Mine.\r\n', section)).toBe(`Mine.\r\n\r\n${BEGIN}\r\nnew\r\n${END}\r\n`);
  });

  it('leaves one copy when the file has several', () => {
    const text = `A\n${BEGIN}\none\n${END}\nB\n${BEGIN}\ntwo\n${END}\nC\n`;
    expect(withSection(text, section)).toBe(`A\n${section}\nB\nC\n`);
  });

  it('refuses an end marker before any begin marker', () => {
    expect(() => withSection(`${END}\n${BEGIN}\n`, section)).toThrow(`AGENTS.md has an unpaired ${END} marker`);
  });
});
