import type { Card } from '../schemas/cards';
import type { MaterialEntry } from '../schemas/material';
import type { Note, Notes } from '../schemas/notes';
import { diffLines } from './diff-lines';
import { placeLineNote } from './line-notes';
import { linesLabel, parseNoteKey, type LineTarget, type NoteTarget } from './note-keys';
import { placeOfNote, type Place } from './place';
import { openNotes, type Thread } from './threads';

/** What the agent is asked to do with the notes; the viewer's prompt and `involut notes` both start with it. */
const NOTES_INSTRUCTION =
  'Read `.review/notes.json` and address every note: a change request gets a change, a question gets an answer, and either way write a new card in `.review/cards.json` that lists the note keys it addresses in `addresses`. Never edit `.review/notes.json`.';

/** What a prompt reads of a changed file: its diff places line notes (not placed while it is not at hand). */
type PromptEntry = Pick<MaterialEntry, 'ref'> & { diff?: string | null };

/** What the notes can be told with, besides themselves; each part is optional. */
export interface NotesContext {
  /** The cards, to order card notes as cards.json does. */
  cards?: Card[];
  /** The changed files, to order file groups as the material does and to place line notes in the current diff. */
  material?: PromptEntry[];
  /** Each note's thread (`noteThreads`), to say which cards address it and whether it reads as answered. */
  threads?: Map<string, Thread>;
  /** The viewer link that opens on a place (when a server is running): a note's card, file or line. */
  linkOf?: (place: Place) => string | null;
  /** Say "(open)" after an open note's title too, as `involut notes --all` does beside answered and resolved ones. */
  marksOpen?: boolean;
}

/**
 * What "Copy as prompt" copies: the instruction with the notes still open (neither
 * answered nor resolved), as `involut notes` prints them; null when none is open.
 */
export function openNotesPrompt(notes: Notes['notes'], context: NotesContext & { threads: Map<string, Thread> }) {
  const open = openNotes(notes, context.threads);
  return open.length === 0 ? null : notesPrompt(Object.fromEntries(open), context);
}

/** The instruction a reader hands to the agent, with every note as Markdown below it. */
export function notesPrompt(notes: Notes['notes'], context: NotesContext = {}): string {
  const body = notesMarkdown(notes, context);
  return body === '' ? NOTES_INSTRUCTION : `${NOTES_INSTRUCTION}\n\n${body}`;
}

/**
 * The notes as Markdown: a section per card note, then a section per file holding the
 * file's note and its line notes in line order. Each note says its kind, where it sits
 * (in its file, under the file's heading), its title, key and refs, the quoted line of a line note, and the reader's words.
 */
function notesMarkdown(notes: Notes['notes'], context: NotesContext = {}): string {
  const sections: string[] = [];
  const { cardNotes, files } = groupNotes(notes, context);
  for (const [key, note] of cardNotes) sections.push(noteMarkdown('##', key, note, context));
  for (const [ref, entries] of files) {
    sections.push(`## File \`${ref}\``, ...entries.map(([key, note]) => noteMarkdown('###', key, note, context)));
  }
  return sections.length === 0 ? '' : `${sections.join('\n\n')}\n`;
}

type Entry = [string, Note];

/** Card notes in cards.json order, then files in material order, each file's notes by line. */
function groupNotes(
  notes: Notes['notes'],
  { cards = [], material = [] }: NotesContext,
): { cardNotes: Entry[]; files: Map<string, Entry[]> } {
  const cardOrder = new Map(cards.map((card, i) => [card.id, i]));
  const fileOrder = new Map(material.map((entry, i) => [entry.ref, i]));
  const cardNotes: Entry[] = [];
  const byFile = new Map<string, Entry[]>();
  for (const entry of Object.entries(notes)) {
    const target = parseNoteKey(entry[0]);
    if (target.kind === 'card') cardNotes.push(entry);
    else byFile.set(target.ref, [...(byFile.get(target.ref) ?? []), entry]);
  }
  cardNotes.sort(([a], [b]) => rank(cardOrder, a) - rank(cardOrder, b));
  const files = [...byFile].sort(([a], [b]) => rank(fileOrder, a) - rank(fileOrder, b) || a.localeCompare(b));
  for (const [, entries] of files) entries.sort(([a], [b]) => lineOrder(parseNoteKey(a)) - lineOrder(parseNoteKey(b)));
  return { cardNotes, files: new Map(files) };
}

