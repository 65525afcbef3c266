import { z } from 'zod';
import { Cards } from './cards';
import { Material, MaterialEntry } from './material';
import { EarlierText, HandOver, Note, Notes } from './notes';

/** One problem zod found, with the path to the offending value. */
export const Issue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  code: z.string(),
});

const Missing = z.object({ state: z.literal('missing') });

/** The file is not JSON (an agent may be mid-write); the position is 1-based, null when the parser gave none. */
const InvalidJson = z.object({
  state: z.literal('invalid-json'),
  message: z.string(),
  line: z.number().int().positive().nullable(),
  column: z.number().int().positive().nullable(),
});

const InvalidSchema = z.object({ state: z.literal('invalid-schema'), issues: z.array(Issue) });

/** How the server answers a file: bad data is a state to show, never a crash. */
const fileState = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion('state', [z.object({ state: z.literal('ok'), data }), Missing, InvalidJson, InvalidSchema]);

export const MaterialState = fileState(Material);

/**
 * One file of the round as `GET /api/round` lists it: its material entry without the diff
 * (fetched per file or block through `GET /api/diffs`), with the diff's size instead.
 */
export const RoundEntry = MaterialEntry.omit({ diff: true, diff_base64: true }).extend({
  /** Lines of the diff (its newlines); null when the diff is null (a binary, a withheld file). */
  lines: z.number().int().nonnegative().nullable(),
  /** Length of the diff in characters; 0 when it is "" or null. */
  chars: z.number().int().nonnegative(),
});

/**
 * A file as the viewer holds it: an entry of the round's index, whose diff is fetched when
 * it is drawn, or a material entry (a commit's, the changes since the last round) that
 * comes with its diff. Not sent as such: the type both kinds meet in.
 */
export const HeldEntry = RoundEntry.partial({ lines: true, chars: true }).extend({
  diff: z.string().nullable().optional(),
});

/** material.json without its diffs: what the viewer needs to draw the round before any file's text. */
export const RoundIndex = Material.extend({ material: z.array(RoundEntry) });

/**
 * `GET /api/round`: material.json's index as a state. `version` names this reading of
 * the file: diffs are asked for by it, so a reader never gets two rounds mixed.
 */
export const RoundState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ok'), version: z.string(), data: RoundIndex }),
  Missing,
  InvalidJson,
  InvalidSchema,
  /** A material that names a round and a tree git does not agree with (edited by hand, or another round's): the sentence saying how. */
  z.object({ state: z.literal('mismatched'), message: z.string() }),
]);

/** `GET /api/diffs?v=<version>&at=0,1,5`: entries by their position in the round's index. */
export const DiffsQuery = z.object({
  v: z.string().min(1),
  at: z.string().regex(/^\d{1,7}(,\d{1,7})*$/),
});

/** The diffs asked for, in the order asked; refused as `round-changed` (409) when the round is no longer that version. */
export const Diffs = z.object({ version: z.string(), diffs: z.array(z.string().nullable()) });
/**
 * A broken notes.json comes with `lastGood`, the server's last good copy
 * (`.review/notes.last-good.json`) when there is one: a viewer opened while the file is
 * broken still shows the notes, read-only.
 */
export const NotesState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ok'), data: Notes }),
  Missing,
  InvalidJson.extend({ lastGood: Notes.optional() }),
  InvalidSchema.extend({ lastGood: Notes.optional() }),
]);

/** A card that failed its schema, shown as broken (its raw JSON and why) while the others render. */
export const InvalidCard = z.object({
  index: z.number().int().nonnegative(),
  raw: z.unknown(),
  issues: z.array(Issue),
});

/** cards.json is validated per card: `data.cards` holds the valid ones, `invalid` the others. */
export const CardsState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ok'), data: Cards, invalid: z.array(InvalidCard) }),
  Missing,
  InvalidJson,
  // The frame itself (`contract`, `request`, `cards` as a list) is wrong: no card can be trusted.
  InvalidSchema,
]);

export const ReviewFile = z.enum(['material', 'cards', 'notes']);

/**
 * The only message pushed over `GET /api/events`: which file to refetch, never its content.
 * `by` names the viewer whose note write caused it, so that viewer skips its own echo
 * while every other open viewer refetches.
 */
export const ChangedEvent = z.object({
  type: z.literal('changed'),
  // Additive: 'waiting' is the presence record of `involut notes --wait` (see Waiting).
  file: z.enum([...ReviewFile.options, 'waiting']),
  by: z.string().optional(),
});

/**
 * `.review/waiting.json`, written by `involut notes --wait` while it waits for a hand-over
 * and removed when it exits; ignored when its process is gone.
 */
