import { useState } from 'react';
import type { Entry } from '../../model/entry';
import type { ImageFrame } from '../../../schemas/renders/image';
import type { Api } from '../../api/client';
import { formatBytes } from '../../model/bytes';
import { zoomToFit, type ChangeMask, type Size } from '../../model/pixels';
import { sizeText } from '../../../schemas/drawing-faults';
import { Frames, pixelCount } from './Frames';
import { useImages, type ImageState, type LoadedImage } from './useImage';
import { Difference, Onion, Picture, SideBySide, Slider, type PairProps } from './views';

type Missing = { side: 'before' | 'after'; why: string } | null;

const MODES = { side: 'Side by side', difference: 'Difference', slider: 'Slider', onion: 'Onion skin' } as const;
type Mode = keyof typeof MODES;

/** Whole images are zoomed by a whole number until the larger one is about this wide, and no more than MAX_ZOOM. */
const IMAGE_BOX = 400;
const MAX_ZOOM = 8;

/** One image of the card: what each side is, then the comparison, then its frames when the card lists them. */
export function ImageCompare({
  entry,
  api,
  frames,
  inFile = false,
}: {
  entry: Entry;
  api: Api;
  frames: ImageFrame[] | undefined;
  /** Drawn under its file's own header (Raw): the file's name and status are not repeated. Default false. */
  inFile?: boolean;
}) {
  const missing = missingSide(entry);
  // Pixels are compared once every side that exists has been read; a side that failed leaves nothing to compare.
  const {
    before: beforeState,
    after: afterState,
    mask,
    comparing,
  } = useImages(
    api,
    entry.before && missing?.side !== 'before' ? api.blobPath(entry.before) : null,
    missing?.side === 'after' ? null : api.afterPath(entry.ref),
    [entry.before_size, entry.size],
  );
  const before = ready(beforeState);
  const after = ready(afterState);
  const stage: Size = {
    w: Math.max(before?.size?.w ?? 0, after?.size?.w ?? 0),
    h: Math.max(before?.size?.h ?? 0, after?.size?.h ?? 0),
  };
  const [chosenZoom, setZoom] = useState<number | null>(null);
  const fit = Math.min(MAX_ZOOM, zoomToFit(stage, IMAGE_BOX));
  const zoom = chosenZoom ?? fit;
  const loading = beforeState?.state === 'loading' || afterState?.state === 'loading' || comparing;
  const shown = after || !beforeState ? 'after' : 'before';

  return (
    <section className="inv-img" aria-label={`Image ${entry.ref}`}>
      <header className="inv-img-head">
        {!inFile && (
          <>
            <h3>
              <code>{entry.ref}</code>
            </h3>
            <span className={`inv-img-status inv-img-status-${entry.status}`}>{entry.status}</span>
          </>
        )}
        <Facts
          label="before"
          state={beforeState}
          known={entry.before_size}
          absent={missing?.side === 'before' ? (entry.status === 'added' ? 'did not exist' : 'no copy kept') : null}
        />
        <span aria-hidden="true">→</span>
        <Facts
          label="after"
          state={afterState}
          known={entry.size}
          absent={missing?.side === 'after' ? 'deleted' : null}
        />
        {mask && before && after && (
          <span className="inv-img-differ">
            {pixelCount(mask.count)} of {(stage.w * stage.h).toLocaleString('en')} differ
          </span>
        )}
      </header>
      {before && after ? (
        <Comparison pair={{ before, after, stage, zoom, name: entry.ref }} mask={mask} fit={fit} onZoom={setZoom} />
      ) : (
        <OneSide
          state={shown === 'before' ? beforeState : afterState}
          label={shown}
          missing={missing}
          zoom={zoom}
          name={entry.ref}
        />
      )}
      {frames && frames.length > 0 && (
        <Frames frames={frames} before={before} after={after} mask={mask} missing={missing} loading={loading} />
      )}
    </section>
  );
}

function missingSide(entry: Entry): Missing {
  if (entry.status === 'added') return { side: 'before', why: 'added in this round' };
  if (entry.status === 'deleted') return { side: 'after', why: 'deleted in this round' };
  if (!entry.before) return { side: 'before', why: 'captured without a before copy' };
  return null;
}

function ready(state: ImageState | null): LoadedImage | null {
  return state?.state === 'ready' ? state.image : null;
}

function Comparison({
  pair,
  mask,
  fit,
  onZoom,
}: {
  pair: PairProps;
  mask: ChangeMask | null;
  fit: number;
  onZoom: (z: number) => void;
}) {
  const [mode, setMode] = useState<Mode>('side');
  const comparable = mask !== null;
  const { zoom } = pair;
  return (
    <>
      <div className="inv-img-tools">
        <div className="inv-img-modes" role="group" aria-label={`How to compare ${pair.name}`}>
          {(Object.keys(MODES) as Mode[]).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              disabled={m === 'difference' && !comparable}
              onClick={() => setMode(m)}
            >
              {MODES[m]}
            </button>
          ))}
        </div>
        <div className="inv-img-zoom" role="group" aria-label="Zoom">
          <button
            type="button"
            aria-label="Zoom out"
            disabled={zoom <= Math.min(1, fit)}
            onClick={() => onZoom(zoom > 1 ? Math.ceil(zoom) - 1 : Math.min(1, fit))}
          >
            −
          </button>
          <output aria-label="Zoom level">{zoom >= 1 ? `${zoom}×` : `${Math.round(zoom * 100)}%`}</output>
          <button type="button" aria-label="Zoom in" disabled={zoom >= 16} onClick={() => onZoom(Math.floor(zoom) + 1)}>
            +
          </button>
        </div>
      </div>
      {mode === 'side' && <SideBySide {...pair} />}
      {mode === 'difference' && mask && <Difference {...pair} mask={mask} />}
      {mode === 'slider' && <Slider {...pair} />}
      {mode === 'onion' && <Onion {...pair} />}
    </>
  );
}

function Facts({
  label,
  state,
  known,
  absent,
}: {
  label: string;
  state: ImageState | null;
  known: Size | undefined;
  absent: string | null;
}) {
  let text: string;
  if (absent !== null) text = absent;
  else if (!state || state.state === 'loading') text = known ? `${sizeText(known)} px · loading…` : 'loading…';
  else if (state.state === 'failed') text = state.message;
  else
    text = `${state.image.size ? `${sizeText(state.image.size)} px` : 'not decodable'} · ${formatBytes(state.image.bytes)}`;
  return (
    <span className="inv-img-facts" data-side={label}>
      <span className="inv-img-side-label">{label}</span> {text}
    </span>
  );
}

/** An added or deleted image (or one whose other side could not be loaded): the side there is. */
function OneSide({
  state,
  label,
  missing,
  zoom,
  name,
}: {
  state: ImageState | null;
  label: 'before' | 'after';
  missing: Missing;
  zoom: number;
  name: string;
}) {
  const image = ready(state);
  return (
    <figure className="inv-img-single">
      <figcaption className="inv-img-legend">
        {missing
          ? `Only the ${label} image exists: this file was ${missing.why}.`
          : `Only the ${label} image could be shown.`}
      </figcaption>
      {image?.size ? (
        <div className="inv-img-checker inv-img-frame">
          <Picture image={image} size={image.size} zoom={zoom} alt={`${name}, ${label}`} />
        </div>
      ) : (
        <p className="inv-frames-note">
          {state?.state === 'failed'
            ? state.message
            : state?.state === 'loading'
              ? 'Loading…'
              : 'The browser could not decode this image.'}
        </p>
      )}
    </figure>
  );
}