/** Known items first, in their order; the rest keep the order they came in (the sort is stable). */
const rank = (order: Map<string, number>, key: string) => order.get(key) ?? order.size;

/** The file's own note first, then line notes by number, the old side before the new on the same number. */
const lineOrder = (target: NoteTarget) =>
  target.kind === 'line' ? target.line * 2 + (target.side === '+' ? 1 : 0) + 1 : 0;

function noteMarkdown(level: string, key: string, note: Note, context: NotesContext): string {
  const target = parseNoteKey(key);
  // A file's notes sit under its own `## File` heading: theirs say only where in it, and the
  // title only when it says more than the place (the viewer titles a file or line note by its place).
  const where =
    target.kind === 'card' ? `card \`${target.id}\`` : target.kind === 'file' ? 'the file' : linesLabel(target);
  const place = target.kind === 'card' ? null : target.kind === 'file' ? target.ref : `${target.ref} ${where}`;
  const title = note.title === place || (target.kind !== 'card' && note.title === target.ref) ? '' : `: ${note.title}`;
  const thread = context.threads?.get(key);
  const state = thread?.state ?? 'open';
  const marked = state !== 'open' || context.marksOpen ? ` (${state})` : '';
  const heading = `${level} ${note.kind === 'question' ? 'Question' : 'Change'} on ${where}${title}${marked}`;
  const lines = [heading, '', `- key: \`${key}\``];
  if (note.refs.length) lines.push(`- refs: ${note.refs.map((r) => `\`${r}\``).join(', ')}`);
  if (thread && thread.addressedBy.length) {
    const by = thread.addressedBy.map((id) => `\`${id}\``).join(', ');
    lines.push(thread.answered ? `- answered by ${by}` : `- addressed by ${by} (still open)`);
  }
  const moved = target.kind === 'line' && context.material ? linePlace(target, note, context.material) : null;
  if (moved) lines.push(moved.says);
  // The link follows the quoted line: to where it is now, or to its file once it left the diff.
  const linked = placeOfNote(key);
  if (moved && linked.line) {
    if (moved.now === null) delete linked.line;
    else linked.line = { side: linked.line.side, number: moved.now };
  }
  const link = context.linkOf?.(linked);
  if (link) lines.push(`- open: ${link}`);
  if (note.resolvedAt !== undefined) lines.push(`- resolved by the reader at ${note.resolvedAt}`);
  if (note.quote !== undefined) lines.push('', ...fenced(note.quote));
  for (const earlier of note.earlier ?? []) {
    const by = earlier.answeredBy.map((card) => `\`${card.id}\``).join(', ');
    lines.push('', `Earlier${by ? `, answered by ${by}` : ''}:`, '', ...quoted(earlier.text));
  }
  if (note.earlier?.length) lines.push('', 'Follow-up:');
  lines.push('', ...quoted(note.text));
  return lines.join('\n');
}

const quoted = (text: string) => text.split('\n').map((line) => (line === '' ? '>' : `> ${line}`));

/**
 * Where a line note's quoted lines are in this round's diff, when they are not where the key
 * says: the line that says so, and the line they start at now (null: no longer in the diff).
 */
function linePlace(
  target: LineTarget,
  note: Note,
  material: PromptEntry[],
): { says: string; now: number | null } | null {
  const entry = material.find((e) => e.ref === target.ref);
  if (!entry) return { says: `- outdated: \`${target.ref}\` is not among this round's changed files`, now: null };
  if (entry.diff === undefined) return null;
  const place = placeLineNote(diffLines(entry.diff ?? ''), target.side, target.line, note.quote, target.to);
  const what = target.to > target.line ? 'the quoted lines are' : 'the quoted line is';
  if (place.state === 'outdated') return { says: `- outdated: ${what} no longer in the diff`, now: null };
  if (place.state === 'moved')
    return {
      says: `- moved: ${what} now ${linesLabel({ side: target.side, line: place.from, to: place.to })}`,
      now: place.from,
    };
  return null;
}

/** A diff fence that no run of backticks inside the quote can close. */
function fenced(quote: string): string[] {
  const longest = Math.max(0, ...[...quote.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}diff`, quote, fence];
}
