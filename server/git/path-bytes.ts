import { isUtf8 } from 'node:buffer';

/**
 * A path as git printed it, as text: its UTF-8, with each byte that is not part of valid
 * UTF-8 drawn as a visible `⟨0xE9⟩` marker instead of U+FFFD, so two names that differ only
 * in such bytes stay two names (and two entries, two note keys). `bytes` is set, with the
 * exact bytes, only for such a path: git is asked about it by those, never by the text.
 */
export function pathFromGit(raw: Buffer): { text: string; bytes?: Buffer } {
  if (isUtf8(raw)) return { text: raw.toString('utf8') };
  let text = '';
  let start = 0;
  for (let at = 0; at < raw.length;) {
    const length = sequenceLength(raw, at);
    if (length > 0) {
      at += length;
      continue;
    }
    text += `${raw.subarray(start, at).toString('utf8')}⟨0x${raw[at]!.toString(16).toUpperCase().padStart(2, '0')}⟩`;
    at += 1;
    start = at;
  }
  return { text: text + raw.subarray(start).toString('utf8'), bytes: Buffer.from(raw) };
}

/** A path to hand to git: its exact bytes when the material keeps them (`*_base64`), else its text. */
export function pathForGit(text: string, base64: string | undefined): string | Buffer {
  return base64 === undefined ? text : Buffer.from(base64, 'base64');
}

/** `bytes` cut at each `separator` byte; the pieces share its memory. */
export function splitBytes(bytes: Buffer, separator: number): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(separator); end !== -1; end = bytes.indexOf(separator, start)) {
    parts.push(bytes.subarray(start, end));
    start = end + 1;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

/** Length of the valid UTF-8 sequence starting at `at`, or 0 when the byte there starts none. */
function sequenceLength(raw: Buffer, at: number): number {
  const lead = raw[at]!;
  if (lead < 0x80) return 1;
  const length =
    lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  return length > 0 && at + length <= raw.length && isUtf8(raw.subarray(at, at + length)) ? length : 0;
}
