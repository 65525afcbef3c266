import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  cliPath,
  footprint,
  gitRepo,
  isolatedEnv,
  removeTemporaryFolders,
  runCli,
  temporaryFolder,
  type CliResult,
  type RunOptions,
} from '../helpers/cli';

beforeAll(assertBuilt);
afterAll(removeTemporaryFolders);

interface Failure {
  /** The `code` of `{ error: { code, message } }`. */
  code: string;
  /** The exit code: 2 for a usage error, 1 for the rest. */
  exit: number;
  /** The message names what is wrong... */
  wrong: RegExp;
  /** ...and what to do. */
  todo: RegExp;
}

/** One sentence: one line, a full stop at the end and none inside followed by more words. */
function expectOneSentence(message: string): void {
  expect(message).not.toContain('\n');
  expect(message).toMatch(/\.$/);
  expect(message.slice(0, -1)).not.toMatch(/[.!?]\s+\S/);
  expect(message).not.toMatch(/Unexpected error|please report/);
}

function expectPlainFailure(result: CliResult, failure: Failure): string {
  expect(result.stdout, 'stdout stays clean on an error').toBe('');
  expect(result.stderr).toMatch(/^involut: [^\n]+\n$/);
  const message = result.stderr.slice('involut: '.length, -1);
  expectOneSentence(message);
  expect(message).toMatch(failure.wrong);
  expect(message).toMatch(failure.todo);
  expect(result.code).toBe(failure.exit);
  return message;
}

function expectJsonFailure(result: CliResult, failure: Failure, plainMessage: string): void {
  expect(result.stderr, 'nothing on stderr with --json').toBe('');
  const printed: unknown = JSON.parse(result.stdout);
  expect(printed).toEqual({ error: { code: failure.code, message: plainMessage } });
  expect(Object.keys(printed as object)).toEqual(['error']);
  expect(Object.keys((printed as { error: object }).error).sort()).toEqual(['code', 'message']);
  expect(result.code).toBe(failure.exit);
}

/**
 * Runs the command twice, plain and with `--json`, and checks each time that it failed
 * with one sentence and left `.review/`, refs/involut and info/exclude exactly as they were.
 */
async function expectCleanFailure(args: string[], options: RunOptions, failure: Failure): Promise<void> {
  const before = await footprint(options.cwd);
  const plain = await runCli(args, options);
  const message = expectPlainFailure(plain, failure);
  expect(await footprint(options.cwd), 'a failed command writes nothing').toEqual(before);

  const json = await runCli([...args, '--json'], options);
  expectJsonFailure(json, failure, message);
  expect(await footprint(options.cwd), 'a failed command writes nothing').toEqual(before);
}

const usage = (wrong: RegExp): Failure => ({ code: 'usage', exit: 2, wrong, todo: /involut (\w+ )?--help/ });

