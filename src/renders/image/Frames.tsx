import { useMemo } from 'react';
import { outsideItem, outsideSentence, rectText, sizeText } from '../../../schemas/drawing-faults';
import type { ImageFrame } from '../../../schemas/renders/image';
import {
  changeMask,
  compareFrames,
  crop,
  differenceImage,
  zoomToFit,
  type ChangeMask,
  type FrameChange,
  type FrameOutside,
  type Pixels,
  type Size,
} from '../../model/pixels';
import type { LoadedImage } from './useImage';
import { PixelCanvas } from './views';

/** Frames drawn in full; past this many changed frames the rest are listed by name (a sheet of 500 redrawn frames is a list, not a wall). */
const DRAWN_FRAMES = 48;
/** A frame is zoomed by a whole number until it is about this many pixels across. */
const FRAME_BOX = 160;
const MAX_FRAME_ZOOM = 8;

interface Props {
  frames: ImageFrame[];
  before: LoadedImage | null;
  after: LoadedImage | null;
  /** Null while either side is loading or when the pixels could not be read. */
  mask: ChangeMask | null;
  /** Why one side is absent ("added", "deleted", …), when it is. */
  missing: { side: 'before' | 'after'; why: string } | null;
  loading: boolean;
}

/** The sprite-sheet view: only the frames whose pixels changed, each zoomed; the rest counted; the impossible ones named. */
export function Frames({ frames, before, after, mask, missing, loading }: Props) {
  const beforeSize = before?.size ?? null;
  const afterSize = after?.size ?? null;
  const sizes = { before: beforeSize, after: afterSize };
  const report = useMemo(
    () => (mask ? compareFrames(frames, mask, { before: beforeSize, after: afterSize }) : null),
    [mask, frames, beforeSize, afterSize],
  );
  const n = frames.length;
  return (
    <section className="inv-frames" aria-label="Frames">
      <h4>Frames: {n} listed on the card</h4>
      {loading ? (
        <p className="inv-frames-note">Reading the pixels…</p>
      ) : !report ? (
        <p className="inv-frames-note">
          The frames could not be compared: the image could not be decoded or is larger than 4096×4096 pixels.
        </p>
      ) : missing ? (
        <p className="inv-frames-note">
          This image was {missing.why}: there is no {missing.side} image, so its frames have nothing to compare against.
        </p>
      ) : (
        <Compared report={report} before={before!} after={after!} sizes={sizes} />
      )}
      {report && report.outside.length > 0 && <Outside outside={report.outside} sizes={sizes} />}
    </section>
  );
}

function Compared({
  report,
  before,
  after,
  sizes,
}: {
  report: ReturnType<typeof compareFrames<ImageFrame>>;
  before: LoadedImage;
  after: LoadedImage;
  sizes: Record<'before' | 'after', Size | null>;
}) {
  const compared = report.changed.length + report.unchanged.length;
  const drawn = report.changed.slice(0, DRAWN_FRAMES);
  const listed = report.changed.slice(DRAWN_FRAMES);
  return (
    <>
      <p className="inv-frames-changed">
        {report.changed.length === 0
          ? 'No frame changed.'
          : `${report.changed.length} ${report.changed.length === 1 ? 'frame' : 'frames'} changed:`}
      </p>
      <div className="inv-frames-list">
        {drawn.map((change, i) => (
          <ChangedFrame key={i} change={change} before={before.pixels!} after={after.pixels!} sizes={sizes} />
        ))}
      </div>
      {listed.length > 0 && (
        <p className="inv-frames-note">
          {listed.length} more changed, not drawn:{' '}
          {listed.map((c) => `${c.frame.name} (${pixelCount(c.changed)})`).join(', ')}.
        </p>
      )}
      <details className="inv-frames-unchanged">
        <summary>
          {report.unchanged.length} of {compared} frames unchanged
        </summary>
        <p>{report.unchanged.map((f) => f.name).join(', ') || 'none'}</p>
      </details>
      {report.changedOutsideFrames > 0 && (
        <p className="inv-frames-note" role="note">
          {pixelCount(report.changedOutsideFrames)} changed outside every frame: the frames list does not cover all of
          the change.
        </p>
      )}
    </>
  );
}

function ChangedFrame({
  change,
  before,
  after,
  sizes,
}: {
  change: FrameChange<ImageFrame>;
  before: Pixels;
  after: Pixels;
  sizes: Record<'before' | 'after', Size | null>;
}) {
  const { frame } = change;
  const tiles = useMemo(() => {
    const b = crop(before, frame);
    const a = crop(after, frame);
    return { before: b, after: a, difference: differenceImage(changeMask(b, a), a) };
  }, [before, after, frame]);
  const zoom = Math.min(MAX_FRAME_ZOOM, zoomToFit(frame, FRAME_BOX));
  return (
    <figure className="inv-frame" aria-label={`Frame ${frame.name}`}>
      <figcaption>
        <strong className="inv-frame-name">{frame.name}</strong>
        <span className="inv-frame-count">
          {pixelCount(change.changed)} changed of {(frame.w * frame.h).toLocaleString('en')}
        </span>
        <span className="inv-frame-where">{rectText(frame)}</span>
      </figcaption>
      <div className="inv-frame-tiles">
        <Tile label="before" pixels={tiles.before} zoom={zoom} name={frame.name} />
        <span className="inv-frame-arrow" aria-hidden="true">
          →
        </span>
        <Tile label="after" pixels={tiles.after} zoom={zoom} name={frame.name} />
        <Tile label="changed pixels" pixels={tiles.difference} zoom={zoom} name={frame.name} />
      </div>
      {change.beyond.map((side) => (
        <p key={side} className="inv-frames-note">
          Partly outside the {side} image ({sizeText(sizes[side])}): counted as transparent there.
        </p>
      ))}
    </figure>
  );
}

function Tile({ label, pixels, zoom, name }: { label: string; pixels: Pixels; zoom: number; name: string }) {
  return (
    <div className="inv-frame-tile">
      <PixelCanvas pixels={pixels} zoom={zoom} label={`Frame ${name}, ${label}`} />
      <span>{label}</span>
    </div>
  );
}

function Outside({
  outside,
  sizes,
}: {
  outside: FrameOutside<ImageFrame>[];
  sizes: Record<'before' | 'after', Size | null>;
}) {
  return (
    <div className="inv-frames-outside" role="note">
      <p>{outsideSentence(outside.length)}</p>
      <ul>
        {outside.map((item, i) => (
          <li key={i}>{outsideItem(item, sizes)}</li>
        ))}
      </ul>
    </div>
  );
}

export function pixelCount(n: number): string {
  return `${n.toLocaleString('en')} ${n === 1 ? 'pixel' : 'pixels'}`;
}
