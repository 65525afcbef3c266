import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import {
  cleanup,
  configureIdentity,
  diffBytes,
  emit,
  entryOf,
  gitHunks,
  lines,
  makeRepo,
  repoAt,
  tempDir,
  type TempRepo,
} from '../helpers/git-repo';

/** One repository with a mode change, symlinks, a submodule whose pointer moved and generated files. */
let repo: TempRepo;
let material: Material;
let base: string;
let subBefore: string;
let subAfter: string;

beforeAll(async () => {
  const upstream = makeRepo({ dir: tempDir('involut-sub-') });
  upstream.write('lib.txt', 'version 1\n');
  subBefore = upstream.commit('sub: one');

  repo = makeRepo();
  repo.write('run.sh', '#!/bin/sh\necho hi\n');
  repo.write('target-a.txt', 'a\n');
  repo.write('target-b.txt', 'b\n');
  repo.symlink('target-a.txt', 'moving-link');
  repo.write('becomes-link.txt', lines(3, 'plain file'));
  repo.write('.gitattributes', 'gen/** linguist-generated\nkeep.min.js -linguist-generated\n');
  repo.git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', upstream.dir, 'vendor/sub']);
  base = repo.commit('initial with a submodule');

  repo.chmod('run.sh', 0o755);
  repo.symlink('target-b.txt', 'new-link');
  repo.remove('moving-link');
  repo.symlink('target-b.txt', 'moving-link');
  repo.remove('becomes-link.txt');
  repo.symlink('target-a.txt', 'becomes-link.txt');
  // Move the submodule's checkout to a new commit: the gitlink changes, nothing is staged.
  const checkout = repoAt(repo.path('vendor/sub'));
  configureIdentity(checkout);
  checkout.write('lib.txt', 'version 2\n');
  subAfter = checkout.commit('sub: two');
  repo.write('package-lock.json', '{}\n');
  repo.write('gen/schema.ts', 'export type X = 1;\n');
  repo.write('app.min.js', 'x\n');
  repo.write('keep.min.js', 'y\n');
  repo.write('src/hand.ts', 'z\n');

  ({ material } = await emit(repo.dir));
});

afterAll(cleanup);

describe('special files', () => {
  it('mode-only change (chmod +x): modified, mode before/after, empty diff', () => {
    const e = entryOf(material, 'run.sh');
    expect(e).toMatchObject({
      status: 'modified',
      binary: false,
      diff: '',
      mode: { before: '100644', after: '100755' },
      additions: 0,
      deletions: 0,
    });
  });

  it('symlink added: symlink true, the diff is the link target', () => {
    const e = entryOf(material, 'new-link');
    expect(e).toMatchObject({ status: 'added', symlink: true, binary: false });
    expect(e.diff).toBe('@@ -0,0 +1 @@\n+target-b.txt\n\\ No newline at end of file\n');
    expect(e.mode).toBeUndefined();
  });

  it('symlink changed: the diff is the change of target', () => {
    const e = entryOf(material, 'moving-link');
    expect(e).toMatchObject({ status: 'modified', symlink: true });
    expect(e.diff).toBe(
      '@@ -1 +1 @@\n-target-a.txt\n\\ No newline at end of file\n+target-b.txt\n\\ No newline at end of file\n',
    );
    expect(diffBytes(e).equals(gitHunks(repo, base, material.source.tree!, e))).toBe(true);
  });

  it('a file that became a symlink: one entry, modes 100644 → 120000, old content out and target in', () => {
    expect(material.material.filter((e) => e.ref === 'becomes-link.txt')).toHaveLength(1);
    const e = entryOf(material, 'becomes-link.txt');
    expect(e).toMatchObject({ status: 'modified', symlink: true, mode: { before: '100644', after: '120000' } });
    // git prints a type change as a deletion then a creation; the entry carries both hunks.
    expect(e.diff).toBe(
      '@@ -1,3 +0,0 @@\n-plain file 1\n-plain file 2\n-plain file 3\n@@ -0,0 +1 @@\n+target-a.txt\n\\ No newline at end of file\n',
    );
    expect({ additions: e.additions, deletions: e.deletions }).toEqual({ additions: 1, deletions: 3 });
  });

  it('submodule pointer moved: submodule before/after, the diff is the commit change', () => {
    const e = entryOf(material, 'vendor/sub');
    expect(e).toMatchObject({ status: 'modified', submodule: { before: subBefore, after: subAfter }, bytes: null });
    expect(e.diff).toBe(`@@ -1 +1 @@\n-Subproject commit ${subBefore}\n+Subproject commit ${subAfter}\n`);
    expect(diffBytes(e).equals(gitHunks(repo, base, material.source.tree!, e))).toBe(true);
    expect(material.material.some((x) => x.ref.startsWith('vendor/sub/'))).toBe(false);
  });

  it('generated: lockfiles and generated names, overridden by linguist-generated either way', () => {
    const generated = (ref: string) => entryOf(material, ref).generated ?? false;
    expect(generated('package-lock.json')).toBe(true);
    expect(generated('app.min.js')).toBe(true);
    expect(generated('gen/schema.ts')).toBe(true);
    expect(generated('keep.min.js')).toBe(false);
    expect(generated('src/hand.ts')).toBe(false);
  });

  it('nothing else changed (.gitmodules is in the base)', () => {
    expect(material.material.map((e) => e.ref).sort()).toEqual(
      [
        'app.min.js',
        'becomes-link.txt',
        'gen/schema.ts',
        'keep.min.js',
        'moving-link',
        'new-link',
        'package-lock.json',
        'run.sh',
        'src/hand.ts',
        'vendor/sub',
      ].sort(),
    );
  });
});