export const Waiting = z.object({
  pid: z.number().int().positive(),
  since: z.string().describe('When the wait began, ISO 8601 with the local offset.'),
});

/** `GET /api/waiting`: the agent waiting for a hand-over now, or null. */
export const WaitingState = z.object({ waiting: Waiting.nullable() });

/** `POST /api/handover`: how many open notes the viewer hands over (the server stamps `at` and the round). */
export const HandOverPut = z.strictObject({ open: z.number().int().nonnegative() });
export const HandOverResult = z.object({ handedOver: HandOver });

/** The header a viewer sends with its note writes to name itself (see ChangedEvent.by). */
export const VIEWER_HEADER = 'x-involut-viewer';

/** A note as a writer last saw it in notes.json: what a write compares against. */
export const NoteSeen = z.object({ text: z.string(), at: z.string() });

/**
 * `PUT /api/notes/:key`: the server stamps `at`; an empty (or blank) `text` deletes the note.
 * The write is a compare-and-swap: `seen` is the note under this key as the writer last read
 * it (`null`: there was none). When notes.json holds something else there now, the write is
 * refused with a NoteConflict; changes to other keys never refuse it, they are kept.
 */
export const NotePut = z.strictObject({
  ...Note.omit({ at: true, resolvedAt: true, earlier: true }).shape,
  /** true: resolve the note (the server stamps `resolvedAt`); false: reopen it; absent: leave it as it is. */
  resolve: z.boolean().optional(),
  /**
   * A follow-up: the `at` of the answered note this text follows. While notes.json still holds
   * that note, its text moves into `earlier` with `answeredBy`; once it is there, nothing moves again.
   */
  follows: z.string().optional(),
  answeredBy: EarlierText.shape.answeredBy.optional(),
  seen: NoteSeen.nullable(),
});

/** The answer to a note write: the note as stored, or `null` when it was deleted. */
export const NotePutResult = z.object({ key: z.string(), note: Note.nullable() });

/** 409 to a note write whose `seen` is no longer what notes.json holds: `current` is what it holds. */
export const NoteConflict = z.object({
  error: z.object({ code: z.literal('note-conflict'), message: z.string() }),
  current: Note.nullable(),
});

/**
 * An unsent note draft as the server keeps it for the viewer (`PUT /api/drafts/:key`,
 * `GET /api/drafts`): what the reader typed and the note it was typed over.
 */
export const Draft = z.object({ key: z.string().min(1), body: Note.omit({ at: true }), seen: NoteSeen.nullable() });
export const DraftList = z.object({ drafts: z.array(Draft) });

/** `GET /api/freshness`: has the working state moved since the capture? */
export const Freshness = z.object({
  /** null when the server cannot tell (the round was captured in another worktree, or by an older Involut). */
  fresh: z.boolean().nullable(),
  /** The tree recorded in material.json (`source.tree`); null when there is no usable material. */
  captured: z.string().nullable(),
  /** Additive: how to run Involut on the server's machine (`involut`, or `node /…/cli.js`), for the commands the viewer prints. */
  command: z.string().optional(),
});

/**
 * `GET /api/since-last`: the changes between the previous kept round's tree and this
 * round's, computed by the server with git (entries as in material.json, but binaries
 * get no before copy and `commits` is left out), or why there is nothing to compare.
 */
export const SinceLast = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('ok'),
    data: z.object({
      from: z.number().int().positive(),
      to: z.number().int().positive(),
      material: z.array(MaterialEntry),
    }),
  }),
  z.object({ state: z.literal('none'), reason: z.string() }),
]);

/**
 * `GET /api/card-rounds`: the round each valid card of cards.json comes from, by card id
 * (the earliest round whose kept cards.json holds that id; `round` itself for a card new in
 * this round), or why no card can be told apart (the first round, no earlier cards kept).
 */
export const CardRounds = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('ok'),
    data: z.object({
      round: z.number().int().positive(),
      rounds: z.record(z.string(), z.number().int().positive()),
    }),
  }),
  z.object({ state: z.literal('none'), reason: z.string() }),
]);

/**
 * `GET /api/commits/<id>`: what one commit of the round's range changed (against its first
 * parent), as material entries built like the round's own (binaries get no before copy,
 * `commits` is left out). Only a commit listed in material.json's `source.commits` is answered.
 */
export const CommitChanges = z.object({
  id: z.string(),
  subject: z.string(),
  /** The commit it is compared with; null for a root commit (compared with the empty tree). */
  parent: z.string().nullable(),
  material: z.array(MaterialEntry),
});

