import { describe, expect, it } from 'vitest';
import { fits } from '../../schemas/drawing-faults';
import {
  changeMask,
  compareFrames,
  countIn,
  crop,
  differenceImage,
  pixels,
  zoomToFit,
  type Pixels,
} from '../../src/model/pixels';

type RGBA = [number, number, number, number];
const CLEAR: RGBA = [0, 0, 0, 0];
const RED: RGBA = [255, 0, 0, 255];
const BLUE: RGBA = [0, 0, 255, 255];

/** A w×h image filled with `fill`, then the listed pixels painted. */
function image(w: number, h: number, fill: RGBA = CLEAR, paint: [number, number, RGBA][] = []): Pixels {
  const p = pixels(w, h);
  for (let i = 0; i < w * h; i++) p.data.set(fill, i * 4);
  for (const [x, y, rgba] of paint) p.data.set(rgba, (y * w + x) * 4);
  return p;
}

function at(p: Pixels, x: number, y: number): number[] {
  const i = (y * p.width + x) * 4;
  return [...p.data.subarray(i, i + 4)];
}

describe('changeMask', () => {
  it('counts nothing for identical images', () => {
    const a = image(4, 3, RED, [[1, 1, BLUE]]);
    expect(changeMask(a, image(4, 3, RED, [[1, 1, BLUE]])).count).toBe(0);
  });

  it('marks exactly the pixels whose colour or alpha differ', () => {
    const before = image(4, 4, RED);
    const after = image(4, 4, RED, [
      [0, 0, BLUE],
      [3, 2, [255, 0, 0, 254]],
    ]);
    const mask = changeMask(before, after);
    expect(mask.count).toBe(2);
    expect(mask.changed[0]).toBe(1);
    expect(mask.changed[2 * 4 + 3]).toBe(1);
  });

  it('treats two fully transparent pixels as the same whatever their colour bytes', () => {
    const before = image(2, 1, [10, 20, 30, 0]);
    const after = image(2, 1, [200, 100, 0, 0]);
    expect(changeMask(before, after).count).toBe(0);
  });

  it('compares over the larger size, the missing area counting as transparent', () => {
    const before = image(2, 2, RED);
    const after = image(3, 2, RED, [[2, 1, CLEAR]]); // column 2 is new: one opaque, one transparent pixel
    const mask = changeMask(before, after);
    expect([mask.width, mask.height]).toEqual([3, 2]);
    expect(mask.count).toBe(1);
  });

  it('counts every visible pixel of an added image as changed', () => {
    const after = image(3, 3, CLEAR, [
      [0, 0, RED],
      [1, 1, RED],
    ]);
    expect(changeMask(null, after).count).toBe(2);
    expect(changeMask(after, null).count).toBe(2);
  });
});

describe('countIn and fits', () => {
  const mask = changeMask(
    image(4, 4),
    image(4, 4, CLEAR, [
      [0, 0, RED],
      [3, 3, RED],
      [2, 1, RED],
    ]),
  );

  it('counts changed pixels inside a rectangle, clipped to the mask', () => {
    expect(countIn(mask, { x: 0, y: 0, w: 2, h: 2 })).toBe(1);
    expect(countIn(mask, { x: 2, y: 0, w: 2, h: 2 })).toBe(1);
    expect(countIn(mask, { x: 3, y: 3, w: 10, h: 10 })).toBe(1);
    expect(countIn(mask, { x: 8, y: 8, w: 2, h: 2 })).toBe(0);
  });

  it('fits a rectangle touching the edges, not one past them', () => {
    expect(fits({ x: 0, y: 0, w: 4, h: 4 }, { w: 4, h: 4 })).toBe(true);
    expect(fits({ x: 1, y: 0, w: 4, h: 4 }, { w: 4, h: 4 })).toBe(false);
    expect(fits({ x: 0, y: 3, w: 1, h: 2 }, { w: 4, h: 4 })).toBe(false);
  });
});

