import { useMemo } from 'react';
import type { Entry } from '../model/entry';
import type { ImagePayload } from '../../schemas/renders/image';
import type { RenderProps } from './registry';
import { ImageCompare } from './image/ImageCompare';

/** File names the browser can draw; other binaries are left to the diff below. */
const IMAGE = /\.(png|apng|jpe?g|gif|webp|avif|bmp|ico)$/i;

/** Whether the image render draws this file: a binary image; any other file keeps its diff beside the drawing. */
export function isDrawnImage(entry: Entry): boolean {
  return entry.binary && IMAGE.test(entry.ref);
}

/** The `image` render: every binary image the card names, before and after; with `frames`, the frames that changed. */
export function ImageDraw({ entries, api, data }: RenderProps<ImagePayload>) {
  // The payload is parsed anew on every render of the card (a keystroke in its note box);
  // keyed by content, the frames keep their identity and the pixels are not compared again.
  const framesKey = JSON.stringify(data?.frames ?? null);
  const frames = useMemo(() => data?.frames, [framesKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const images = entries.filter(isDrawnImage);
  const withheld = images.filter((entry) => entry.withheld);
  const shown = images.filter((entry) => !entry.withheld);
  if (images.length === 0) {
    return (
      <p className="inv-render-absent">
        This card names no image file (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO) to draw; the diff below shows the change.
      </p>
    );
  }
  return (
    <div className="inv-img-render">
      {shown.map((entry) => (
        <ImageCompare key={entry.ref} entry={entry} api={api} frames={frames} />
      ))}
      {withheld.map((entry) => (
        <p key={entry.ref} className="inv-render-absent">
          {entry.ref} is withheld by a privacy exclude: its pixels never leave git.
        </p>
      ))}
    </div>
  );
}