/** `GET /api/search?q=&case=1&word=1&regex=1`: a search over the paths and diff text of the current material. */
export const SearchQuery = z.object({
  q: z.string().min(1).max(500),
  /** `1`: letters must match in case. Default: any case. */
  case: z.enum(['0', '1']).optional(),
  /** `1`: only whole words (the match is not inside a longer word). */
  word: z.enum(['0', '1']).optional(),
  /** `1`: `q` is a JavaScript regular expression, matched against one line at a time. */
  regex: z.enum(['0', '1']).optional(),
});

/** One matching diff line: where it is in the file's diff, which side and number it shows, and its text around the match. */
export const SearchHit = z.object({
  /** Index of the line in the entry's `diff` (0 is its first `@@` line). */
  index: z.number().int().nonnegative(),
  /** `-` for a deleted line (old numbering), `+` for an added or context line (new numbering). */
  side: z.enum(['+', '-']),
  number: z.number().int().nonnegative(),
  /** The line's text without its diff prefix, cut to a little context around the match. */
  text: z.string(),
  /** Where the match lies in `text`. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});

/** The matches in one file: in its path, in its diff lines, or both. */
export const SearchFile = z.object({ ref: z.string(), path: z.boolean(), hits: z.array(SearchHit) });

export const SearchResult = z.object({
  /** Matches counted: path matches plus line matches; at most the cap, see `capped`. */
  matches: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  /** True when there were more matches than counted: show "N+ matches". */
  capped: z.boolean(),
  results: z.array(SearchFile),
});

/** `GET /api/lines/<ref>?side=&from=&to=`: lines of a file of the material, from the captured tree (after) or the round's base (before). */
export const LinesQuery = z.object({
  side: z.enum(['before', 'after']),
  /** First line sent, from 1. Default 1. */
  from: z.coerce.number().int().positive().optional(),
  /** Last line sent. Default: the file's last. */
  to: z.coerce.number().int().positive().optional(),
});

export const Lines = z.object({
  side: z.enum(['before', 'after']),
  /** Lines in the whole file on that side. */
  total: z.number().int().nonnegative(),
  /** Number of the first line in `lines`. */
  from: z.number().int().positive(),
  /** The lines' text, without their line ends. */
  lines: z.array(z.string()),
});

/** `GET /api/whitespace/<ref>`: a modified or renamed file's diff with whitespace ignored (`git diff -w`). */
export const WhitespaceDiff = z.object({
  /** The hunks from the first `@@`, as in material.json; "" when only whitespace changed. */
  diff: z.string(),
});

/** Every refusal and failure of the API. */
export const ApiError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type Issue = z.infer<typeof Issue>;
export type MaterialState = z.infer<typeof MaterialState>;
export type RoundEntry = z.infer<typeof RoundEntry>;
export type RoundIndex = z.infer<typeof RoundIndex>;
export type HeldEntry = z.infer<typeof HeldEntry>;
export type RoundState = z.infer<typeof RoundState>;
export type DiffsQuery = z.infer<typeof DiffsQuery>;
export type Diffs = z.infer<typeof Diffs>;
export type NotesState = z.infer<typeof NotesState>;
export type InvalidCard = z.infer<typeof InvalidCard>;
export type CardsState = z.infer<typeof CardsState>;
export type ReviewFile = z.infer<typeof ReviewFile>;
export type ChangedEvent = z.infer<typeof ChangedEvent>;
export type Waiting = z.infer<typeof Waiting>;
export type WaitingState = z.infer<typeof WaitingState>;
export type HandOverPut = z.infer<typeof HandOverPut>;
export type HandOverResult = z.infer<typeof HandOverResult>;
export type NotePut = z.infer<typeof NotePut>;
export type NotePutResult = z.infer<typeof NotePutResult>;
export type NoteSeen = z.infer<typeof NoteSeen>;
export type NoteConflict = z.infer<typeof NoteConflict>;
export type Draft = z.infer<typeof Draft>;
export type DraftList = z.infer<typeof DraftList>;
export type Freshness = z.infer<typeof Freshness>;
export type SinceLast = z.infer<typeof SinceLast>;
export type CardRounds = z.infer<typeof CardRounds>;
export type CommitChanges = z.infer<typeof CommitChanges>;
export type ApiError = z.infer<typeof ApiError>;
export type LinesQuery = z.infer<typeof LinesQuery>;
export type Lines = z.infer<typeof Lines>;
export type WhitespaceDiff = z.infer<typeof WhitespaceDiff>;
export type SearchQuery = z.infer<typeof SearchQuery>;
export type SearchHit = z.infer<typeof SearchHit>;
export type SearchFile = z.infer<typeof SearchFile>;
export type SearchResult = z.infer<typeof SearchResult>;
