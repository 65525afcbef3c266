import { checkReview, type Finding } from '../../check/findings';
import { notesLockedFindings } from '../../check/notes-locked';
import type { Output } from '../output';
import { runnable } from '../invocation';
import { hasNotesCopy } from '../../review/notes-repair';
import { readReview } from '../../review/read-review';
import { cardIdsIn, cardRounds } from '../../round/cards';

export interface CheckFlags {
  /** Any folder inside the repository. */
  repo: string;
  /** Warnings fail the check too. Default false. */
  strict: boolean;
}

/**
 * `involut check`: validates .review/cards.json and notes.json against the contract and the
 * material. Returns the exit code: 1 on errors (or on warnings with --strict), else 0.
 * Cards of earlier rounds are never edited, so what only the code moving on explains is
 * information about them, not a warning.
 */
export async function check(flags: CheckFlags, out: Output): Promise<number> {
  const { review, cards, notes, material, raw } = await readReview(flags.repo);
  const rounds = await cardRounds(
    review,
    cardIdsIn(raw.cards).map((id) => ({ id })),
  );
  const notesCopy = notes.state === 'ok' || notes.state === 'missing' ? false : await hasNotesCopy(review);
  const found = checkReview({
    cards,
    notes,
    material,
    raw: { cards: raw.cards, notes: raw.notes },
    rounds,
    notesCopy,
  });
  // The fixes are Involut's own sentences: the commands they name are made ones that run here.
  const findings = found.map((f) => (f.fix === undefined ? f : { ...f, fix: runnable(f.fix) }));
  findings.push(...(await notesLockedFindings(review)));
  const errors = findings.filter((f) => f.level === 'error').length;
  const warnings = findings.filter((f) => f.level === 'warning').length;
  const information = findings.length - errors - warnings;
  const repeated = new Set(findings.filter((f) => f.code === 'duplicate-id').map((f) => f.card));
  out.result({ errors, warnings, information, round: rounds.round, findings }, () => [
    ...findings.flatMap((f) => findingLines(f, repeated)),
    summary(errors, warnings, information),
  ]);
  return errors > 0 || (flags.strict && warnings > 0) ? 1 : 0;
}

/** `error c_2: what is wrong.` and, under it, `  fix: what to do.` (information has nothing to fix). */
function findingLines(finding: Finding, repeated: Set<string | undefined>): string[] {
  const line = `${finding.level} ${where(finding, repeated)}: ${finding.message}`;
  return finding.fix === undefined ? [line] : [line, `  fix: ${finding.fix}`];
}

/** The card's id; its place in the list too when it has no id or shares it; else the file. */
function where({ card, position, file }: Finding, repeated: Set<string | undefined>): string {
  if (position === undefined) return card ?? file;
  if (card === undefined) return `card ${position}`;
  return repeated.has(card) ? `${card} (card ${position})` : card;
}

function summary(errors: number, warnings: number, information: number): string {
  // Apart from the count, so it cannot be read as one of the warnings.
  const about =
    information > 0
      ? `; and ${information === 1 ? '1 line' : `${information} lines`} of information about earlier cards, nothing to fix`
      : '';
  if (errors + warnings === 0) return `cards.json is clean${about}`;
  return `${count(errors, 'error')}, ${count(warnings, 'warning')}${about}`;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
