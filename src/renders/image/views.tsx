import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { differenceImage, type ChangeMask, type Pixels, type Size } from '../../model/pixels';
import type { LoadedImage } from './useImage';

/** Both sides of one image, drawn at one zoom over a stage as large as the larger of the two. */
export interface PairProps {
  before: LoadedImage;
  after: LoadedImage;
  stage: Size;
  zoom: number;
  name: string;
}

/** Enlarged pixels stay square and sharp; shrunk images are smoothed so they stay legible. */
const crisp = (zoom: number) => (zoom > 1 ? ' inv-img-crisp' : '');

/** One image at `zoom`; the checkerboard behind it shows through transparent pixels. */
export function Picture({ image, size, zoom, alt }: { image: LoadedImage; size: Size; zoom: number; alt: string }) {
  return (
    <img
      className={`inv-img-picture${crisp(zoom)}`}
      src={image.url}
      alt={alt}
      style={{ width: size.w * zoom, height: size.h * zoom }}
    />
  );
}

/** Pixels computed in the viewer (a difference, a frame), drawn at `zoom` without smoothing. */
export function PixelCanvas({ pixels, zoom, label }: { pixels: Pixels; zoom: number; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = ref.current?.getContext('2d');
    if (!context || pixels.width === 0 || pixels.height === 0) return;
    context.putImageData(new ImageData(new Uint8ClampedArray(pixels.data), pixels.width, pixels.height), 0, 0);
  }, [pixels]);
  return (
    <canvas
      ref={ref}
      role="img"
      aria-label={label}
      width={pixels.width}
      height={pixels.height}
      className="inv-img-pixels inv-img-checker inv-img-crisp"
      style={{ width: pixels.width * zoom, height: pixels.height * zoom }}
    />
  );
}

export function SideBySide({ before, after, zoom, name }: PairProps) {
  return (
    <div className="inv-img-sides">
      {(['before', 'after'] as const).map((side) => {
        const image = side === 'before' ? before : after;
        return (
          <figure key={side} className="inv-img-side">
            <figcaption>{side}</figcaption>
            <div className="inv-img-checker inv-img-frame">
              {image.size && <Picture image={image} size={image.size} zoom={zoom} alt={`${name}, ${side}`} />}
            </div>
          </figure>
        );
      })}
    </div>
  );
}

export function Difference({ before, after, mask, zoom, name }: PairProps & { mask: ChangeMask }) {
  const pixels = useMemo(() => differenceImage(mask, after.pixels ?? before.pixels), [mask, after, before]);
  return (
    <figure className="inv-img-single">
      <PixelCanvas
        pixels={pixels}
        zoom={zoom}
        label={`${name}: the pixels that differ, in magenta, over the after image dimmed`}
      />
      <figcaption className="inv-img-legend">
        <span className="inv-img-swatch" aria-hidden="true" />
        {mask.count === 0
          ? 'No pixel differs: the two files differ only in their bytes (compression or metadata).'
          : `Magenta: the ${mask.count.toLocaleString('en')} ${mask.count === 1 ? 'pixel' : 'pixels'} that differ. Grey: the after image, dimmed.`}
      </figcaption>
    </figure>
  );
}

/** Two layers over one stage; `clip` and `opacity` style the after layer (and clip the before one to the rest). */
function Stack({
  before,
  after,
  stage,
  zoom,
  name,
  beforeStyle,
  afterStyle,
}: PairProps & { beforeStyle?: CSSProperties; afterStyle: CSSProperties }) {
  return (
    <div className="inv-img-stage inv-img-checker" style={{ width: stage.w * zoom, height: stage.h * zoom }}>
      <div className="inv-img-layer" style={beforeStyle}>
        {before.size && <Picture image={before} size={before.size} zoom={zoom} alt={`${name}, before`} />}
      </div>
      <div className="inv-img-layer" style={afterStyle}>
        {after.size && <Picture image={after} size={after.size} zoom={zoom} alt={`${name}, after`} />}
      </div>
    </div>
  );
}

export function Slider(props: PairProps) {
  const [at, setAt] = useState(50);
  return (
    <figure className="inv-img-single">
      <div className="inv-img-split-wrap">
        <Stack
          {...props}
          beforeStyle={{ clipPath: `inset(0 ${100 - at}% 0 0)` }}
          afterStyle={{ clipPath: `inset(0 0 0 ${at}%)` }}
        />
        <div className="inv-img-split" style={{ left: `${at}%` }} aria-hidden="true" />
      </div>
      <BeforeAfterRange value={at} onChange={setAt} label="Slider: before left of the line, after right of it" />
    </figure>
  );
}

export function Onion(props: PairProps) {
  const [opacity, setOpacity] = useState(50);
  return (
    <figure className="inv-img-single">
      <Stack {...props} afterStyle={{ opacity: opacity / 100 }} />
      <BeforeAfterRange
        value={opacity}
        onChange={setOpacity}
        label="Onion skin: opacity of the after image over the before"
      />
    </figure>
  );
}

/** A 0–100 range between the words "before" and "after": how far a view leans to either image. */
function BeforeAfterRange({ value, onChange, label }: { value: number; onChange: (v: number) => void; label: string }) {
  return (
    <label className="inv-img-range">
      <span>before</span>
      <input
        type="range"
        min={0}
        max={100}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-label={label}
      />
      <span>after</span>
    </label>
  );
}
