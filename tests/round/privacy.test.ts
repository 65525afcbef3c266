import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { InvolutError } from '../../server/cli/errors';
import { binaryBytes, cleanup, emit, entryOf, makeRepo, runCli, type TempRepo } from '../helpers/git-repo';

afterAll(cleanup);

const ENV_OLD = 'API_TOKEN=old-secret-4f1c9e\n';
const ENV_NEW = 'API_TOKEN=new-secret-8d2b7a\n';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEsecretpemmaterial0c7d\n-----END PRIVATE KEY-----\n';
const P12_MARK = 'p12-secret-e5a0';
const PRIVATE = 'private note 71b3 from .involut.json\n';
const SECRETS = ['old-secret-4f1c9e', 'new-secret-8d2b7a', 'MIIEsecretpemmaterial0c7d', P12_MARK, 'private note 71b3'];

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

describe('privacy excludes', () => {
  let repo: TempRepo;
  let material: Material;

  beforeAll(async () => {
    repo = makeRepo();
    repo.write('.env', ENV_OLD);
    repo.write('certs/store.p12', Buffer.concat([binaryBytes(200, 3), Buffer.from(P12_MARK), binaryBytes(200, 4)]));
    repo.write('app.txt', 'app\n');
    repo.write('.involut.json', JSON.stringify({ privacyExcludes: ['private/**'] }));
    repo.commit('initial');
    repo.write('.env', ENV_NEW);
    repo.write('key.pem', PEM);
    repo.write('certs/store.p12', Buffer.concat([binaryBytes(100, 5), Buffer.from(P12_MARK), binaryBytes(300, 6)]));
    repo.write('private/notes.txt', PRIVATE);
    repo.write('private/deep/more.txt', PRIVATE);
    repo.write('app.txt', 'app changed\n');
    ({ material } = await emit(repo.dir));
  });

  it('.env (modified) is listed with its status and a reason, and none of its content', () => {
    const e = entryOf(material, '.env');
    expect(e).toMatchObject({ status: 'modified', diff: null, additions: null, deletions: null });
    expect(e.withheld?.reason).toMatch(/privacy exclude "\.env\*" \(built-in default\)/);
    expect(e.diff_base64).toBeUndefined();
    expect(e.before).toBeUndefined();
  });

  it('key.pem (added) is withheld by default', () => {
    const e = entryOf(material, 'key.pem');
    expect(e).toMatchObject({ status: 'added', diff: null });
    expect(e.withheld?.reason).toContain('*.pem');
  });

  it('a withheld binary gets no before copy in .review/blobs', () => {
    const e = entryOf(material, 'certs/store.p12');
    expect(e).toMatchObject({ status: 'modified', binary: true, diff: null });
    expect(e.withheld?.reason).toContain('*.p12');
    expect(e.before).toBeUndefined();
    const blobs = repo.path('.review/blobs');
    expect(existsSync(blobs) ? readdirSync(blobs) : []).toEqual([]);
  });

  it.each(['private/notes.txt', 'private/deep/more.txt'])('.involut.json privacyExcludes adds a pattern: %s', (ref) => {
    const e = entryOf(material, ref);
    expect(e).toMatchObject({ status: 'added', diff: null });
    expect(e.withheld?.reason).toBe('matches privacy exclude "private/**" (.involut.json)');
  });

  it('other files are captured as usual', () => {
    expect(entryOf(material, 'app.txt')).toMatchObject({ diff: '@@ -1 +1 @@\n-app\n+app changed\n' });
    expect(entryOf(material, 'app.txt').withheld).toBeUndefined();
  });

  it('no secret appears anywhere under .review/', () => {
    const files = filesUnder(repo.path('.review'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const secret of SECRETS) expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false);
    }
  });

  it('a renamed secret stays withheld under its new name (withheld by its old one)', async () => {
    const other = makeRepo();
    other.write('.env', `${ENV_OLD}LINE_2=x\nLINE_3=y\n`);
    other.commit('initial');
    other.move('.env', 'config/settings.txt');
    const { material: m } = await emit(other.dir);
    const e = entryOf(m, 'config/settings.txt');
    expect(e).toMatchObject({ status: 'renamed', from: '.env', diff: null });
    expect(e.withheld?.reason).toContain('.env*');
  });

  it('the user config (~/.config/involut/config.json) adds excludes too', async () => {
    const other = makeRepo();
    other.write('a.txt', 'a\n');
    other.commit('initial');
    other.write('data/dump.sqlite', 'rows of personal data 9e4f\n');
    // The helper points XDG_CONFIG_HOME at a temporary folder for this test worker.
    const config = path.join(process.env.XDG_CONFIG_HOME!, 'involut', 'config.json');
    mkdirSync(path.dirname(config), { recursive: true });
    writeFileSync(config, JSON.stringify({ privacyExcludes: ['*.sqlite'] }));
    try {
      const { material: m } = await emit(other.dir);
      expect(entryOf(m, 'data/dump.sqlite').withheld?.reason).toBe(
        'matches privacy exclude "*.sqlite" (~/.config/involut/config.json)',
      );
    } finally {
      rmSync(config);
    }
  });
});

describe('an invalid .involut.json', () => {
  it.each([
    ['not JSON', '{ "privacyExcludes": [ '],
    ['a wrong shape', '{ "privacyExcludes": "secrets/**" }'],
    ['an unknown key', '{ "privacyExclude": ["x"] }'],
  ])('%s: error bad-config, nothing written', async (_, text) => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.commit('initial');
    repo.write('.involut.json', text);
    const error = await emit(repo.dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvolutError);
    expect(error).toMatchObject({ code: 'bad-config' });
    expect((error as Error).message).toContain('.involut.json');
    expect(existsSync(repo.path('.review/material.json'))).toBe(false);
  });

  it('through the CLI: exit 1, JSON error bad-config', async () => {
    const repo = makeRepo();
    repo.write('.involut.json', '[]');
    const run = await runCli(['rounds', '--json'], repo.dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'bad-config' } });
  });
});
