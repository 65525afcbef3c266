import path from 'node:path';
import type { Card, Intent } from '../../schemas/cards';
import type { Note } from '../../schemas/notes';
import { linesLabel, parseNoteKey } from '../../shared/note-keys';

/** Where the demo's agent writes down a note it cannot leave as a comment in the file itself. */
export const TODO_FILE = 'docs/review-todo.md';

/** One line the agent inserts into a file of the working tree. */
export interface Insertion {
  /** The file, relative to the repository root. */
  ref: string;
  /** 1-based line the text goes before; past the end appends. */
  before: number;
  /** The whole line, without its newline. */
  text: string;
}

/** What the agent does about the notes handed over: the lines it writes, and the cards that say so. */
export interface Answer {
  insertions: Insertion[];
  cards: Card[];
}

/** What the agent knows of the repository while it plans: a text file's lines, or null (missing, binary). */
export type ReadLines = (ref: string) => string[] | null;

/** How a comment is written in a file, by its extension; null: a file that takes no comment (JSON, images). */
function commentFor(ref: string): ((text: string) => string) | null {
  const ext = path.extname(ref).toLowerCase();
  if (['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'].includes(ext)) return (t) => `// ${t}`;
  if (['.sql'].includes(ext)) return (t) => `-- ${t}`;
  if (['.sh', '.py', '.yml', '.yaml', '.toml', '.rb'].includes(ext)) return (t) => `# ${t}`;
  if (['.css'].includes(ext)) return (t) => `/* ${t.replaceAll('*/', '* /')} */`;
  if (['.md', '.html'].includes(ext)) return (t) => `<!-- ${t.replaceAll('-->', '—>')} -->`;
  return null;
}

/** A note's words on one line, short enough for a comment or a title. */
function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/**
 * The scripted agent of `involut demo`: one new card for each open note, as the skill asks
 * of an agent. It cannot make the change a note asks for, so it leaves the reader's words
 * as a TODO comment where the note was written (or in TODO_FILE for a file that takes no
 * comment), and answers a question from what the cards already say. Each card lists the
 * note in `addresses` and `continues` the card the note was on; none edits an earlier card.
 */
export function answerNotes(open: Array<[string, Note]>, cards: Card[], round: number, readLines: ReadLines): Answer {
  const insertions: Insertion[] = [];
  const answers: Card[] = [];
  const taken = new Set(cards.map((card) => card.id));
  const todoLines = readLines(TODO_FILE);
  // Everything for TODO_FILE goes after its last line, in order (insertLines keeps the order of equal places).
  const todoEnd = (todoLines?.length ?? 0) + 1;
  let todoStarted = todoLines !== null;
  for (const [index, [key, note]] of open.entries()) {
    const target = parseNoteKey(key);
    const onCard = target.kind === 'card' ? cards.find((card) => card.id === target.id) : undefined;
    const ref = target.kind === 'card' ? (onCard?.refs ?? note.refs)[0] : target.ref;
    const place =
      target.kind === 'card'
        ? `the card “${note.title}”`
        : target.kind === 'line'
          ? `${target.ref}, ${linesLabel(target)}`
          : target.ref;
    const question = note.kind === 'question';
    const words = oneLine(note.text, 100);
    const label = question ? `Asked in review: ${words}` : `TODO(review): ${words}`;
    const lines = ref === undefined ? null : readLines(ref);
    const comment = ref === undefined ? null : commentFor(ref);
    let insertion: Insertion;
    if (ref !== undefined && lines !== null && comment !== null) {
      // A line note on the new side goes above its line, indented as it is; else the file's top.
      const before = target.kind === 'line' && target.side === '+' ? Math.min(target.line, lines.length + 1) : 1;
      const indent = /^\s*/.exec(lines[before - 1] ?? '')?.[0] ?? '';
      insertion = { ref, before, text: `${indent}${comment(label)}` };
    } else {
      const head = todoStarted
        ? []
        : ['# Notes from the review', '', 'What the reader asked for that is still to do.', ''];
      for (const text of head) insertions.push({ ref: TODO_FILE, before: todoEnd, text });
      todoStarted = true;
      insertion = { ref: TODO_FILE, before: todoEnd, text: `- ${place}: ${words}` };
    }
    insertions.push(insertion);
    const where = insertion.ref === TODO_FILE ? TODO_FILE : `${insertion.ref}, where you wrote the note`;
    const continued = onCard?.id ?? null;
    answers.push({
      id: freshId(`c_r${round}_${index + 1}`, taken),
      title: question ? `Answered: “${oneLine(note.text, 70)}”` : `Kept as a TODO: “${oneLine(note.text, 70)}”`,
      intent: onCard?.intent ?? ((question ? 'behavior' : 'cleanup') satisfies Intent),
      minutes: 1,
      refs: [insertion.ref],
      why: question
        ? `You asked: “${words}”. ${answerFrom(onCard ?? cards.find((card) => ref !== undefined && card.refs.includes(ref)))} The question is kept as a comment in ${where}.`
        : `You asked: “${words}”. This demo's agent is a script: it cannot make the change, so it wrote your words as a TODO in ${where}. A real agent makes the change in this round and says here why it made it that way.`,
      skipped: question ? '' : 'The change itself: the demo’s agent only shows how an answer comes back.',
      unsure: null,
      unrequested: '',
      might_break: [],
      question: null,
      continues: continued,
      marks: [
        {
          ref: insertion.ref,
          at: insertion.text.trim(),
          text: question ? 'Your question, where you asked it.' : 'Your note, where you wrote it.',
        },
      ],
      addresses: [key],
    });
  }
  return { insertions, cards: answers };
}

/** A question's answer from the card it is about: its why, and what it was unsure of. */
function answerFrom(card: Card | undefined): string {
  if (!card)
    return 'No card claims this file, so the demo’s agent has nothing to answer from; a real agent reads the code and answers.';
  const why = card.why
    ? `The card “${card.title}” says why: ${card.why}`
    : `The card “${card.title}” does not say why.`;
  const unsure = card.unsure
    ? ` It was unsure about ${card.unsure.about.toLowerCase()}: it chose ${card.unsure.chose}, because ${card.unsure.because}`
    : '';
  return `${why}${unsure}${/[.!?]$/.test(unsure || why) ? '' : '.'} (The demo’s agent answers from its cards; a real agent answers your exact words.)`;
}

function freshId(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** The lines of a file with the insertions for it made, each before the line it names in the file as read. */
export function insertLines(lines: string[], insertions: Insertion[]): string[] {
  const out = [...lines];
  // From the bottom up, so each `before` still names a line of the file as it was read; stable for equal lines.
  const ordered = insertions
    .map((insertion, i) => ({ insertion, i }))
    .sort((a, b) => b.insertion.before - a.insertion.before || b.i - a.i);
  for (const { insertion } of ordered) out.splice(Math.min(insertion.before - 1, out.length), 0, insertion.text);
  return out;
}
