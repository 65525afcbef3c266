import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLI,
  cleanup,
  emit,
  lines,
  makeRepo,
  readMaterial,
  refs,
  runCli,
  tempDir,
  type TempRepo,
} from '../helpers/git-repo';

afterAll(cleanup);

/** A repository whose round stores enough new blobs to take a while: `files` changed files. */
function busyRepo(files: number): TempRepo {
  const repo = makeRepo();
  repo.git(['config', 'gc.auto', '0']);
  repo.write('README.md', '# r\n');
  repo.commit('initial');
  for (let i = 0; i < files; i++) repo.write(`src/d${i % 20}/f${i}.txt`, `${lines(40, `file ${i}`)}\n`);
  return repo;
}

/** Whether every object the tree reaches is in the repository. */
function treeIsWhole(repo: TempRepo, tree: string): boolean {
  const listed = spawnSync('git', ['rev-list', '--objects', '--missing=print', tree], {
    cwd: repo.dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return listed.status === 0 && !listed.stdout.split('\n').some((line) => line.startsWith('?'));
}

describe('a round either pins a complete tree or fails', () => {
  it('with git gc --prune=now running over and over meanwhile: never an exit 0 with a broken tree', async () => {
    const repo = busyRepo(600);
    let stop = false;
    let gcs = 0;
    const gcLoop = (async () => {
      while (!stop) {
        await new Promise<void>((resolve) =>
          spawn('git', ['gc', '--prune=now', '--quiet'], { cwd: repo.dir, stdio: 'ignore' }).once('close', () =>
            resolve(),
          ),
        );
        gcs++;
        // A pause of varying length, so that gc starts at every moment of a round.
        await new Promise((resolve) => setTimeout(resolve, (gcs * 137) % 400));
      }
    })();
    const outcomes: Array<'whole' | 'refused'> = [];
    const messages: string[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        // Every file new again: the round stores 600 blobs that nothing names until its ref is pinned.
        for (let f = 0; f < 600; f++) repo.write(`src/d${f % 20}/f${f}.txt`, `round ${i}\n${lines(40, `file ${f}`)}\n`);
        const run = await runCli(['rounds', '--quiet', '--json'], repo.dir);
        if (run.code === 0) {
          const { tree } = JSON.parse(run.stdout) as { tree: string };
          expect(treeIsWhole(repo, tree), `round ${i}: tree ${tree}`).toBe(true);
          outcomes.push('whole');
        } else {
          expect(run.stdout, `round ${i}: exit ${run.code}, stderr ${run.stderr}`).not.toBe('');
          messages.push(JSON.parse(run.stdout).error.message as string);
          outcomes.push('refused');
        }
      }
    } finally {
      stop = true;
      await gcLoop;
    }
    expect(gcs).toBeGreaterThan(0);
    // How many rounds gc lets through depends on the machine's load; once it has stopped, a round is whole again.
    const after = await runCli(['rounds', '--quiet', '--json'], repo.dir);
    expect(after.code, after.stderr).toBe(0);
    expect(treeIsWhole(repo, (JSON.parse(after.stdout) as { tree: string }).tree)).toBe(true);
    console.log(
      `rounds with git gc running: ${outcomes.filter((o) => o === 'whole').length} whole, ${messages.length} refused`,
    );
    for (const message of messages)
      expect(message).toMatch(/^(git [a-z-]+ failed: .+|Objects of this round were removed from git .+)$/);
    // Whatever gc did, every ref the rounds left names a whole tree, and git can gc the repository afterwards.
    for (const ref of repo
      .git(['for-each-ref', '--format=%(objectname)', 'refs/involut/'])
      .split('\n')
      .filter(Boolean)) {
      expect(treeIsWhole(repo, ref)).toBe(true);
    }
    expect(spawnSync('git', ['gc', '--quiet'], { cwd: repo.dir }).status).toBe(0);
    expect(spawnSync('git', ['fsck', '--no-dangling'], { cwd: repo.dir }).status).toBe(0);
  }, 240_000);

  it('a failed round pins nothing and leaves no round folder, and material.json stays the last good round', async () => {
    const repo = busyRepo(5);
    await emit(repo.dir);
    repo.write('src/d0/f0.txt', 'changed\n');
    // An index git cannot read: the copy the capture seeds from it fails `git add`.
    const real = repo.read('.git/index');
    writeFileSync(repo.path('.git/index'), Buffer.concat([real.subarray(0, 12), Buffer.alloc(64, 0xff)]));
    const run = await runCli(['rounds'], repo.dir);
    writeFileSync(repo.path('.git/index'), real);
    expect(run.code).toBe(1);
    expect(repo.git(['for-each-ref', '--format=%(refname)', 'refs/involut/rounds/']).trim()).toBe(
      'refs/involut/rounds/1',
    );
    expect(readdirSync(repo.path('.review/rounds'))).toEqual(['1']);
    expect(readMaterial(repo.dir).source.round).toBe(1);
  });
});

describe('errors from git', () => {
  it('carry git’s whole message, every line of it', async () => {
    const repo = busyRepo(3);
    // A ref lock left behind: git explains over several lines why it cannot pin the round.
    mkdirSync(repo.path('.git/refs/involut/rounds'), { recursive: true });
    writeFileSync(repo.path('.git/refs/involut/rounds/1.lock'), '');
    const direct = spawnSync('git', ['update-ref', 'refs/involut/rounds/1', repo.rev('HEAD^{tree}'), ''], {
      cwd: repo.dir,
      encoding: 'utf8',
    });
    const gitLines = direct.stderr
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(gitLines.length).toBeGreaterThan(1);
    const run = await runCli(['rounds'], repo.dir);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    for (const line of gitLines) expect(run.stderr).toContain(line);
    expect(existsSync(repo.path('.review/rounds/1'))).toBe(false);
  });

  it('a git older than 2.31 is refused with the version needed', async () => {
    const repo = busyRepo(1);
    const bin = tempDir('involut-old-git-');
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" version "*) echo "git version 2.20.1"; exit 0;; esac\nexec ${real} "$@"\n`,
    );
    chmodSync(path.join(bin, 'git'), 0o755);
    const run = spawnSync(process.execPath, [CLI, 'rounds'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('involut: Involut needs git 2.31 or later, and this is git version 2.20.1; update git.\n');
    expect(existsSync(repo.path('.review'))).toBe(false);
  });
});

describe("the user's own git", () => {
  it('no git a round starts takes an optional lock (GIT_OPTIONAL_LOCKS=0), so an editor never meets index.lock', () => {
    const repo = busyRepo(3);
    repo.write('src/d0/f0.txt', 'edited\n');
    const bin = tempDir('involut-logged-git-');
    const log = path.join(bin, 'calls');
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\necho "\${GIT_OPTIONAL_LOCKS:-unset}" >> ${log}\nexec ${real} "$@"\n`,
    );
    chmodSync(path.join(bin, 'git'), 0o755);
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, GIT_OPTIONAL_LOCKS: '1' };
    for (const args of [['rounds', '--begin'], ['rounds']]) {
      expect(spawnSync(process.execPath, [CLI, ...args, '--quiet'], { cwd: repo.dir, env }).status).toBe(0);
    }
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls.length).toBeGreaterThan(10);
    expect(new Set(calls)).toEqual(new Set(['0']));
  });
});

