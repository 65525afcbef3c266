import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryBytes, CLI, cleanup, makeRepo, runCli, tempDir, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

/**
 * A full disk, for real: the folder under test becomes a small tmpfs in a private mount
 * namespace, holding a copy of what it held, filled up to `freeKiB` left. Needs root and
 * `unshare -m` (Linux); elsewhere these tests are skipped, and their names say why.
 */
const canMount =
  process.getuid?.() === 0 &&
  spawnSync('unshare', [
    '-m',
    '--propagation',
    'private',
    'sh',
    '-c',
    'mount -t tmpfs -o size=16k tmpfs "$0"',
    os.tmpdir(),
  ]).status === 0;
const SKIPPED = canMount ? '' : ' (skipped: needs root and `unshare -m` to mount a small tmpfs)';

/**
 * Runs `involut <args>` with `folder` on a tmpfs of `sizeKiB` left with `freeKiB` free; what
 * the tmpfs held when the command ended is copied to the folder returned (the mount goes with
 * the namespace, and the real folder beneath it is as it was).
 */
function onFullDisk(repo: TempRepo, folder: string, sizeKiB: number, freeKiB: number, args: string[]) {
  const after = mkdtempSync(path.join(tempDir('involut-full-'), 'after-'));
  const script = `set -e
node=$1; cli=$2; out=$3; shift 3
saved=$(mktemp -d); cp -a "$0/." "$saved/"
mount -t tmpfs -o size=${sizeKiB}k tmpfs "$0"
cp -a "$saved/." "$0/"; rm -rf "$saved"
avail=$(df -k --output=avail "$0" | tail -1)
head -c $(( (avail - ${freeKiB}) * 1024 )) /dev/zero > "$0/.filler" 2>/dev/null || true
set +e
"$node" "$cli" "$@"; code=$?
rm -f "$0/.filler"; cp -a "$0/." "$out/"
exit $code`;
  const run = spawnSync(
    'unshare',
    ['-m', '--propagation', 'private', 'sh', '-c', script, folder, process.execPath, CLI, after, ...args],
    { cwd: repo.dir, encoding: 'utf8' },
  );
  return { code: run.status, stderr: run.stderr, after };
}

/** Every file under `dir`, relative, sorted. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

const refs = (repo: TempRepo) =>
  repo.git(['for-each-ref', '--format=%(refname)', 'refs/involut/']).split('\n').filter(Boolean);

describe('a round is finished or absent when the disk fills up', () => {
  it.skipIf(!canMount)(`the material and git add: exit 1, one sentence, the last round intact${SKIPPED}`, async () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    repo.write('data.bin', binaryBytes(300_000, 1));
    repo.commit('initial');
    repo.write('a.txt', 'two\n');
    const first = await runCli(['rounds'], repo.dir);
    expect(first.code, first.stderr).toBe(0);
    const served = readFileSync(repo.path('.review/material.json'));
    const before = listing(repo.path('.review'));
    const refsBefore = refs(repo);

    // The material: a 40,000-line file makes it far bigger than the 64 KiB left.
    repo.write('big.txt', Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n'));
    const material = onFullDisk(repo, repo.path('.review'), 1024, 64, ['rounds']);
    expect(material.code, material.stderr).toBe(1);
    expect(material.stderr).toBe(
      `involut: The disk holding ${repo.path('.review/material.json')} is full; free some space and run the command again.\n`,
    );
    // What is served is the last finished round, byte for byte; no temporary file, no new round, no new ref.
    expect(readFileSync(path.join(material.after, 'material.json'))).toEqual(served);
    expect(listing(material.after)).toEqual(before);
    expect(refs(repo)).toEqual(refsBefore);

    // git add: the object store fills up while it packs a 600 KB file it cannot compress.
    repo.write('noise.bin', binaryBytes(600_000, 3));
    const objects = repo.path('.git/objects');
    const sizeKiB = Math.ceil(
      Number(spawnSync('du', ['-sk', objects], { encoding: 'utf8' }).stdout.split('\t')[0]) + 512,
    );
    const add = onFullDisk(repo, objects, sizeKiB, 128, ['rounds']);
    expect(add.code, add.stderr).toBe(1);
    expect(add.stderr).toBe(
      `involut: The disk holding ${objects} is full (git could not write the round's objects); free some space and run the command again.\n`,
    );
    // git's half-written pack is gone, and so is the temporary index.
    expect(listing(path.join(add.after, 'pack')).filter((name) => name.startsWith('tmp_'))).toEqual([]);
    expect(readdirSync(repo.path('.git')).filter((name) => /^involut-index/.test(name))).toEqual([]);
    expect(readFileSync(repo.path('.review/material.json'))).toEqual(served);
    expect(refs(repo)).toEqual(refsBefore);

    // With room again, the next round is the second.
    const next = await runCli(['rounds', '--json'], repo.dir);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ round: 2 });
  });

  it.skipIf(!canMount)(
    `a binary's before copy: exit 1, one sentence naming it, the last round intact${SKIPPED}`,
    async () => {
      const repo = makeRepo();
      repo.write('a.txt', 'one\n');
      repo.write('data.bin', binaryBytes(400_000, 1));
      repo.commit('initial');
      repo.write('a.txt', 'two\n');
      const first = await runCli(['rounds'], repo.dir);
      expect(first.code, first.stderr).toBe(0);
      const served = readFileSync(repo.path('.review/material.json'));
      const before = listing(repo.path('.review'));

      // The 400 KB before copy of data.bin cannot fit in the 128 KiB left; the material would.
      repo.write('data.bin', binaryBytes(400_000, 2));
      const full = onFullDisk(repo, repo.path('.review'), 1024, 128, ['rounds']);
      expect(full.code, full.stderr).toBe(1);
      expect(full.stderr).toMatch(
        /^involut: The disk holding \S+\/\.review\/blobs\/data\.bin\.[0-9a-f]{7}\.bin is full; free some space and run the command again\.\n$/,
      );
      expect(readFileSync(path.join(full.after, 'material.json'))).toEqual(served);
      expect(listing(full.after)).toEqual(before);

      const next = await runCli(['rounds', '--json'], repo.dir);
      expect(next.code, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout)).toMatchObject({ round: 2 });
    },
  );
});
