/**
 * Decodes the two sides of an image to their exact RGBA values and compares them, off the
 * page's thread: a pair of 4096×4096 images is 128 MB of pixels to read back and 16 million
 * to compare, which on the page would freeze scrolling for a good part of a second.
 */
import { changeMask, MAX_COMPARED_PIXELS, type ChangeMask, type Pixels, type Size } from '../../model/pixels';

/** One side, decoded: its size (null: the browser could not decode it) and its pixels (null: too large to compare). */
export interface Decoded {
  size: Size | null;
  pixels: Pixels | null;
}

export interface DecodeRequest {
  id: number;
  /** Before and after; null for a side that does not exist. */
  blobs: [Blob | null, Blob | null];
  /** Whether to compare them (not when a side that exists could not be fetched). */
  compare: boolean;
}

/** First the sizes (the page shows the images), then the pixels and which of them differ. */
export type DecodeAnswer =
  | { id: number; kind: 'sizes'; sizes: [Size | null | undefined, Size | null | undefined] }
  | {
      id: number;
      kind: 'pixels';
      sides: [Decoded | null, Decoded | null];
      /** Null when not asked, or when a side that exists has no pixels to compare. */
      mask: ChangeMask | null;
    }
  | { id: number; kind: 'error'; error: string };

/** No colour-space conversion and no premultiplication on decode, so two copies of the same pixel read back as the same bytes. */
const EXACT: ImageBitmapOptions = { premultiplyAlpha: 'none', colorSpaceConversion: 'none' };

self.onmessage = async (event: MessageEvent<DecodeRequest>) => {
  const { id, blobs, compare } = event.data;
  // undefined: the side does not exist; null: the browser could not decode it.
  let bitmaps: Array<ImageBitmap | null | undefined> = [];
  try {
    bitmaps = await Promise.all(
      blobs.map(async (blob) => (blob ? createImageBitmap(blob, EXACT).catch(() => null) : undefined)),
    );
    const sizeOf = (b: ImageBitmap | null | undefined) => (b ? { w: b.width, h: b.height } : b);
    post({ id, kind: 'sizes', sizes: [sizeOf(bitmaps[0]), sizeOf(bitmaps[1])] });
    const sides: [Decoded | null, Decoded | null] = [read(bitmaps[0]), read(bitmaps[1])];
    const comparable = compare && sides.every((side) => side === null || side.pixels !== null);
    const mask = comparable ? changeMask(sides[0]?.pixels ?? null, sides[1]?.pixels ?? null) : null;
    const buffers = [...sides.map((side) => side?.pixels?.data.buffer), mask?.changed.buffer];
    post({ id, kind: 'pixels', sides, mask }, buffers);
  } catch (error) {
    // Out of memory for a huge image, say: the page says so instead of waiting forever.
    post({ id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
  } finally {
    for (const bitmap of bitmaps) bitmap?.close();
  }
};

function post(answer: DecodeAnswer, buffers: Array<ArrayBufferLike | undefined> = []): void {
  postMessage(answer, { transfer: buffers.filter((buffer) => buffer !== undefined) });
}

/** A side's exact RGBA values (null: no such side), unless it could not be decoded or is too large to compare. */
function read(bitmap: ImageBitmap | null | undefined): Decoded | null {
  if (bitmap === undefined) return null;
  if (bitmap === null) return { size: null, pixels: null };
  const size = { w: bitmap.width, h: bitmap.height };
  if (size.w * size.h > MAX_COMPARED_PIXELS || size.w * size.h === 0) return { size, pixels: null };
  const context = new OffscreenCanvas(size.w, size.h).getContext('2d', { willReadFrequently: true });
  if (!context) return { size, pixels: null };
  context.drawImage(bitmap, 0, 0);
  const data = context.getImageData(0, 0, size.w, size.h);
  return { size, pixels: { width: data.width, height: data.height, data: data.data } };
}
