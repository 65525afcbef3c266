import { isAscii, isUtf8 } from 'node:buffer';
import type { MaterialEntry } from '../../schemas/material';
import { withDiffText, type BuiltEntry } from './entry';
import type { MaterialFile } from './material-file';
import { countLines, newLineCounts, type LineCounts } from '../git/diff';

/**
 * Writes one entry as `indent(JSON.stringify(entry, null, 2))` would, but without
 * running the indent's regular expression over the diff (most of a material's bytes)
 * or building the whole text: the entry is serialized with a stand-in for its diff,
 * indented, and written around the diff's own JSON, which is escaped straight from git's
 * bytes when they are UTF-8 (see `jsonEscape`). The diff's JSON has no line terminator to
 * indent after, unless it holds U+2028 or U+2029, which JSON.stringify leaves as they are;
 * such an entry, and one whose diff is not UTF-8, takes the plain way.
 */
export function writeEntry(out: MaterialFile, built: BuiltEntry): void {
  const hunks = built.hunks && escapable(built.hunks);
  const around = hunks ? aroundDiff(built.entry) : null;
  if (around && built.uncounted) {
    // Its lines are counted as they are escaped, and the counts, which follow the diff, filled in.
    out.write(around[0]);
    const lines = newLineCounts();
    out.writeJsonString(hunks!, lines);
    setCounts(built, lines);
    out.write(withCounts(around[1], lines));
    return;
  }
  if (around) {
    out.write(around[0]);
    out.writeJsonString(hunks!);
    out.write(around[1]);
    return;
  }
  if (built.uncounted) setCounts(built, countLines(built.hunks!));
  for (const piece of entryPieces(withDiffText(built))) out.write(piece);
}

function setCounts(built: BuiltEntry, { additions, deletions }: { additions: number; deletions: number }): void {
  built.entry.additions = additions;
  built.entry.deletions = deletions;
  built.uncounted = false;
}

/** The entry's text after its diff, its stand-in counts (`0`, the last two fields) replaced by the real ones. */
function withCounts(after: string, { additions, deletions }: LineCounts): string {
  const added = after.lastIndexOf(ADDITIONS_STAND_IN);
  const deleted = after.lastIndexOf(DELETIONS_STAND_IN);
  if (added === -1 || deleted < added) throw new Error('material.json: an entry has no line counts to fill in');
  return (
    after.slice(0, added) +
    `"additions": ${additions}` +
    after.slice(added + ADDITIONS_STAND_IN.length, deleted) +
    `"deletions": ${deletions}` +
    after.slice(deleted + DELETIONS_STAND_IN.length)
  );
}

const ADDITIONS_STAND_IN = '"additions": 0';
const DELETIONS_STAND_IN = '"deletions": 0';

/** The text of one entry in material.json, in pieces (see `writeEntry`); joined, `indent(JSON.stringify(entry, null, 2))`. */
export function entryPieces(entry: MaterialEntry): string[] {
  const diff = entry.diff;
  // JavaScript's multiline `^` also matches after U+2028 and U+2029 (\n and \r are escaped in JSON).
  const around = typeof diff === 'string' && !diff.includes('\u2028') && !diff.includes('\u2029') ? aroundDiff(entry) : null;
  return around ? [around[0], JSON.stringify(diff), around[1]] : [indent(JSON.stringify(entry, null, 2))];
}

/** Stands in for an entry's diff while the rest of it is serialized and indented. */
const DIFF_STAND_IN = 0;
const DIFF_STAND_IN_TEXT = '\n      "diff": 0,';

/** The entry's text before and after its diff's JSON. */
function aroundDiff(entry: MaterialEntry): [string, string] | null {
  const text = indent(JSON.stringify({ ...entry, diff: DIFF_STAND_IN }, null, 2));
  const at = text.indexOf(DIFF_STAND_IN_TEXT);
  if (at === -1) return null;
  const cut = at + DIFF_STAND_IN_TEXT.length - 2;
  return [text.slice(0, cut), text.slice(cut + 1)];
}

/**
 * `json.replace(/^/gm, '    ')`: four spaces at the start and after every line terminator.
 * JSON.stringify leaves only structural \n raw, and U+2028/U+2029 inside strings; without
 * those two (and \r), a plain replace of \n gives the same text, without a regular expression.
 */
function indent(json: string): string {
  if (json.includes('\u2028') || json.includes('\u2029') || json.includes('\r')) return json.replace(/^/gm, '    ');
  return `    ${json.replaceAll('\n', '\n    ')}`;
}

const LINE_SEPARATOR = Buffer.from('\u2028');
const PARAGRAPH_SEPARATOR = Buffer.from('\u2029');

/**
 * A diff's pieces if its bytes can be escaped as they are: UTF-8 holding neither U+2028 nor
 * U+2029 (pieces of ASCII as they come; else joined, as a character may straddle two); null otherwise.
 */
function escapable(pieces: Buffer[]): Buffer[] | null {
  if (pieces.every((piece) => isAscii(piece))) return pieces;
  const hunks = Buffer.concat(pieces);
  return isUtf8(hunks) && !hunks.includes(LINE_SEPARATOR) && !hunks.includes(PARAGRAPH_SEPARATOR) ? [hunks] : null;
}
