import { useEffect, useState } from 'react';
import type { MaterialEntry } from '../../schemas/material';
import type { Api } from '../api/client';
import { formatBytes } from '../diff/FileDiff';

const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|ico)$/i;

/** A binary file: its before and after images side by side, or their sizes when it is not an image. */
export function BinaryView({ entry, api }: { entry: MaterialEntry; api: Api }) {
  const isImage = IMAGE.test(entry.ref);
  const before = entry.before ? api.blobPath(entry.before) : null;
  const after = entry.status === 'deleted' ? null : api.afterPath(entry.ref);
  if (!isImage) {
    return (
      <p className="inv-file-message">
        Binary file{entry.bytes != null ? `, ${formatBytes(entry.bytes)} after the change` : ''}.
        {entry.before ? ` The before copy is kept in .review/${entry.before}.` : ''}
      </p>
    );
  }
  return (
    <div className="inv-images">
      {/* `bytes` is the size of the side that exists last: the before side for a deleted file. */}
      <Side
        label="before"
        path={before}
        none={entry.status === 'added' ? 'did not exist' : 'no before copy kept'}
        size={entry.before_size}
        api={api}
        bytes={entry.status === 'deleted' ? (entry.bytes ?? undefined) : undefined}
      />
      <Side
        label="after"
        path={after}
        none="deleted"
        size={entry.size}
        api={api}
        bytes={entry.status === 'deleted' ? undefined : (entry.bytes ?? undefined)}
      />
    </div>
  );
}

/** `none` says why a side has no image (e.g. the since-last view keeps no before copy of a binary). */
function Side({
  label,
  path,
  none,
  size,
  api,
  bytes,
}: {
  label: string;
  path: string | null;
  none: string;
  size?: { w: number; h: number };
  api: Api;
  bytes?: number;
}) {
  const url = useObjectUrl(api, path);
  return (
    <figure className="inv-image-side">
      <figcaption>
        {label}
        {size ? ` · ${size.w}×${size.h}` : ''}
        {bytes != null ? ` · ${formatBytes(bytes)}` : ''}
      </figcaption>
      {path === null ? (
        <div className="inv-image-none">{none}</div>
      ) : url.error ? (
        <div className="inv-image-none">{url.error}</div>
      ) : url.value ? (
        <img className="inv-checkerboard" src={url.value} alt={`${label} image`} />
      ) : (
        <div className="inv-image-none">loading…</div>
      )}
    </figure>
  );
}

/** Loads bytes through the API (an <img src> cannot send the token) as an object URL, freed on unmount. */
export function useObjectUrl(api: Api, path: string | null): { value?: string; error?: string } {
  const [state, setState] = useState<{ value?: string; error?: string }>({});
  useEffect(() => {
    if (!path) return;
    let url: string | undefined;
    let live = true;
    api.objectUrl(path).then(
      (u) => {
        url = u;
        if (live) setState({ value: u });
        else URL.revokeObjectURL(u);
      },
      (error: Error) => live && setState({ error: error.message }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, path]);
  return state;
}
