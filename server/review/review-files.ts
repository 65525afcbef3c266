import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { z } from 'zod';
import type {
  CardsState,
  InvalidCard,
  Issue,
  MaterialState,
  NotesState,
  ReviewFile,
  RoundEntry,
  RoundIndex,
  RoundState,
} from '../../schemas/api';
import { Card, CardsFrame } from '../../schemas/cards';
import { Material } from '../../schemas/material';
import { parseNotes, type Notes } from '../../schemas/notes';
import { jsonErrorOffset } from './json-position';
import { MaterialIndex, statSignature } from './material-index';
import { readMaterial } from './material-read';
import { depthOf, issuesOf, MAX_JSON_DEPTH } from './json-limits';
import { assertNoLinks, writeFileAtomic, type ReviewDir } from './review-dir';

type RoundIndexData = z.infer<typeof RoundIndex>;

/** What a read of one review file found: its state and a hash of its bytes (null when missing). */
export interface Snapshot<S> {
  state: S;
  hash: string | null;
  /** material.json only, when it is valid: its entries and where their diffs lie. */
  index?: MaterialIndex;
}

export interface StateOf {
  material: MaterialState;
  cards: CardsState;
  notes: NotesState;
}

/** What the server keeps of each file: material.json as its index, without its diffs. */
export interface ServedOf {
  material: RoundState;
  cards: CardsState;
  notes: NotesState;
}

/** The result of reading a file until it parses or stops changing. */
export type SettledRead =
  { bytes: null } | { bytes: Buffer; value: unknown } | { bytes: Buffer; error: InvalidJsonState };

type InvalidJsonState = Extract<MaterialState, { state: 'invalid-json' }>;

/** How long a reader waits for a half-written file to be finished (see `readSettled`). */
export interface SettleOptions {
  /** Pause between two reads of a file that does not parse. Default 60 ms. */
  retryMs?: number;
  /** Give up waiting for the file to parse after this long. Default 600 ms. */
  maxWaitMs?: number;
}

/**
 * Reads a JSON file; when it does not parse, reads again after a pause until it parses,
 * stops changing, or time runs out. An agent writing in chunks leaves a prefix on disk
 * for a moment, and a prefix of a JSON document never parses: answering it as the new
 * truth would flash a broken file, so only bytes that stayed put are reported broken.
 */
export async function readSettled(file: string, options: SettleOptions = {}): Promise<SettledRead> {
  const { retryMs = 60, maxWaitMs = 600 } = options;
  const deadline = Date.now() + maxWaitMs;
  let bytes: Buffer | null;
  try {
    bytes = await readBytes(file);
  } catch (error) {
    // A folder where the file belongs is a state to explain, not a failure of the server.
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
    return { bytes: Buffer.alloc(0), error: { state: 'invalid-json', message: IS_FOLDER, line: null, column: null } };
  }
  for (;;) {
    if (bytes === null) return { bytes };
    const parsed = parseJson(bytes);
    if (!('error' in parsed) || Date.now() >= deadline) return { bytes, ...parsed };
    await new Promise((resolve) => setTimeout(resolve, retryMs));
    const again = await readBytes(file);
    if (again !== null && again.equals(bytes)) return { bytes, ...parsed };
    bytes = again;
  }
}

/** Reads the three review files as states, re-parsing only when a file's stat changed. */
export class ReviewFiles {
  private readonly cache = new Map<ReviewFile, { signature: string; snapshot: Snapshot<unknown> }>();

  /**
   * `checkRound` answers whether a material that parses is the round it names (see
   * `pinnedMismatch`): a sentence saying how it is not, served instead of the round.
   */
  constructor(
    readonly review: ReviewDir,
    private readonly settle: SettleOptions = {},
    private readonly checkRound: (data: RoundIndexData) => Promise<string | null> = async () => null,
  ) {}

  async read<F extends ReviewFile>(file: F): Promise<Snapshot<ServedOf[F]>> {
    const path = this.review[file];
    await assertNoLinks(this.review, path);
    const before = await signature(path);
    const cached = this.cache.get(file);
    if (cached && before !== null && cached.signature === before) return cached.snapshot as Snapshot<ServedOf[F]>;
    // A read of these same bytes already under way (the watcher's first, or another request's) is shared.
    const under = this.reading.get(file);
    if (under && before !== null && under.signature === before) return (await under.snapshot) as Snapshot<ServedOf[F]>;
    const snapshot = (async () => {
      const { snapshot, after } = file === 'material' ? await this.readRound(path) : await this.readWhole(file, path);
      // A broken file is cached too: its bytes stood still for a retry, and any change alters the signature.
      if (after !== null && after === before) this.cache.set(file, { signature: after, snapshot });
      else this.cache.delete(file);
      return snapshot;
    })();
    if (before !== null) this.reading.set(file, { signature: before, snapshot });
    try {
      return (await snapshot) as Snapshot<ServedOf[F]>;
    } finally {
      if (this.reading.get(file)?.snapshot === snapshot) this.reading.delete(file);
    }
  }

