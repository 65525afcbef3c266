import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../../schemas/material';
import { binaryBytes, cleanup, emit, entryOf, makeRepo, png, type TempRepo } from '../helpers/git-repo';

let repo: TempRepo;
let material: Material;
let base: string;
let short: string;

const heroBefore = png(12, 7, [10, 20, 30]);
const heroAfter = png(40, 21, [200, 100, 50]);
const logoBefore = png(3, 5);
const newIcon = png(16, 9, [0, 255, 0]);
const dataBefore = binaryBytes(3000, 7);
const dataAfter = Buffer.concat([binaryBytes(3000, 7).subarray(0, 1000), binaryBytes(2500, 99)]);

beforeAll(async () => {
  repo = makeRepo();
  repo.write('assets/img/hero.png', heroBefore);
  repo.write('logo.png', logoBefore);
  repo.write('data/blob.bin', dataBefore);
  repo.write('README.md', 'images\n');
  base = repo.commit('images');
  short = base.slice(0, 7);

  repo.write('assets/img/hero.png', heroAfter);
  repo.remove('logo.png');
  repo.write('icons/new icon.png', newIcon);
  repo.write('data/blob.bin', dataAfter);
  ({ material } = await emit(repo.dir));
});

afterAll(cleanup);

const blobFile = (before: string) => path.join(repo.dir, '.review', before);

describe('binaries', () => {
  it('modified PNG: binary, no diff, both sizes, and a byte-exact before copy named after the flattened path', () => {
    const e = entryOf(material, 'assets/img/hero.png');
    expect(e).toMatchObject({
      status: 'modified',
      binary: true,
      diff: null,
      size: { w: 40, h: 21 },
      before_size: { w: 12, h: 7 },
      before: `blobs/assets_img_hero.png.${short}.png`,
      additions: null,
      deletions: null,
      bytes: heroAfter.length,
    });
    expect(readFileSync(blobFile(e.before!)).equals(heroBefore)).toBe(true);
    expect(repo.git(['rev-parse', `${material.source.tree}:assets/img/hero.png`]).startsWith(e.hash)).toBe(true);
  });

  it('deleted PNG: before copy and before_size, no size', () => {
    const e = entryOf(material, 'logo.png');
    expect(e).toMatchObject({
      status: 'deleted',
      binary: true,
      diff: null,
      before: `blobs/logo.png.${short}.png`,
      before_size: { w: 3, h: 5 },
    });
    expect(e.size).toBeUndefined();
    expect(readFileSync(blobFile(e.before!)).equals(logoBefore)).toBe(true);
    expect(repo.git(['rev-parse', `${base}:logo.png`]).startsWith(e.hash)).toBe(true);
  });

  it('added PNG: size, no before copy', () => {
    const e = entryOf(material, 'icons/new icon.png');
    expect(e).toMatchObject({ status: 'added', binary: true, diff: null, size: { w: 16, h: 9 } });
    expect(e.before).toBeUndefined();
    expect(e.before_size).toBeUndefined();
  });

  it('non-image binary: a before copy but no size', () => {
    const e = entryOf(material, 'data/blob.bin');
    expect(e).toMatchObject({
      status: 'modified',
      binary: true,
      diff: null,
      before: `blobs/data_blob.bin.${short}.bin`,
    });
    expect(e.size).toBeUndefined();
    expect(e.before_size).toBeUndefined();
    expect(readFileSync(blobFile(e.before!)).equals(dataBefore)).toBe(true);
  });

  it('.review/blobs holds exactly the before copies, no temporary leftovers', () => {
    const expected = material.material.flatMap((e) => (e.before ? [path.basename(e.before)] : []));
    expect(readdirSync(path.join(repo.dir, '.review/blobs')).sort()).toEqual(expected.sort());
    expect(existsSync(path.join(repo.dir, '.review/blobs', `icons_new icon.png.${short}.png`))).toBe(false);
  });
});
