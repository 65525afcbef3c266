import type { CardsState, Issue, MaterialState, NotesState } from '../../schemas/api';
import { Card, Mark } from '../../schemas/cards';
import { cardProblems, type CardProblem } from '../../schemas/checks';
import type { Material, MaterialEntry } from '../../schemas/material';
import { diffLines } from '../../shared/diff-lines';
import { placeMarks } from '../../shared/marks';
import { describeIssue, fixForCardField, fixForFrameField } from './issues';
import { TOO_DEEP } from '../review/review-files';
import type { CardRounds } from '../round/cards';
import { notesRepair } from '../review/notes-repair';

/** One thing `involut check` found: where, what, and how to fix it. */
export interface Finding {
  /**
   * An error makes the file wrong; a warning makes the review weaker; information is about a
   * card of an earlier round, which is never edited: nothing to fix.
   */
  level: 'error' | 'warning' | 'info';
  /** A stable name for the kind of finding, e.g. `duplicate-id`. */
  code: string;
  file: 'cards.json' | 'notes.json' | 'material.json';
  /** The id of the card the finding is about, when it has one. */
  card?: string;
  /** The card's place in cards.json's list, from 1, when the finding is about a card. */
  position?: number;
  /** One sentence: what is wrong. */
  message: string;
  /** One sentence: what to do about it; none for information. */
  fix?: string;
  /** The round an earlier card comes from, on information about it. */
  round?: number;
}

export interface CheckInput {
  cards: CardsState;
  notes: NotesState;
  /** Anything but `ok` skips the checks against the changed files, with a warning. */
  material: MaterialState;
  /** The parsed JSON of cards.json and notes.json (undefined when missing or not JSON), to quote wrong values. */
  raw: { cards: unknown; notes: unknown };
  /** The round each card comes from (`cardRounds`); without it every card counts as new. */
  rounds?: CardRounds;
  /** Whether `.review/notes.last-good.json` is there to put back over a broken notes.json. */
  notesCopy?: boolean;
}

const ROUNDS_FIX = 'Run `involut rounds` to capture the round into .review/material.json.';

/**
 * Checks cards.json (and notes.json) against the contract and against the material.
 * Pure: the caller reads the files and decides what the findings mean for the exit code.
 */
export function checkReview({ cards, notes, material, raw, rounds, notesCopy = false }: CheckInput): Finding[] {
  const findings: Finding[] = [...checkNotes(notes, raw.notes, `${capitalize(notesRepair(notesCopy))}.`)];
  const changed = material.state === 'ok' ? material.data : null;
  if (material.state !== 'ok') findings.push(materialSkipped(material));
  if (cards.state === 'missing') {
    findings.push(
      warn(
        'no-cards',
        'There is no .review/cards.json, so the review shows the diff without explanations.',
        'Write .review/cards.json with one card per reason for change (`involut skill` shows how).',
      ),
    );
    return findings;
  }
  if (cards.state === 'invalid-json') {
    if (cards.message === TOO_DEEP)
      findings.push(
        err(
          'too-deep',
          `cards.json is ${TOO_DEEP}, so the viewer cannot show it.`,
          'Write the nested data flatter (a render payload lists nodes and edges, it does not nest them).',
        ),
      );
    else
      findings.push(
        err(
          'not-json',
          `cards.json is not valid JSON ${position(cards)} (${parserMessage(cards.message)}).`,
          'Fix the JSON there, and write the file whole (a temporary file, then a rename).',
        ),
      );
    return findings;
  }
  if (cards.state === 'invalid-schema') {
    for (const issue of cards.issues) {
      findings.push(
        err('schema', `${frameSentence('cards.json', issue, raw.cards)}.`, fixForFrameField(issue.path[0])),
      );
    }
    return findings;
  }
  // cardsState keeps the valid cards in file order but not their places: they fill the places the invalid ones leave.
  const broken = new Set(cards.invalid.map((c) => c.index));
  const places = Array.from({ length: cards.data.cards.length + broken.size }, (_, i) => i).filter(
    (i) => !broken.has(i),
  );
  const listed: CardAt[] = [
    ...cards.invalid.map((c) => ({ id: idOf(c.raw), position: c.index + 1 })),
    ...cards.data.cards.map((c, i) => ({ id: c.id, position: places[i]! + 1 })),
  ];
  const perCard: Finding[] = [];
  // A card that fails the schema is still checked, by the fields that pass it, so one pass shows every finding.
  const checked: Array<{ card: Card; where: CardAt; broken: Set<string> }> = [];
  for (const invalid of cards.invalid) {
    const where = { id: idOf(invalid.raw), position: invalid.index + 1 };
    const salvaged = salvage(invalid.raw);
    if (salvaged) checked.push({ ...salvaged, where });
    // A repeated id is reported once, for every card that has it, by duplicateIds.
    for (const issue of invalid.issues.filter((i) => i.code !== 'duplicate-id')) {
      perCard.push(
        err(
          'card-schema',
          `${capitalize(describeIssue(issue, invalid.raw, 'the card'))}.`,
          fixForCardField(issue.path[0]),
          where,
        ),
      );
    }
  }
  cards.data.cards.forEach((card, i) =>
    checked.push({ card, where: listed[cards.invalid.length + i]!, broken: new Set() }),
  );
  const ids = new Set(listed.map((c) => c.id).filter((id): id is string => id !== null));
  perCard.push(...duplicateIds(listed));
  const known: Known = {
    ids,
    notes: notes.state === 'ok' ? new Set(Object.keys(notes.data.notes)) : notes.state === 'missing' ? new Set() : null,
    entries: changed ? new Map(changed.material.map((e) => [e.ref, e])) : null,
  };
  for (const { card, where, broken } of checked) {
    const from = where.id === null ? undefined : rounds?.rounds.get(where.id);
    const found = checkCard(card, where, known, broken);
    perCard.push(...(rounds && from !== undefined && from < rounds.round ? found.map((f) => earlier(f, from)) : found));
  }
  // Read card by card, in the file's order; the findings about no card (unclaimed files) come last.
  findings.push(...perCard.sort((a, b) => (a.position ?? 0) - (b.position ?? 0)));
  findings.push(...(rounds?.missing ?? []).map(missingEarlier));
  if (changed)
    findings.push(
      ...unclaimed(
        changed,
        checked.map((c) => c.card),
      ),
    );
  return findings;
}

