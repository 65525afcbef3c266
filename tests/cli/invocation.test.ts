import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  cliPath,
  gitRepo,
  isolatedEnv,
  removeTemporaryFolders,
  runCli,
  temporaryFolder,
} from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

/** An environment where `involut` is on no folder of PATH: Involut is run by its path, before any install. */
async function notInstalled(): Promise<NodeJS.ProcessEnv> {
  const env = isolatedEnv(await temporaryFolder('involut-home-'));
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes('involut-bin-'));
  return { ...env, PATH: dirs.join(path.delimiter) };
}

describe('the command line', () => {
  it('takes the options for every command before or after the command', async () => {
    const { dir } = await gitRepo();
    const elsewhere = await temporaryFolder();
    const after = await runCli(['check', '--repo', dir, '--json'], { cwd: elsewhere });
    const before = await runCli(['--repo', dir, '--json', 'check'], { cwd: elsewhere });
    const mixed = await runCli(['--json', 'check', '--repo', dir], { cwd: elsewhere });
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ errors: 0 });
    expect(before).toEqual(after);
    expect(mixed).toEqual(after);
  });

  it('prints commands that run here: `involut` when it is on PATH, else node and the path of this CLI', async () => {
    const { dir } = await gitRepo();
    const installed = await runCli(['rounds', '--begin'], { cwd: dir });
    expect(installed.stdout).toContain('Run `involut rounds` when the work is done.');

    const env = await notInstalled();
    const bare = await runCli(['rounds', '--begin'], { cwd: dir, env });
    expect(bare.code).toBe(0);
    const printed = /Run `([^`]+)` when the work is done\./.exec(bare.stdout)?.[1] ?? '';
    expect(printed).toMatch(new RegExp(`^\\S*node ${cliPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} rounds$`));
    // The printed command, run as written by a shell, captures the round.
    await writeFile(path.join(dir, 'new.txt'), 'new\n');
    const out = execFileSync('sh', ['-c', `${printed} --json`], { cwd: dir, env, encoding: 'utf8' });
    expect(JSON.parse(out)).toMatchObject({ round: 1, files: 1 });

    // Errors and the skill say the same.
    const typo = await runCli(['chek'], { cwd: dir, env });
    expect(typo.stderr).toContain(`(did you mean \`${printed.replace(/ rounds$/, '')} check\`?)`);
    const skill = await runCli(['skill'], { cwd: dir, env });
    expect(skill.stdout).toContain(`\`${printed} --begin\``);
    expect(skill.stdout).not.toContain('npx involut');
  });

  it("never rewrites the user's own text: a note quoting a command is printed as it is on disk", async () => {
    const { dir } = await gitRepo();
    const notes = `${JSON.stringify({ contract: 1, notes: { c_1: { title: 't', refs: [], text: 'Why `npx involut rounds`?', at: '2026-01-01T00:00:00Z' } } }, null, 2)}\n`;
    await mkdir(path.join(dir, '.review'));
    await writeFile(path.join(dir, '.review', 'notes.json'), notes);
    const result = await runCli(['notes', '--json'], { cwd: dir, env: await notInstalled() });
    expect(result.stdout).toBe(notes);
  });

  it('has git ignore .review/ from the first command that creates it, --begin included', async () => {
    const { dir, git } = await gitRepo();
    expect((await runCli(['rounds', '--begin'], { cwd: dir })).code).toBe(0);
    expect(await readFile(path.join(dir, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^\/\.review\/$/m);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