describe('a round stopped before it finished', () => {
  it('(SIGKILL after its ref was pinned) is cleared by the next round, and "since the last round" compares with the last finished one', async () => {
    const repo = busyRepo(1500);
    repo.write('first.txt', 'first\n');
    await emit(repo.dir);
    // Changed before the round that is stopped: these must show in the round after it.
    repo.write('between.txt', 'made while round 2 ran\n');
    for (let i = 0; i < 1500; i += 7) repo.write(`src/d${i % 20}/f${i}.txt`, `${lines(40, `again ${i}`)}\n`);
    const child = spawn(process.execPath, [CLI, 'rounds', '--quiet'], { cwd: repo.dir, stdio: 'ignore' });
    const pinned = await waitFor(
      () =>
        spawnSync('git', ['rev-parse', '--verify', '--quiet', 'refs/involut/rounds/2'], { cwd: repo.dir }).status === 0,
      20_000,
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    expect(pinned).toBe(true);
    expect(existsSync(repo.path('.review/rounds/2/material.json'))).toBe(false);

    repo.write('after.txt', 'made after round 2 stopped\n');
    const { summary, material } = await emit(repo.dir, { sinceLast: true });
    expect(summary.baseReason).toContain('round 1');
    expect(refs(material)).toEqual(expect.arrayContaining(['between.txt', 'after.txt', 'src/d0/f0.txt']));
    // The stopped round is gone: folder, temporary files and ref; its number is used again.
    expect(summary.round).toBe(2);
    expect(readdirSync(repo.path('.review/rounds')).sort()).toEqual(['1', '2']);
    expect(readdirSync(repo.path('.review/rounds/2')).sort()).toEqual(['material.json', 'round.json']);
    expect(readdirSync(repo.path('.review')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(repo.path('.git')).filter((name) => name.startsWith('involut-index'))).toEqual([]);
  }, 60_000);

  it('rounds run at once take turns: material.json is the newest finished round', async () => {
    const repo = busyRepo(300);
    const runs = await Promise.all([1, 2, 3, 4].map(() => runCli(['rounds', '--json'], repo.dir)));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const numbers = runs.map((r) => (JSON.parse(r.stdout) as { round: number }).round).sort();
    expect(numbers).toEqual([1, 2, 3, 4]);
    expect(readMaterial(repo.dir).source.round).toBe(4);
    expect(runs.some((r) => r.stderr.includes('is running (process'))).toBe(true);
    expect(existsSync(repo.path('.review/.rounds.lock'))).toBe(false);
  }, 60_000);

  it('a lock whose process is gone, or that names none, is taken over; a live one is waited for', async () => {
    const repo = busyRepo(3);
    await emit(repo.dir);
    const lock = repo.path('.review/.rounds.lock');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    for (const left of [`${gone.stdout}\n`, '']) {
      writeFileSync(lock, left);
      const run = await runCli(['rounds', '--quiet'], repo.dir);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('is running');
      expect(existsSync(lock)).toBe(false);
    }

    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(lock, `${holder.pid}\n`);
    const waiting = spawn(process.execPath, [CLI, 'rounds', '--json'], {
      cwd: repo.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = { exited: false, stdout: '', stderr: '' };
    waiting.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk));
    waiting.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
    const closed = new Promise<number | null>((resolve) => waiting.once('close', resolve));
    waiting.once('exit', () => (run.exited = true));
    // It says it waits for the live holder, and waits: the lock is still the holder's.
    const said = await waitFor(() => run.stderr.includes(`is running (process ${holder.pid}`), 30_000);
    expect(said, run.stderr).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(`${holder.pid}\n`);
    expect(run.exited).toBe(false);
    holder.kill('SIGKILL');
    expect(await closed, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { round: number }).round).toBe(4);
    expect(readdirSync(repo.path('.review')).filter((name) => name.includes('.rounds.lock'))).toEqual([]);
  }, 60_000);
});

describe('rounds --begin', () => {
  it('keeps .review/ out of git status and pins its tree against gc', async () => {
    const repo = busyRepo(2);
    const run = await runCli(['rounds', '--begin', '--quiet'], repo.dir);
    expect(run.code).toBe(0);
    expect(
      repo
        .git(['status', '--porcelain'])
        .split('\n')
        .filter((line) => line.includes('.review')),
    ).toEqual([]);
    const begin = JSON.parse(repo.read('.review/begin.json').toString('utf8')) as { tree: string };
    expect(repo.rev('refs/worktree/involut/begin')).toBe(begin.tree);
  });
});

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}
