import type { Entry } from '../model/entry';
import type { Api } from '../api/client';
import { formatBytes } from '../model/bytes';
import { ImageCompare } from '../renders/image/ImageCompare';

const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|ico)$/i;

/** A binary file: its before and after images compared, or its size when it is not an image. */
export function BinaryView({ entry, api }: { entry: Entry; api: Api }) {
  const isImage = IMAGE.test(entry.ref);
  if (!isImage) {
    return (
      <p className="inv-file-message">
        Binary file{entry.bytes != null ? `, ${formatBytes(entry.bytes)} after the change` : ''}.
        {entry.before ? ` The before copy is kept in .review/${entry.before}.` : ''}
      </p>
    );
  }
  // The same comparison as a card's image drawing: side by side, difference, slider, onion skin.
  return (
    <div className="inv-img-render inv-img-raw">
      <ImageCompare entry={entry} api={api} frames={undefined} inFile />
    </div>
  );
}
