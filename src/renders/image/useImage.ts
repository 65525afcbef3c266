import { useEffect, useState } from 'react';
import type { Api } from '../../api/client';
import { MAX_COMPARED_PIXELS, type Pixels, type Size } from '../../model/pixels';

/** One side of an image, loaded: an object URL for <img>, its byte count, and its pixels when they could be read. */
export interface LoadedImage {
  url: string;
  bytes: number;
  /** Null when the browser could not decode the file. */
  size: Size | null;
  /** Null when the file could not be decoded or is too large to compare. */
  pixels: Pixels | null;
}

export type ImageState =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; image: LoadedImage };

/**
 * Loads the bytes at `path` with the session token and decodes them to RGBA in the browser.
 * Null `path` (the side that does not exist) stays null. The object URL is freed on unmount.
 */
export function useImage(api: Api, path: string | null): ImageState | null {
  const [state, setState] = useState<ImageState | null>(path ? { state: 'loading' } : null);
  useEffect(() => {
    if (!path) {
      setState(null);
      return;
    }
    setState({ state: 'loading' });
    let live = true;
    let url: string | undefined;
    load(api, path).then(
      (image) => {
        url = image.url;
        if (live) setState({ state: 'ready', image });
        else URL.revokeObjectURL(image.url);
      },
      (error: Error) => live && setState({ state: 'failed', message: error.message }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, path]);
  return state;
}

async function load(api: Api, path: string): Promise<LoadedImage> {
  const blob = await api.blob(path);
  const url = URL.createObjectURL(blob);
  const decoded = await decode(blob).catch(() => null);
  return { url, bytes: blob.size, size: decoded?.size ?? null, pixels: decoded?.pixels ?? null };
}

/**
 * The blob's exact RGBA values: no colour-space conversion and no premultiplication on
 * decode, so two copies of the same pixel read back as the same bytes.
 */
async function decode(blob: Blob): Promise<{ size: Size; pixels: Pixels | null }> {
  const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  try {
    const size = { w: bitmap.width, h: bitmap.height };
    if (size.w * size.h > MAX_COMPARED_PIXELS || size.w * size.h === 0) return { size, pixels: null };
    const canvas = document.createElement('canvas');
    canvas.width = size.w;
    canvas.height = size.h;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return { size, pixels: null };
    context.drawImage(bitmap, 0, 0);
    const data = context.getImageData(0, 0, size.w, size.h);
    return { size, pixels: { width: data.width, height: data.height, data: data.data } };
  } finally {
    bitmap.close();
  }
}
