/**
 * Characters that change how text reads without being seen: direction controls (the
 * "Trojan Source" trick, where `if (access != "user") { // admin` reads otherwise than it
 * runs) and invisible ones (zero widths, joiners, the byte-order mark, tag characters).
 * The set follows GitHub's warnings for bidirectional and hidden Unicode text.
 */
const NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x206a: 'INHIBIT SYMMETRIC SWAPPING',
  0x206b: 'ACTIVATE SYMMETRIC SWAPPING',
  0x206c: 'INHIBIT ARABIC FORM SHAPING',
  0x206d: 'ACTIVATE ARABIC FORM SHAPING',
  0x206e: 'NATIONAL DIGIT SHAPES',
  0x206f: 'NOMINAL DIGIT SHAPES',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
};

/** Every such character, tag characters (U+E0000–U+E007F) included. */
// The class names each character by its code point; some are combining marks, which is the point.
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** A stretch of text, or one character to draw as a marker. */
export type Piece = string | { char: string; code: string; name: string; bidi: boolean };

export function hasInvisible(text: string): boolean {
  return countInvisible(text).count > 0;
}

// An emoji and the modifiers that may follow it, listed as code points.
// eslint-disable-next-line no-misleading-character-class
const PICTURE_BEFORE = /\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]*$/u;
const PICTURE_AFTER = /^\p{Extended_Pictographic}/u;

/** The characters to show, leaving out the joiners inside an emoji sequence (👩‍💻), which hide nothing. */
function* hidden(text: string): Generator<RegExpExecArray> {
  for (const match of text.matchAll(INVISIBLE)) {
    const at = match.index;
    const joinsPictures =
      match[0] === '\u200d' &&
      PICTURE_BEFORE.test(text.slice(Math.max(0, at - 8), at)) &&
      PICTURE_AFTER.test(text.slice(at + 1, at + 3));
    if (!joinsPictures) yield match;
  }
}

/** How many such characters `text` holds, and whether any of them controls direction. */
export function countInvisible(text: string): { count: number; bidi: boolean } {
  let count = 0;
  let bidi = false;
  for (const match of hidden(text)) {
    count += 1;
    if (isBidi(match[0].codePointAt(0)!)) bidi = true;
  }
  return { count, bidi };
}

/** Cuts `text` into plain stretches and the characters between them. */
export function splitInvisible(text: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const match of hidden(text)) {
    if (match.index > at) pieces.push(text.slice(at, match.index));
    pieces.push(describe(match[0]));
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}

/** `U+202E` and its name; a tag character is named by the ASCII it shadows. */
export function describe(char: string): { char: string; code: string; name: string; bidi: boolean } {
  const point = char.codePointAt(0)!;
  const code = `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
  const name =
    NAMES[point] ??
    (point >= 0xe0000 ? `TAG ${String.fromCodePoint(point - 0xe0000).replace(/[^ -~]/, '?')}` : 'INVISIBLE CHARACTER');
  return { char, code, name, bidi: isBidi(point) };
}

function isBidi(point: number): boolean {
  return (
    point === 0x061c ||
    point === 0x200e ||
    point === 0x200f ||
    (point >= 0x202a && point <= 0x202e) ||
    (point >= 0x2066 && point <= 0x2069)
  );
}

/** A sentence warning about the characters of `text`, or null when it has none. */
export function invisibleWarning(text: string, what: string): string | null {
  const { count, bidi } = countInvisible(text);
  if (count === 0) return null;
  const kind = bidi ? 'direction-control or invisible' : 'invisible';
  return `${what} ${count === 1 ? 'holds 1' : `holds ${count}`} ${kind} character${count === 1 ? '' : 's'}, shown as ⟨U+…⟩ markers: the text may read otherwise than it runs.`;
}
