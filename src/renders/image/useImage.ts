import { useEffect, useState } from 'react';
import type { Api } from '../../api/client';
import type { ChangeMask, Pixels, Size } from '../../model/pixels';
import type { DecodeAnswer, DecodeRequest, Decoded } from './decode.worker';

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

export interface ImagePair {
  /** Null for a side that does not exist. */
  before: ImageState | null;
  after: ImageState | null;
  /** Which pixels differ, once both sides are read; null while loading or when a side has no pixels. */
  mask: ChangeMask | null;
  /** The sides are shown, their pixels still being read and compared. */
  comparing: boolean;
}

/**
 * Loads the two sides of an image with the session token (a null path is a side that does
 * not exist), then decodes and compares them in a worker (decode.worker.ts): the sides are
 * shown once their sizes are known (at once when the material names them), the comparison
 * follows. The object URLs are freed on unmount.
 */
export function useImages(
  api: Api,
  beforePath: string | null,
  afterPath: string | null,
  /** The sizes the material gives each side, read from the files' headers; the decoded sizes replace them. */
  known: [Size | undefined, Size | undefined] = [undefined, undefined],
): ImagePair {
  const [pair, setPair] = useState<ImagePair>(() => loading(beforePath, afterPath));
  const [knownBefore, knownAfter] = known;
  const { w: beforeW, h: beforeH } = knownBefore ?? {};
  const { w: afterW, h: afterH } = knownAfter ?? {};
  useEffect(() => {
    setPair(loading(beforePath, afterPath));
    let live = true;
    const urls: string[] = [];
    const fetchSide = async (path: string | null): Promise<Fetched | { message: string } | null> => {
      if (!path) return null;
      try {
        const blob = await api.blob(path);
        const url = URL.createObjectURL(blob);
        if (live) urls.push(url);
        else URL.revokeObjectURL(url);
        return { blob, url };
      } catch (error) {
        return { message: (error as Error).message };
      }
    };
    const load = async () => {
      // Started while the bytes are fetched: its start-up is not added to the wait.
      decodingWorker();
      const fetched = await Promise.all([fetchSide(beforePath), fetchSide(afterPath)]);
      if (!live) return;
      const blobs = fetched.map((side) => (side && 'blob' in side ? side.blob : null)) as DecodeRequest['blobs'];
      const compare = fetched.every((side) => side === null || 'blob' in side);
      const show = (decoded: (i: number) => Decoded | null, failure: string | null): Array<ImageState | null> =>
        fetched.map((side, i) => {
          if (side === null) return null;
          if (!('blob' in side)) return { state: 'failed', message: side.message };
          if (failure !== null) return { state: 'failed', message: failure };
          const { size, pixels } = decoded(i) ?? { size: null, pixels: null };
          return { state: 'ready', image: { url: side.url, bytes: side.blob.size, size, pixels } };
        });
      const onSizes = (sizes: Array<Size | null | undefined>) => {
        if (!live) return;
        const [before, after] = show((i) => ({ size: sizes[i] ?? null, pixels: null }), null);
        setPair({ before: before ?? null, after: after ?? null, mask: null, comparing: compare });
      };
      const sizes: Array<Size | undefined> = [
        beforeW === undefined ? undefined : { w: beforeW, h: beforeH! },
        afterW === undefined ? undefined : { w: afterW, h: afterH! },
      ];
      if (fetched.every((side, i) => side === null || !('blob' in side) || sizes[i])) onSizes(sizes);
      try {
        const answer = await decodeInWorker(blobs, compare, onSizes);
        if (!live) return;
        const [before, after] = show((i) => answer.sides[i] ?? null, null);
        setPair({ before: before ?? null, after: after ?? null, mask: answer.mask, comparing: false });
      } catch (error) {
        if (!live) return;
        const [before, after] = show(() => null, (error as Error).message);
        setPair({ before: before ?? null, after: after ?? null, mask: null, comparing: false });
      }
    };
    // In a task of its own: the requests of a screenful of images do not lengthen the task that drew them.
    const timer = setTimeout(() => void load(), 0);
    return () => {
      clearTimeout(timer);
      live = false;
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [api, beforePath, afterPath, beforeW, beforeH, afterW, afterH]);
  return pair;
}

interface Fetched {
  blob: Blob;
  url: string;
}

function loading(beforePath: string | null, afterPath: string | null): ImagePair {
  return {
    before: beforePath ? { state: 'loading' } : null,
    after: afterPath ? { state: 'loading' } : null,
    mask: null,
    comparing: false,
  };
}

/** The decoding worker once started, and the answers it owes, by request. */
let worker: Worker | null = null;
let requests = 0;
interface Owed {
  onSizes: (sizes: Array<Size | null | undefined>) => void;
  resolve: (answer: Decoding) => void;
  reject: (error: Error) => void;
}
const owed = new Map<number, Owed>();
type Decoding = Extract<DecodeAnswer, { kind: 'pixels' }>;

/** The page's one decoding worker, started on first use (again after one that failed to start). */
function decodingWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module' });
  started.onmessage = (event: MessageEvent<DecodeAnswer>) => {
    const answer = event.data;
    const waiting = owed.get(answer.id);
    if (answer.kind === 'sizes') return waiting?.onSizes(answer.sizes);
    owed.delete(answer.id);
    if (answer.kind === 'error') waiting?.reject(new Error(`The image could not be read: ${answer.error}.`));
    else waiting?.resolve(answer);
  };
  // A worker that cannot start (blocked, not found) fails what it owes, and the next image starts another.
  started.onerror = (event) => {
    const error = new Error(`The image could not be read: ${event.message || 'its decoding worker did not start'}.`);
    for (const { reject } of owed.values()) reject(error);
    owed.clear();
    started.terminate();
    if (worker === started) worker = null;
  };
  worker = started;
  return started;
}

function decodeInWorker(blobs: DecodeRequest['blobs'], compare: boolean, onSizes: Owed['onSizes']): Promise<Decoding> {
  const target = decodingWorker();
  const id = ++requests;
  const request: DecodeRequest = { id, blobs, compare };
  return new Promise((resolve, reject) => {
    owed.set(id, { onSizes, resolve, reject });
    target.postMessage(request);
  });
}