/**
 * A warning about a card of an earlier round, as information: the card is never edited, so
 * a mark that no longer matches or a file no longer in the round says the code moved on.
 */
function earlier(finding: Finding, round: number): Finding {
  if (finding.level !== 'warning') return finding;
  const { fix: _fix, ...rest } = finding;
  const moved = ['mark-unmatched', 'unknown-ref'].includes(finding.code);
  const why = moved
    ? `the card is from round ${round}, and the code moved on since`
    : `the card is from round ${round}, and earlier cards are never edited`;
  return { ...rest, level: 'info', round, message: `${finding.message.replace(/\.$/, '')}: ${why}.` };
}

/**
 * A card of an earlier round that cards.json no longer holds: the reader's answer to it and
 * the note on it lose their card, so it is an error, put right from the round that kept it.
 */
function missingEarlier({ id, round }: { id: string; round: number }): Finding {
  return {
    level: 'error',
    code: 'missing-earlier',
    file: 'cards.json',
    card: id,
    round,
    message: `The card "${id}" of round ${round} is no longer in cards.json; earlier cards are never renamed or deleted.`,
    fix: `Put it back as it was, from .review/rounds/${round}/cards.json; to revise it, add a new card whose \`continues\` is "${id}".`,
  };
}

/**
 * The fields of a card that fails the schema that pass it on their own (the marks one by
 * one), with the names of those that do not; null when the card is not an object at all.
 */
function salvage(raw: unknown): { card: Card; broken: Set<string> } | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const given = raw as Record<string, unknown>;
  const broken = new Set<string>();
  const card: Record<string, unknown> = { id: '', title: '', refs: [] };
  for (const [key, schema] of Object.entries(Card.shape)) {
    if (!(key in given)) continue;
    const parsed = (schema as { safeParse: (v: unknown) => { success: boolean; data?: unknown } }).safeParse(
      given[key],
    );
    if (parsed.success) card[key] = parsed.data;
    else broken.add(key);
  }
  if (broken.has('marks') && Array.isArray(given.marks)) {
    card.marks = given.marks.flatMap((mark) => {
      const parsed = Mark.safeParse(mark);
      return parsed.success ? [parsed.data] : [];
    });
  }
  if (broken.has('refs') && Array.isArray(given.refs)) {
    card.refs = given.refs.filter((ref): ref is string => typeof ref === 'string');
  }
  return { card: card as Card, broken };
}