  private readonly reading = new Map<ReviewFile, { signature: string; snapshot: Promise<Snapshot<unknown>> }>();

  private async readWhole(
    file: ReviewFile,
    path: string,
  ): Promise<{ snapshot: Snapshot<unknown>; after: string | null }> {
    const read = await readSettled(path, this.settle);
    let state = toState(file, read);
    if (file === 'notes' && state.state === 'ok' && read.bytes) await keepLastGoodNotes(this.review, read.bytes);
    if (file === 'notes' && (state.state === 'invalid-json' || state.state === 'invalid-schema')) {
      const lastGood = await readLastGoodNotes(this.review);
      if (lastGood) state = { ...state, lastGood };
    }
    return {
      snapshot: { state, hash: read.bytes ? sha256(read.bytes) : null },
      after: await signature(path),
    };
  }

  /**
   * material.json in one streamed pass (see readMaterial). A file that is not JSON is read
   * whole to say where it breaks, after waiting for a writer to finish; one that parses by
   * then is read again.
   */
  private async readRound(path: string): Promise<{ snapshot: Snapshot<RoundState>; after: string | null }> {
    for (let tries = 0; ; tries++) {
      const before = await signature(path);
      const read = await readMaterial(path);
      const after = await signature(path);
      if (read === null) return { snapshot: { state: { state: 'missing' }, hash: null }, after };
      if (read.kind === 'not-json') {
        const whole = await readSettled(path, this.settle);
        const state = toState('material', whole);
        if (state.state === 'ok' && tries < 2) continue;
        const hash = whole.bytes ? sha256(whole.bytes) : null;
        if (state.state !== 'ok') return { snapshot: { state, hash }, after: await signature(path) };
        return {
          snapshot: { state: { state: 'invalid-json', message: CHANGING, line: null, column: null }, hash },
          after: null,
        };
      }
      const { hash } = read;
      if (read.kind === 'too-deep')
        return {
          snapshot: { state: { state: 'invalid-json', message: TOO_DEEP, line: null, column: null }, hash },
          after,
        };
      if (read.kind === 'invalid-schema')
        return { snapshot: { state: { state: 'invalid-schema', issues: read.issues }, hash }, after };
      const mismatch = await this.checkRound(read.data);
      if (mismatch !== null) return { snapshot: { state: { state: 'mismatched', message: mismatch }, hash }, after };
      const stable = before !== null && before === after ? after : null;
      const state = { state: 'ok' as const, version: hash.slice(0, 16), data: read.data };
      return { snapshot: { state, hash, index: new MaterialIndex(state, read.places, path, stable) }, after };
    }
  }

  /** The material's entries by ref, or `null` when the material is not usable. */
  async materialEntries(): Promise<{ tree: string | null; byRef: Map<string, RoundEntry> } | null> {
    const { state, index } = await this.read('material');
    if (state.state !== 'ok' || !index) return null;
    return { tree: state.data.source.tree ?? null, byRef: index.byRef };
  }
}

/**
 * Keeps a valid notes.json as `.review/notes.last-good.json` when it differs from the copy
 * kept: if notes.json breaks (an editor, a bad merge), the reader has a whole copy to put
 * back. The copy is only a spare: failing to write it leaves notes.json and its read alone.
 */
async function keepLastGoodNotes(review: ReviewDir, bytes: Buffer): Promise<void> {
  const kept = await readBytes(review.notesLastGood).catch(() => null);
  // The copy holds the same notes, so it is as private as notes.json (0600 by default).
  const modeOf = async (file: string) => ((await stat(file).catch(() => null))?.mode ?? 0o600) & 0o777;
  const mode = await modeOf(review.notes);
  if (kept !== null && kept.equals(bytes) && (await modeOf(review.notesLastGood)) === mode) return;
  await writeFileAtomic(review.notesLastGood, bytes, mode).catch(() => {});
}

