import { noteRecord, setNote } from '../../../schemas/note-record';
import type { Notes } from '../../../schemas/notes';
import { notesPrompt } from '../../../shared/prompt';
import { noteThreads, type NoteState } from '../../../shared/threads';
import { InvolutError } from '../errors';
import type { Output } from '../output';
import { runnable } from '../invocation';
import { hasNotesCopy, notesRepair } from '../../review/notes-repair';
import { readReview } from '../../review/read-review';
import { namedShape } from '../../review/review-files';
import { findRunningServer } from '../../serve/running-servers';
import { linkTo, type Place } from '../../../shared/place';

export interface NotesFlags {
  /** Any folder inside the repository. */
  repo: string;
  /** Answered and resolved notes too, each marked with its state. Default false: only the open ones. */
  all: boolean;
}

/** What `--json` prints when there is no notes.json: the shape of a file with no notes. */
const NO_NOTES: Notes = { contract: 1, notes: {} };

/**
 * `involut notes`: the open notes (neither answered nor resolved) as Markdown for the
 * agent, grouped by card and by file; `--all`: every note with its state;
 * `--json`: notes.json as it is on disk.
 */
export async function notes(flags: NotesFlags, out: Output): Promise<void> {
  const read = await readReview(flags.repo);
  const { notes: state, cards, material } = read;
  if (state.state === 'invalid-json') {
    const where = state.line === null ? '' : ` at line ${state.line}, column ${state.column}`;
    throw new InvolutError(
      'bad-notes',
      `.review/notes.json is not valid JSON${where}${namedShape(state.message)}; ${notesRepair(await hasNotesCopy(read.review))}.`,
    );
  }
  if (state.state === 'invalid-schema') {
    throw new InvolutError(
      'bad-notes',
      '.review/notes.json does not match the contract; run `involut check` to see where.',
    );
  }
  if (out.json) {
    out.result(state.state === 'ok' ? read.raw.notes : NO_NOTES, () => []);
    return;
  }
  const all = state.state === 'ok' ? state.data.notes : noteRecord();
  const validCards = cards.state === 'ok' ? cards.data.cards : [];
  if (cards.state === 'invalid-json' || cards.state === 'invalid-schema') {
    out.warn('cards.json cannot be read, so no note shows the cards that address it; run `involut check` to see why.');
  }
  const entries = material.state === 'ok' ? material.data.material : undefined;
  const threads = noteThreads(all, validCards, material.state === 'ok' ? material.data.generated : null);
  // With a server running for the repository, each note says the link that opens the viewer on it.
  const server = await findRunningServer(read.root);
  const linkOf = server ? (place: Place) => linkTo(server.url, place) : undefined;
  const shown = noteRecord();
  for (const [key, note] of Object.entries(all))
    if (flags.all || threads.get(key)?.state === 'open') setNote(shown, key, note);
  const total = Object.keys(all).length;
  const inState = (state: NoteState) => [...threads.values()].filter((t) => t.state === state).length;
  // What the open list leaves out, as "2 answered, 1 resolved".
  const closed = (['answered', 'resolved'] as const)
    .filter((state) => inState(state) > 0)
    .map((state) => `${inState(state)} ${state}`)
    .join(', ');
  out.result(null, () => {
    if (Object.keys(shown).length === 0)
      return [
        flags.all ? 'No notes.' : 'No open notes.',
        ...(closed && !flags.all ? [runnable(`${closed}; \`involut notes --all\` shows them.`)] : []),
      ];
    const title = flags.all
      ? `# ${count(total)}: ${inState('open')} open, ${inState('answered')} answered, ${inState('resolved')} resolved`
      : `# ${count(inState('open'), 'open note')}`;
    const context = { cards: validCards, material: entries, threads, linkOf, marksOpen: flags.all };
    return [title, '', notesPrompt(shown, context).trimEnd()];
  });
}

const count = (n: number, word = 'note') => `${n} ${word}${n === 1 ? '' : 's'}`;