describe('every error is one sentence on stderr, a non-zero exit, and nothing written', () => {
  it('outside a git repository', async () => {
    const dir = await temporaryFolder();
    await expectCleanFailure(
      ['rounds'],
      { cwd: dir },
      {
        code: 'not-a-repo',
        exit: 1,
        wrong: new RegExp(`${escape(dir)} is not inside a git working tree`),
        todo: /run Involut from your repository or pass --repo DIR/,
      },
    );
  });

  it('--repo naming a folder that does not exist (was an "Unexpected error" from simple-git)', async () => {
    const dir = await temporaryFolder();
    const missing = path.join(dir, 'no-such-folder');
    await expectCleanFailure(
      ['rounds', '--repo', missing],
      { cwd: dir },
      {
        code: 'not-a-repo',
        exit: 1,
        wrong: new RegExp(`${escape(missing)} is not a folder`),
        todo: /pass --repo/,
      },
    );
  });

  it('an unknown base ref, after a round: the previous round stays as it was', async () => {
    const { dir } = await gitRepo();
    const first = await runCli(['rounds', '--quiet'], { cwd: dir });
    expect(first.code).toBe(0);
    await expectCleanFailure(
      ['rounds', '--base', 'no-such-ref'],
      { cwd: dir },
      {
        code: 'unknown-base',
        exit: 1,
        wrong: /Unknown base ref 'no-such-ref'/,
        todo: /pass a branch, tag or commit id/,
      },
    );
  });

  it('a .review that is a file, not a folder', async () => {
    const { dir } = await gitRepo();
    await writeFile(path.join(dir, '.review'), 'not a folder\n');
    await expectCleanFailure(
      ['rounds'],
      { cwd: dir },
      {
        code: 'review-not-folder',
        exit: 1,
        wrong: /\.review exists but is not a folder/,
        todo: /move it away/,
      },
    );
  });

  it('an unknown command', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(['frobnicate'], { cwd: dir }, usage(/Unknown command 'frobnicate'/));
  });

  it('an unknown command that is a typo of one, naming the nearest', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(
      ['round'],
      { cwd: dir },
      usage(/^Unknown command 'round' \(did you mean `involut rounds`\?\); run `involut --help`/),
    );
  });

  it('an unknown option without a command (it would be serve)', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(
      ['--frobnicate'],
      { cwd: dir },
      usage(/Unknown option '--frobnicate'; run `involut serve --help`/),
    );
  });

  it('an unknown flag', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(['rounds', '--frobnicate'], { cwd: dir }, usage(/Unknown option '--frobnicate'/));
  });

  it('an unexpected argument', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(['rounds', 'extra'], { cwd: dir }, usage(/Unexpected argument 'extra'/));
  });

  it('--base without a value, last or followed by another flag', async () => {
    const { dir } = await gitRepo();
    for (const args of [
      ['rounds', '--base'],
      ['rounds', '--base', '--quiet'],
    ]) {
      const before = await footprint(dir);
      const result = await runCli(args, { cwd: dir });
      expectPlainFailure(result, usage(/Option '--base' needs a value/));
      expect(await footprint(dir)).toEqual(before);
    }
    // `--base --json`: node's parser calls `--json` an "ambiguous" value; the message must still say a value is missing.
    const json = await runCli(['rounds', '--base', '--json'], { cwd: dir });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(2);
    const { error } = JSON.parse(json.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('usage');
    expectOneSentence(error.message);
    expect(error.message).toBe("Option '--base' needs a value; run `involut rounds --help` to see its options.");
  });

  it('--base together with --since-last', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(
      ['rounds', '--base', 'HEAD', '--since-last'],
      { cwd: dir },
      {
        code: 'usage',
        exit: 2,
        wrong: /either --base REF or --since-last, not both/,
        todo: /Pass either/,
      },
    );
  });

  it('--since-last when no round was captured yet', async () => {
    const { dir } = await gitRepo();
    await expectCleanFailure(
      ['rounds', '--since-last'],
      { cwd: dir },
      {
        code: 'no-previous-round',
        exit: 1,
        wrong: /no previous round/,
        todo: /run `involut rounds` once without --since-last/,
      },
    );
  });
});

/**
 * Root writes through any permission bit, so as root the CLI runs as `nobody` instead,
 * which needs the built CLI and node readable by that user (true in a shared checkout,
 * not in a checkout under a private home folder: then this is skipped).
 */
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const unprivileged: number | undefined = isRoot ? NOBODY : undefined;
const canDropPrivileges =
  !isRoot || spawnSync(process.execPath, [cliPath, '--version'], { uid: NOBODY, gid: NOBODY, cwd: '/' }).status === 0;

describe.runIf(process.platform !== 'win32' && canDropPrivileges)('a .review that cannot be written', () => {
  /** A repository the unprivileged user can read; git trusts it through that user's own HOME. */
  async function readableRepo() {
    const repo = await gitRepo();
    const home = await temporaryFolder('involut-home-');
    await writeFile(path.join(home, '.gitconfig'), '[safe]\n\tdirectory = *\n');
    for (const dir of [repo.dir, home]) await chmod(dir, 0o755);
    return { ...repo, env: isolatedEnv(home) };
  }

  it('an existing .review folder without write permission', async () => {
    const { dir, env } = await readableRepo();
    await mkdir(path.join(dir, '.review'));
    await writeFile(path.join(dir, '.review', 'notes.json'), '{"contract":1,"notes":{}}\n');
    await chmod(path.join(dir, '.review'), 0o555);
    await expectCleanFailure(
      ['rounds'],
      { cwd: dir, env, uid: unprivileged },
      {
        code: 'review-not-writable',
        exit: 1,
        wrong: new RegExp(`${escape(path.join(dir, '.review'))} is not writable`),
        todo: /fix its permissions/,
      },
    );
  });

  it('no .review yet, in a repository folder without write permission', async () => {
    const { dir, env } = await readableRepo();
    await chmod(dir, 0o555);
    await expectCleanFailure(
      ['rounds'],
      { cwd: dir, env, uid: unprivileged },
      {
        code: 'review-not-writable',
        exit: 1,
        wrong: new RegExp(`${escape(dir)} is not writable`),
        todo: /fix its permissions/,
      },
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