/** The kept last good notes.json, or null when there is none that reads as notes. */
async function readLastGoodNotes(review: ReviewDir): Promise<Notes | null> {
  const bytes = await readBytes(review.notesLastGood).catch(() => null);
  if (bytes === null) return null;
  try {
    const parsed = parseNotes(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function toState<F extends ReviewFile>(file: F, read: SettledRead): StateOf[F] {
  if (read.bytes === null) return { state: 'missing' } as StateOf[F];
  if ('error' in read) return read.error as StateOf[F];
  if (file === 'cards') return cardsState(read.value) as StateOf[F];
  const parsed = file === 'material' ? Material.safeParse(read.value) : parseNotes(read.value);
  return (parsed.success ? { state: 'ok', data: parsed.data } : invalidSchema(parsed.error)) as StateOf[F];
}

/**
 * One broken card never hides the others: the frame is checked, then each card on its own.
 * A card that repeats an earlier card's id is invalid too: a note on it would land on the
 * first card's key, and the viewer could not tell the two apart.
 */
function cardsState(value: unknown): CardsState {
  const frame = CardsFrame.safeParse(value);
  if (!frame.success) return invalidSchema(frame.error);
  const valid: Card[] = [];
  const invalid: InvalidCard[] = [];
  const seen = new Map<string, number>();
  frame.data.cards.forEach((raw, index) => {
    const card = Card.safeParse(raw);
    const first = card.success ? seen.get(card.data.id) : undefined;
    if (card.success && first === undefined) {
      seen.set(card.data.id, index);
      valid.push(card.data);
    } else if (card.success) {
      invalid.push({ index, raw, issues: [repeatedId(card.data.id, first!)] });
    } else invalid.push({ index, raw, issues: issuesOf(card.error) });
  });
  return { state: 'ok', data: { ...frame.data, cards: valid }, invalid };
}

/** The issue of a card whose id an earlier card (at `first`, from 0) already has. */
const repeatedId = (id: string, first: number): Issue => ({
  path: ['id'],
  message: `The id "${id}" is already the id of card ${first + 1}; each card needs an id of its own`,
  code: 'duplicate-id',
});

function invalidSchema(error: z.ZodError): { state: 'invalid-schema'; issues: Issue[] } {
  return { state: 'invalid-schema', issues: issuesOf(error) };
}

/** The message of a material.json that was rewritten each time it was read. */
const CHANGING = 'material.json kept changing while it was read; it is read again on its next change';
/** The message of a review file that starts with a UTF-8 byte-order mark. */
const STARTS_WITH_BOM =
  'it starts with a byte-order mark (BOM), which JSON does not allow: save it as UTF-8 without a BOM';
/** The message of a review file that is a folder. */
const IS_FOLDER = 'it is a folder, not a file: move the folder away and Involut writes the file anew';
/** ` (why)` for a file whose shape (a BOM, a folder) is the reason it is unreadable; '' for a parser's message. */
export const namedShape = (message: string) =>
  message === STARTS_WITH_BOM || message === IS_FOLDER ? ` (${message})` : '';
/** The message of a file refused for its nesting (a state, not a crash: deeper JSON overflows the stack where it is used). */
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels, which Involut does not read`;

/**
 * Parses JSON bytes; on failure, the parser's message (never quoting the file: it may be
 * anything, /etc/passwd through a link) and its 1-based line and column.
 */
export function parseJson(bytes: Buffer): { value: unknown } | { error: InvalidJsonState } {
  // JSON has no byte-order mark; an editor that writes one makes the whole file unreadable, so it is named.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { error: { state: 'invalid-json', message: STARTS_WITH_BOM, line: 1, column: 1 } };
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /at position (\d+)/.exec(message);
    const offset = jsonErrorOffset(text) ?? (at ? Number(at[1]) : null);
    const { line, column } = offset === null ? { line: null, column: null } : lineAndColumn(text, offset);
    return { error: { state: 'invalid-json', message: withoutContent(message), line, column } };
  }
  if (depthOf(value) > MAX_JSON_DEPTH)
    return { error: { state: 'invalid-json', message: TOO_DEEP, line: null, column: null } };
  return { value };
}

/** V8's message without the piece of the file it quotes (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`). */
function withoutContent(message: string): string {
  return (
    message
      .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
      // The token is kept when it is JSON's own punctuation, which says where the grammar broke and nothing of the file.
      .replace(/^Unexpected token '([\s\S]*?)'(?=$| in JSON)/, (whole, token: string) =>
        /^[{}[\],:"]$/.test(token) ? whole : 'Unexpected character',
      )
      .replace(/^(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, 'Not valid JSON')
  );
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function readBytes(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null; // no .review/ yet, or .review is not a folder
    throw error;
  }
}

/** Identity and version of a file for the cache (see statSignature); null when it is missing. */
export async function signature(file: string): Promise<string | null> {
  const info = await stat(file, { bigint: true }).catch(() => null);
  return info ? statSignature(info) : null;
}
