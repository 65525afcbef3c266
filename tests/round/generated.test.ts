/**
 * Which files the viewer folds as generated (server/round/generated.ts): lockfiles by
 * name, generated files by suffix, and `linguist-generated` over both, either way.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isGenerated } from '../../server/round/generated';
import { cleanup, emit, entryOf, makeRepo } from '../helpers/git-repo';

describe('isGenerated', () => {
  it('knows lockfiles by name and generated files by suffix, in any folder', () => {
    for (const file of [
      'package-lock.json',
      'web/yarn.lock',
      'Cargo.lock',
      'a/b/go.sum',
      'dist/app.min.js',
      'x.min.css',
      'app.js.map',
      'site.css.map',
    ]) {
      expect(isGenerated(file, undefined), file).toBe(true);
    }
    for (const file of [
      '__snapshots__/view.test.ts.snap',
      'api/user.pb.go',
      'proto/user_pb2.py',
      'src/schema.generated.ts',
    ]) {
      expect(isGenerated(file, undefined), file).toBe(true);
    }
  });

  it('leaves other files alone, near misses included', () => {
    for (const file of [
      'package.json',
      'lock/yarn.lock.md',
      'min.js',
      'app.minjs',
      'app.min.js.txt',
      'snap',
      'x_pb2.pyc',
      'generated.ts',
      'src/yarn.lock/inner.ts',
      '',
    ]) {
      expect(isGenerated(file, undefined), file).toBe(false);
    }
  });

  it('follows linguist-generated when it is set, either way', () => {
    expect(isGenerated('src/index.ts', true)).toBe(true);
    expect(isGenerated('package-lock.json', false)).toBe(false);
  });
});

describe('linguist-generated in a round', () => {
  afterAll(cleanup);

  it('follows the .gitattributes of the captured state, not one deleted from the working tree', async () => {
    const repo = makeRepo();
    repo.write('.gitattributes', 'out/** linguist-generated\n');
    repo.write('gen/a.ts', 'a\n');
    repo.write('gen/.gitattributes', '*.ts linguist-generated\n');
    repo.commit('attributes');
    repo.write('out/build.js', 'x\n');
    repo.write('gen/a.ts', 'b\n');
    repo.remove('gen/.gitattributes'); // deleted, not staged: the real index still has it
    const { material } = await emit(repo.dir);
    expect(entryOf(material, 'out/build.js').generated).toBe(true);
    expect(entryOf(material, 'gen/a.ts').generated ?? false).toBe(false);
  });
});