/** The JSON size above which a card is too big to read quickly (README and skill say it). */
const CARD_SIZE_LIMIT = 512 * 1024;

/** What a card is checked against: every card id, the note keys and the changed files (null: not readable). */
interface Known {
  ids: Set<string>;
  notes: Set<string> | null;
  entries: Map<string, MaterialEntry> | null;
}

function checkCard(card: Card, where: CardAt, { ids, notes, entries }: Known, broken: Set<string>): Finding[] {
  const found: Finding[] = [];
  if (card.continues === card.id) {
    found.push(
      err(
        'continues-self',
        '`continues` names the card itself.',
        'Point `continues` at the id of the earlier card this one revises, or set it to null.',
        where,
      ),
    );
  } else if (card.continues && !ids.has(card.continues)) {
    found.push(
      err(
        'unknown-continues',
        `\`continues\` names "${card.continues}", which is no card's id.`,
        'Point `continues` at the id of the earlier card this one revises, or set it to null.',
        where,
      ),
    );
  }
  for (const mark of card.marks ?? []) {
    if (!card.refs.includes(mark.ref)) {
      found.push(
        err(
          'mark-ref',
          `A mark is on "${mark.ref}", which is not one of the card's refs.`,
          "Add the file to the card's `refs`, or put the mark on a card that names it.",
          where,
        ),
      );
      continue;
    }
    const entry = entries?.get(mark.ref);
    if (!entry) continue; // the ref itself is reported as not in the material
    if (entry.diff === null) {
      found.push(
        warn(
          'mark-unmatched',
          `A mark is on ${mark.ref}, which has no text diff to pin it to.`,
          "Drop the mark, or say it in the card's `why`.",
          where,
        ),
      );
    } else if (placeMarks([{ mark, cardId: card.id }], diffLines(entry.diff))[0]!.line === null) {
      found.push(
        warn(
          'mark-unmatched',
          `The mark at "${mark.at}" matches no line of ${mark.ref}'s diff.`,
          "Copy `at` from one line of that file's diff exactly as material.json has it.",
          where,
        ),
      );
    }
  }
  for (const ref of entries ? card.refs.filter((r) => !entries.has(r)) : []) {
    found.push(
      warn(
        'unknown-ref',
        `"${ref}" is not a changed file of this round.`,
        'Name files exactly as `ref` in material.json, or run `involut rounds` if you changed it since.',
        where,
      ),
    );
  }
  if (card.minutes == null && !broken.has('minutes')) {
    found.push(
      warn(
        'no-minutes',
        'The card does not say how many minutes it takes to understand.',
        'Set `minutes` to the time a careful reader needs, overestimated slightly.',
        where,
      ),
    );
  }
  const size = Buffer.byteLength(JSON.stringify(card));
  if (size > CARD_SIZE_LIMIT) {
    found.push(
      warn(
        'card-size',
        `The card is ${Math.round(size / 1024).toLocaleString('en')} KiB of JSON, over the ${CARD_SIZE_LIMIT / 1024} KiB a card should hold, so the viewer is slow to open it.`,
        'Split the card, or draw a sample and name the file that holds the whole data in `why`.',
        where,
      ),
    );
  }
  const named = entries ? card.refs.flatMap((ref) => entries.get(ref) ?? []) : [];
  found.push(...cardProblems(card, named).map((problem) => shownProblem(problem, card, where)));
  for (const key of notes ? (card.addresses ?? []).filter((k) => !notes.has(k)) : []) {
    found.push(
      warn(
        'unknown-note',
        `\`addresses\` names "${key}", which is not a note in notes.json.`,
        'Copy note keys exactly as `involut notes` prints them (if the reader has since deleted that note, nothing is left to do).',
        where,
      ),
    );
  }
  return found;
}

/** What to do about each thing the viewer reports on a card. */
const PROBLEM_FIXES: Record<CardProblem['code'], (card: Card) => string> = {
  payload: (card) =>
    `Give \`payload\` the shape of a ${card.render} render (\`involut skill\` lists each one), or set \`render\` to "code".`,
  'graph-dangling': () => 'Add the missing nodes to `payload.graph.nodes`, or point the edges at ids that are there.',
  'graph-duplicate': () => 'Give each node an id of its own.',
  'table-ragged': () => 'Give every row one cell per column (null for a cell with nothing in it).',
  'frames-outside': () =>
    "Give each frame's x, y, w and h in the image's pixels, inside it (x and y from its top-left corner).",
  'no-answer': () => 'Give `question.answer`: your own answer to the question, so the reader can compare.',
};

