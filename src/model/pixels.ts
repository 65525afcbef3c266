import { fits, type FrameOutside, type Side, type Size } from '../../schemas/drawing-faults';

export type { FrameOutside, Size };

/**
 * Pixel comparison for the image render: plain functions over RGBA bytes (the shape of a
 * canvas's ImageData), so every count the viewer shows is tested in Node.
 */

/** An RGBA image: 4 bytes a pixel, rows top to bottom, as `getImageData` returns it. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export interface Rect extends Size {
  x: number;
  y: number;
}

/** Which pixels differ between two images laid over each other at their top-left corners. */
export interface ChangeMask {
  width: number;
  height: number;
  /** 1 where the pixel differs, row by row over the larger of the two sizes. */
  changed: Uint8Array;
  count: number;
}

/** A frame whose pixels changed; `beyond` names the images it does not fit (compared as transparent there). */
export interface FrameChange<F> {
  frame: F;
  changed: number;
  beyond: Side[];
}

export interface FrameReport<F> {
  changed: FrameChange<F>[];
  unchanged: F[];
  outside: FrameOutside<F>[];
  /** Changed pixels that no compared frame covers: a change the frames list does not account for. */
  changedOutsideFrames: number;
}

/** Beyond this many pixels (4096×4096) the viewer shows the images but does not compare them. */
export const MAX_COMPARED_PIXELS = 4096 * 4096;

const MAGENTA = [255, 0, 255, 255] as const;
/** How much of the after image shows under the highlight: enough to place the change, not to compete with it. */
const DIM_ALPHA = 0.3;

export function pixels(width: number, height: number, data = new Uint8ClampedArray(width * height * 4)): Pixels {
  return { width, height, data };
}

/**
 * Compares two images pixel by pixel over the larger of their sizes. A pixel outside an
 * image (or a missing image) is transparent; two fully transparent pixels are the same
 * whatever their colour bytes, because nobody can see the difference.
 */
export function changeMask(before: Pixels | null, after: Pixels | null): ChangeMask {
  const width = Math.max(before?.width ?? 0, after?.width ?? 0);
  const height = Math.max(before?.height ?? 0, after?.height ?? 0);
  const changed = new Uint8Array(width * height);
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = offset(before, x, y);
      const b = offset(after, x, y);
      if (!samePixel(before, a, after, b)) {
        changed[y * width + x] = 1;
        count++;
      }
    }
  }
  return { width, height, changed, count };
}

/** Byte offset of (x, y) in `p`, or -1 when the pixel lies outside it. */
function offset(p: Pixels | null, x: number, y: number): number {
  if (!p || x >= p.width || y >= p.height) return -1;
  return (y * p.width + x) * 4;
}

function samePixel(p: Pixels | null, i: number, q: Pixels | null, j: number): boolean {
  const alphaP = i < 0 ? 0 : p!.data[i + 3]!;
  const alphaQ = j < 0 ? 0 : q!.data[j + 3]!;
  if (alphaP === 0 || alphaQ === 0) return alphaP === alphaQ;
  const a = p!.data;
  const b = q!.data;
  return a[i] === b[j] && a[i + 1] === b[j + 1] && a[i + 2] === b[j + 2] && alphaP === alphaQ;
}

/** Changed pixels of `mask` inside `rect` (the part of it within the mask). */
export function countIn(mask: ChangeMask, rect: Rect): number {
  const x1 = Math.min(mask.width, rect.x + rect.w);
  const y1 = Math.min(mask.height, rect.y + rect.h);
  let count = 0;
  for (let y = Math.max(0, rect.y); y < y1; y++) {
    for (let x = Math.max(0, rect.x); x < x1; x++) count += mask.changed[y * mask.width + x]!;
  }
  return count;
}

/**
 * Sorts the frames of a sheet into changed (with their changed-pixel counts), unchanged, and
 * outside every image. A frame that fits one image but not the other (the sheet grew or shrank)
 * is compared, the missing part counting as transparent.
 */
export function compareFrames<F extends Rect>(
  frames: F[],
  mask: ChangeMask,
  sizes: { before: Size | null; after: Size | null },
): FrameReport<F> {
  const report: FrameReport<F> = { changed: [], unchanged: [], outside: [], changedOutsideFrames: 0 };
  const sides = (['before', 'after'] as const).filter((side) => sizes[side] !== null);
  const covered = new Uint8Array(mask.width * mask.height);
  for (const frame of frames) {
    const beyond = sides.filter((side) => !fits(frame, sizes[side]!));
    if (beyond.length === sides.length) {
      report.outside.push({ frame, sides: beyond });
      continue;
    }
    cover(covered, mask.width, frame);
    const changed = countIn(mask, frame);
    if (changed > 0) report.changed.push({ frame, changed, beyond });
    else report.unchanged.push(frame);
  }
  for (let i = 0; i < mask.changed.length; i++) report.changedOutsideFrames += mask.changed[i]! & (covered[i]! ^ 1);
  return report;
}

function cover(covered: Uint8Array, width: number, rect: Rect): void {
  const height = covered.length / width;
  for (let y = rect.y; y < Math.min(height, rect.y + rect.h); y++)
    covered.fill(1, y * width + rect.x, y * width + Math.min(width, rect.x + rect.w));
}

/** The pixels of `rect` cut from `p`; whatever lies outside `p` (or all of it, when `p` is null) is transparent. */
export function crop(p: Pixels | null, rect: Rect): Pixels {
  const out = pixels(rect.w, rect.h);
  if (!p) return out;
  const x0 = Math.max(0, rect.x);
  const x1 = Math.min(p.width, rect.x + rect.w);
  if (x1 <= x0) return out;
  for (let y = Math.max(0, rect.y); y < Math.min(p.height, rect.y + rect.h); y++) {
    const from = (y * p.width + x0) * 4;
    out.data.set(p.data.subarray(from, from + (x1 - x0) * 4), ((y - rect.y) * rect.w + (x0 - rect.x)) * 4);
  }
  return out;
}

/**
 * The difference view: changed pixels in solid magenta over a faint grey copy of `base`
 * (the after image, or the before one when the file was deleted), so the eye goes to the change.
 */
export function differenceImage(mask: ChangeMask, base: Pixels | null): Pixels {
  const out = pixels(mask.width, mask.height);
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      const o = (y * mask.width + x) * 4;
      if (mask.changed[y * mask.width + x]) {
        out.data.set(MAGENTA, o);
        continue;
      }
      const i = offset(base, x, y);
      if (i < 0) continue;
      const d = base!.data;
      const grey = Math.round(0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!);
      out.data[o] = out.data[o + 1] = out.data[o + 2] = grey;
      out.data[o + 3] = Math.round(d[i + 3]! * DIM_ALPHA);
    }
  }
  return out;
}

/**
 * The zoom at which an image of `size` fits in a `box`-pixel square: the largest whole number
 * (so pixels stay square and crisp), or a fraction below 1 when the image is larger than the box.
 */
export function zoomToFit(size: Size, box: number): number {
  const longest = Math.max(size.w, size.h, 1);
  if (longest > box) return box / longest;
  return Math.max(1, Math.floor(box / longest));
}
