import { parseNoteKey, type Side } from './note-keys';

/** Where the reader is, as the URL fragment says it beside the session token. */
export interface Place {
  mode?: 'cards' | 'raw';
  /** The selected card's id (Cards mode). */
  card?: string;
  /** The file shown (Raw mode). */
  file?: string;
  /** The line chosen in that file. */
  line?: { side: Side; number: number };
}

/** Reads `#token=…&mode=raw&file=src%2Fa.ts&line=%2B12` (every part optional; anything malformed is left out). */
export function parsePlace(hash: string): Place {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const place: Place = {};
  const mode = params.get('mode');
  if (mode === 'cards' || mode === 'raw') place.mode = mode;
  const card = params.get('card');
  if (card) place.card = card;
  const file = params.get('file');
  if (file) place.file = file;
  const line = /^([+-])(\d+)$/.exec(params.get('line') ?? '');
  if (file && line && Number(line[2]) > 0) place.line = { side: line[1] as Side, number: Number(line[2]) };
  return place;
}

/** The fragment for a place: the token first (the viewer needs it to talk to its server), then what is set. */
export function formatPlace(token: string, place: Place): string {
  const params = new URLSearchParams();
  if (token) params.set('token', token);
  if (place.mode) params.set('mode', place.mode);
  if (place.card) params.set('card', place.card);
  if (place.file) params.set('file', place.file);
  if (place.file && place.line) params.set('line', `${place.line.side}${place.line.number}`);
  return `#${params.toString()}`;
}

/** The place a note is about: its card, its file, or its line. */
export function placeOfNote(key: string): Place {
  const target = parseNoteKey(key);
  if (target.kind === 'card') return { mode: 'cards', card: target.id };
  if (target.kind === 'file') return { mode: 'raw', file: target.ref };
  return { mode: 'raw', file: target.ref, line: { side: target.side, number: target.line } };
}

/**
 * A viewer URL (`http://…/#token=…`) pointed at a place, without the session token: a link
 * is pasted into prompts and logs, and the browser that opened the viewer keeps the token.
 */
export function linkTo(viewerUrl: string, place: Place): string {
  const url = new URL(viewerUrl);
  url.hash = formatPlace('', place);
  return url.toString();
}
