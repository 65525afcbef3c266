import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import type { Issue, RoundEntry, RoundIndex } from '../schemas/api';
import { Material, MaterialEntry } from '../schemas/material';
import { countLines } from '../src/model/diff-lines';
import type { DiffPlace } from './material-index';
import { depthOf, issuesOf, MAX_ISSUES, MAX_JSON_DEPTH } from './review-files';

/** Diffs shorter than this (in characters) are kept in memory; longer ones are read from the file when asked for. */
const KEEP_CHARS = 1024;

/** What one pass over material.json found. */
export type MaterialRead =
  | { kind: 'ok'; data: RoundIndex; places: DiffPlace[]; hash: string }
  | { kind: 'invalid-schema'; issues: Issue[]; hash: string }
  | { kind: 'too-deep'; hash: string }
  /** Not JSON (or half written): the caller reads it whole to say where. */
  | { kind: 'not-json'; hash: string };

/**
 * Reads material.json in one pass, a chunk at a time, never holding the file or its parsed
 * whole: each entry is validated as it is complete and kept without its diff, a long diff
 * as the byte range of its JSON string (found by following the tokens), the bytes hashed
 * on the way. The event loop turns between chunks, so the server answers meanwhile.
 */
export async function readMaterial(file: string): Promise<MaterialRead | null> {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({
    paths: ['$.contract', '$.source', '$.generated', '$.material.*'],
    keepStack: false,
  });
  const hash = createHash('sha256');
  const frame: Record<string, unknown> = {};
  const entries: RoundEntry[] = [];
  const places: DiffPlace[] = [];
  const issues: Issue[] = [];
  let tooDeep = false;
  let materialIsList = false;
  // Where the tokens are: the containers open around them, and each object's key awaiting its value.
  const open: Array<{ object: boolean; key: string | null; expectKey: boolean }> = [];
  let diffStart = -1;
  /** The position of the entry whose tokens are coming (-1: none yet). */
  let current = -1;

  let tokens = 0;
  tokenizer.onToken = (token) => {
    tokens++;
    if (diffStart !== -1) {
      // The token after a diff's string: the string ends before it (spaces between parse alike).
      places[current] = { start: diffStart, end: token.offset };
      diffStart = -1;
    }
    const top = open[open.length - 1];
    switch (token.token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        if (open.length === 1 && top?.key === 'material') materialIsList = token.token === TokenType.LEFT_BRACKET;
        if (open.length === 2 && materialIsList) current++;
        open.push({ object: token.token === TokenType.LEFT_BRACE, key: null, expectKey: true });
        break;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        open.pop();
        break;
      case TokenType.COMMA:
        if (top?.object) top.expectKey = true;
        break;
      case TokenType.STRING:
        if (top?.object && top.expectKey) {
          top.key = token.value as string;
          top.expectKey = false;
        } else if (open.length === 3 && materialIsList && top?.key === 'diff') diffStart = token.offset;
        break;
    }
    parser.write(token);
  };
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length === 1) {
      frame[key as string] = value;
      return;
    }
    if (!materialIsList) return; // the members of a material that is not a list: its frame check says so
    const at = key as number;
    if (depthOf(value) > MAX_JSON_DEPTH - 2) tooDeep = true;
    const parsed = MaterialEntry.safeParse(value);
    if (!parsed.success) {
      if (issues.length < MAX_ISSUES)
        issues.push(...issuesOf(parsed.error).map((i) => ({ ...i, path: ['material', at, ...i.path] })));
      return;
    }
    const { diff, diff_base64: _bytes, ...rest } = parsed.data;
    entries[at] = { ...rest, lines: diff === null ? null : countLines(diff), chars: diff?.length ?? 0 };
    // A long diff keeps the range found for it; a short one (or one not found in a list) is kept as it is.
    const found = places[at];
    if (diff === null || diff.length < KEEP_CHARS || typeof found !== 'object' || found === null) places[at] = diff;
  };

  let hashed = '';
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      tokenizer.write(chunk);
    }
    hashed = hash.digest('hex');
    tokenizer.end();
    if (open.length > 0 || !tokens) return { kind: 'not-json', hash: hashed }; // it stops before its end
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code !== undefined) throw error;
    return { kind: 'not-json', hash: hashed || hash.digest('hex') };
  }
  if (tooDeep) return { kind: 'too-deep', hash: hashed };
  const checked = Material.safeParse({ ...frame, material: materialIsList ? [] : frame.material });
  if (!checked.success || issues.length) {
    const all = [...(checked.success ? [] : issuesOf(checked.error)), ...issues];
    return { kind: 'invalid-schema', issues: all.slice(0, MAX_ISSUES), hash: hashed };
  }
  return { kind: 'ok', data: { ...checked.data, material: entries }, places, hash: hashed };
}