/** A thing the viewer reports on the card, as a warning in the viewer's words: the card still shows, its diff too. */
function shownProblem(problem: CardProblem, card: Card, where: CardAt): Finding {
  return warn(problem.code, problem.message, PROBLEM_FIXES[problem.code](card), where);
}

/** One finding per repeated id, on the first card that has it. */
function duplicateIds(cards: CardAt[]): Finding[] {
  const positions = new Map<string, number[]>();
  for (const { id, position } of cards) if (id !== null) positions.set(id, [...(positions.get(id) ?? []), position]);
  return [...positions]
    .filter(([, at]) => at.length > 1)
    .map(([id, at]) => {
      const places = at.sort((a, b) => a - b);
      return err(
        'duplicate-id',
        `Cards ${places.slice(0, -1).join(', ')} and ${places.at(-1)} have the same id "${id}".`,
        'Give each new card an id of its own, and point `continues` at the earlier card instead of reusing its id.',
        { id, position: places[0]! },
      );
    });
}

function unclaimed(material: Material, cards: Card[]): Finding[] {
  const claimed = new Set(cards.flatMap((c) => c.refs));
  const refs = material.material.filter((e) => !claimed.has(e.ref)).map((e) => e.ref);
  if (refs.length === 0) return [];
  const list = refs.slice(0, 10).join(', ') + (refs.length > 10 ? ` and ${refs.length - 10} more` : '');
  const files = refs.length === 1 ? '1 changed file is' : `${refs.length} changed files are`;
  return [warn('unclaimed', `${files} on no card: ${list}.`, "Name every changed file in at least one card's `refs`.")];
}

function checkNotes(notes: NotesState, value: unknown, NOTES_FIX: string): Finding[] {
  if (notes.state === 'invalid-json') {
    if (notes.message === TOO_DEEP)
      return [
        err(
          'notes-too-deep',
          `notes.json is ${TOO_DEEP}, so the viewer cannot show it or save notes.`,
          NOTES_FIX,
          undefined,
          'notes.json',
        ),
      ];
    return [
      err(
        'notes-not-json',
        `notes.json is not valid JSON ${position(notes)} (${parserMessage(notes.message)}).`,
        NOTES_FIX,
        undefined,
        'notes.json',
      ),
    ];
  }
  if (notes.state === 'invalid-schema') {
    return notes.issues.map((issue) =>
      err('notes-schema', `${frameSentence('notes.json', issue, value)}.`, NOTES_FIX, undefined, 'notes.json'),
    );
  }
  return [];
}

function materialSkipped(material: Exclude<MaterialState, { state: 'ok' }>): Finding {
  const why =
    material.state === 'missing'
      ? 'There is no .review/material.json'
      : material.state === 'invalid-json'
        ? `material.json is not valid JSON ${position(material)}`
        : 'material.json does not match the contract';
  return warn(
    'no-material',
    `${why}, so the checks against the changed files were skipped.`,
    ROUNDS_FIX,
    undefined,
    'material.json',
  );
}

/** "In cards.json, `contract` is 2, not 1", or "cards.json should be an object, not a list". */
function frameSentence(file: string, issue: Issue, root: unknown): string {
  return issue.path.length === 0 ? describeIssue(issue, root, file) : `In ${file}, ${describeIssue(issue, root, file)}`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function position(state: { line: number | null; column: number | null }): string {
  return state.line === null ? 'at an unknown place' : `at line ${state.line}, column ${state.column}`;
}

/** V8's message without its own position (we give line and column) and without a final period. */
function parserMessage(message: string): string {
  return message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/\.$/, '');
}

function idOf(raw: unknown): string | null {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
}

type File = Finding['file'];

/** Which card a finding is about: its id (null when it has none) and its place in the list. */
interface CardAt {
  id: string | null;
  position: number;
}

const finding = (
  level: Finding['level'],
  code: string,
  message: string,
  fix: string,
  at?: CardAt,
  file: File = 'cards.json',
): Finding => ({
  level,
  code,
  file,
  ...(at?.id ? { card: at.id } : {}),
  ...(at ? { position: at.position } : {}),
  message,
  fix,
});

const err = (code: string, message: string, fix: string, at?: CardAt, file?: File) =>
  finding('error', code, message, fix, at, file);
const warn = (code: string, message: string, fix: string, at?: CardAt, file?: File) =>
  finding('warning', code, message, fix, at, file);