describe('compareFrames', () => {
  // A 4×2 sheet of four 2×1 frames; two of them change.
  const frames = [
    { name: 'a', x: 0, y: 0, w: 2, h: 1 },
    { name: 'b', x: 2, y: 0, w: 2, h: 1 },
    { name: 'c', x: 0, y: 1, w: 2, h: 1 },
    { name: 'd', x: 2, y: 1, w: 2, h: 1 },
  ];
  const before = image(4, 2, RED);
  const after = image(4, 2, RED, [
    [1, 0, BLUE],
    [2, 1, BLUE],
    [3, 1, CLEAR],
  ]);
  const sizes = { before: { w: 4, h: 2 }, after: { w: 4, h: 2 } };

  it('keeps only the frames whose pixels changed, with their counts, and lists the rest as unchanged', () => {
    const report = compareFrames(frames, changeMask(before, after), sizes);
    expect(report.changed.map((c) => [c.frame.name, c.changed])).toEqual([
      ['a', 1],
      ['d', 2],
    ]);
    expect(report.unchanged.map((f) => f.name)).toEqual(['b', 'c']);
    expect(report.outside).toEqual([]);
    expect(report.changedOutsideFrames).toBe(0);
  });

  it('reports a frame outside every image by name and does not compare it', () => {
    const ghost = { name: 'ghost', x: 4, y: 0, w: 2, h: 1 };
    const report = compareFrames([...frames, ghost], changeMask(before, after), sizes);
    expect(report.outside).toEqual([{ frame: ghost, sides: ['before', 'after'] }]);
    expect(report.changed.length + report.unchanged.length).toBe(4);
  });

  it('counts changed pixels that no frame covers', () => {
    const report = compareFrames(frames.slice(1), changeMask(before, after), sizes);
    expect(report.changedOutsideFrames).toBe(1);
  });

  it('compares a frame in the grown part of a sheet against transparency and says which image it is beyond', () => {
    const grown = image(6, 2, RED);
    const frame = { name: 'new', x: 4, y: 0, w: 2, h: 1 };
    const report = compareFrames([frame], changeMask(before, grown), { before: { w: 4, h: 2 }, after: { w: 6, h: 2 } });
    expect(report.changed).toEqual([{ frame, changed: 2, beyond: ['before'] }]);
  });

  it('measures frames of an added image against the one side that exists', () => {
    const report = compareFrames(frames, changeMask(null, after), { before: null, after: { w: 4, h: 2 } });
    expect(report.outside).toEqual([]);
    expect(report.changed.length).toBe(4);
  });
});

describe('crop', () => {
  const sheet = image(3, 2, RED, [[2, 1, BLUE]]);

  it('cuts a rectangle out of the image', () => {
    const part = crop(sheet, { x: 1, y: 1, w: 2, h: 1 });
    expect([part.width, part.height]).toEqual([2, 1]);
    expect(at(part, 0, 0)).toEqual(RED);
    expect(at(part, 1, 0)).toEqual(BLUE);
  });

  it('leaves what lies outside the image transparent', () => {
    const part = crop(sheet, { x: 2, y: 1, w: 2, h: 2 });
    expect(at(part, 0, 0)).toEqual(BLUE);
    expect(at(part, 1, 0)).toEqual(CLEAR);
    expect(at(part, 0, 1)).toEqual(CLEAR);
    expect(crop(null, { x: 0, y: 0, w: 1, h: 1 }).data).toEqual(new Uint8ClampedArray(4));
  });
});

describe('differenceImage', () => {
  it('paints changed pixels magenta over a faint grey copy of the base, transparent staying transparent', () => {
    const before = image(3, 1, CLEAR, [
      [0, 0, RED],
      [1, 0, RED],
    ]);
    const after = image(3, 1, CLEAR, [
      [0, 0, RED],
      [1, 0, BLUE],
    ]);
    const diff = differenceImage(changeMask(before, after), after);
    expect(at(diff, 1, 0)).toEqual([255, 0, 255, 255]);
    const [r, g, b, a] = at(diff, 0, 0);
    expect(r).toBe(g);
    expect(g).toBe(b);
    expect(a).toBeGreaterThan(0);
    expect(a).toBeLessThan(255);
    expect(at(diff, 2, 0)).toEqual(CLEAR);
  });
});

describe('zoomToFit', () => {
  it('zooms small images by the largest whole number that fits', () => {
    expect(zoomToFit({ w: 32, h: 32 }, 160)).toBe(5);
    expect(zoomToFit({ w: 128, h: 64 }, 320)).toBe(2);
    expect(zoomToFit({ w: 300, h: 10 }, 320)).toBe(1);
  });

  it('shrinks images larger than the box', () => {
    expect(zoomToFit({ w: 640, h: 100 }, 320)).toBe(0.5);
  });
});
