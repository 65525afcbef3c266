import path from 'node:path';

/** Types a viewer can show as images; everything else is text or opaque bytes. */
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  // Served under a sandboxing CSP and nosniff, so a script inside an SVG never runs.
  '.svg': 'image/svg+xml',
};

/**
 * The content type of file bytes served to the viewer: images by extension, text
 * (never as HTML or script, whatever its extension) when the material says the file
 * is not binary, opaque bytes otherwise.
 */
export function contentTypeOf(file: string, text: boolean): string {
  const image = IMAGE_TYPES[path.extname(file).toLowerCase()];
  if (image) return image;
  return text ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}
