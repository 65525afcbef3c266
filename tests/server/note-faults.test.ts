/**
 * The machine's faults on a note write give one sentence naming the file and what to do
 * (issue, lower items): a full disk (a 64 KB tmpfs over `.review/`, mounted in a mount
 * namespace of the server's own) and permission denied (the server run as `nobody`), on
 * the built CLI's server; and the CLI's own sentence for a full disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { childEnv, CLI, makeRepo, removeTempDirs, tempDir } from '../helpers/server';

afterAll(removeTempDirs);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

const isRoot = process.getuid?.() === 0;
const canMount = isRoot && spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0;
const NOBODY = 65534;
const canDrop =
  isRoot && spawnSync(process.execPath, [CLI, '--version'], { uid: NOBODY, gid: NOBODY, cwd: '/' }).status === 0;

/** Spawns a command that ends by serving, and resolves with its viewer URL's origin and token. */
async function served(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; uid?: number },
): Promise<{ base: string; token: string }> {
  const child = spawn(command, args, {
    env: options.env,
    ...(options.uid ? { uid: options.uid, gid: options.uid } : {}),
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n', 1)[0]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  const parsed = new URL(url);
  return { base: parsed.origin, token: new URLSearchParams(parsed.hash.slice(1)).get('token')! };
}

function putNote(server: { base: string; token: string }, key: string): Promise<Response> {
  return fetch(`${server.base}/api/notes/${key}`, {
    method: 'PUT',
    headers: { 'x-involut-token': server.token, origin: server.base, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'a note', title: 't', refs: [], seen: null }),
  });
}

describe('faults of a note write', () => {
  it.runIf(canMount)('a full disk: 507 and one sentence naming notes.json, the file untouched', async () => {
    const repo = makeRepo();
    const review = repo.review('');
    mkdirSync(review);
    const script = `mount -t tmpfs -o size=64k tmpfs '${review}' && printf '%s' '{"contract":1,"notes":{}}' > '${review}/notes.json' && (head -c 1048576 /dev/zero > '${review}/filler' 2>/dev/null; true) && exec '${process.execPath}' '${CLI}' serve --no-open --port 0 --repo '${repo.dir}'`;
    const server = await served('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { env: childEnv() });
    const response = await putNote(server, 'c_1');
    expect(response.status).toBe(507);
    const body = await response.json();
    expect(body.error.code).toBe('disk-full');
    expect(body.error.message).toBe(
      'The disk holding .review/notes.json is full; free some space and type again, the note is kept in the viewer meanwhile.',
    );
    const read = await fetch(`${server.base}/api/notes`, { headers: { 'x-involut-token': server.token } });
    expect(await read.json()).toEqual({ state: 'ok', data: { contract: 1, notes: {} } });
  });

  it.runIf(canDrop)('permission denied: 403 and one sentence naming notes.json', async () => {
    const repo = makeRepo();
    const home = tempDir('involut-home-');
    writeFileSync(path.join(home, '.gitconfig'), '[safe]\n\tdirectory = *\n');
    mkdirSync(repo.review(''));
    for (const dir of [repo.dir, home, path.dirname(repo.dir)]) chmodSync(dir, 0o755);
    chmodSync(repo.review(''), 0o555);
    chownSync(home, NOBODY, NOBODY);
    const env = { ...childEnv(), HOME: home, INVOLUT_STATE_DIR: path.join(home, 'state') };
    const server = await served(process.execPath, [CLI, 'serve', '--no-open', '--port', '0', '--repo', repo.dir], {
      env,
      uid: NOBODY,
    });
    const response = await putNote(server, 'c_1');
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body.error.code).toBe('notes-permission');
    expect(body.error.message).toMatch(/^Involut may not write \.review\/notes\.json \(permission denied\); .+\.$/);
  });
});

describe('the CLI on a full disk', () => {
  it.runIf(canMount)('names the file and what to do, instead of an unexpected error', () => {
    const repo = makeRepo();
    const target = tempDir('involut-full-');
    const script = `mount -t tmpfs -o size=64k tmpfs '${target}' && (head -c 1048576 /dev/zero > '${target}/filler' 2>/dev/null; true) && cd '${repo.dir}' && exec '${process.execPath}' '${CLI}' skill --install --repo '${repo.dir}'`;
    // The skill is installed into the repository: make the repository's .claude folder the full disk.
    const claude = path.join(repo.dir, '.claude');
    mkdirSync(claude);
    const result = spawnSync(
      'unshare',
      ['-m', '--propagation', 'private', 'sh', '-c', script.replaceAll(target, claude)],
      { env: childEnv(), encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^involut: The disk holding .+ is full; free some space and run the command again\.\n$/,
    );
    expect(readFileSync(path.join(repo.dir, 'README.md'), 'utf8')).toBe('# test\n');
  });
});
