import { checkReview, type Finding } from '../check/findings';
import { notesLockedFindings } from '../check/notes-locked';
import type { Output } from '../output';
import { readReview } from '../read-review';

export interface CheckFlags {
  /** Any folder inside the repository. */
  repo: string;
  /** Warnings fail the check too. Default false. */
  strict: boolean;
}

/**
 * `involut check`: validates .review/cards.json and notes.json against the contract and the
 * material. Returns the exit code: 1 on errors (or on warnings with --strict), else 0.
 */
export async function check(flags: CheckFlags, out: Output): Promise<number> {
  const { cards, notes, material, raw, review } = await readReview(flags.repo);
  const findings = checkReview({ cards, notes, material, raw: { cards: raw.cards, notes: raw.notes } });
  findings.push(...(await notesLockedFindings(review)));
  const errors = findings.filter((f) => f.level === 'error').length;
  const warnings = findings.length - errors;
  const repeated = new Set(findings.filter((f) => f.code === 'duplicate-id').map((f) => f.card));
  out.result({ errors, warnings, findings }, () => [
    ...findings.flatMap((f) => findingLines(f, repeated)),
    summary(errors, warnings),
  ]);
  return errors > 0 || (flags.strict && warnings > 0) ? 1 : 0;
}

/** `error c_2: what is wrong.` and, under it, `  fix: what to do.` */
function findingLines(finding: Finding, repeated: Set<string | undefined>): string[] {
  return [`${finding.level} ${where(finding, repeated)}: ${finding.message}`, `  fix: ${finding.fix}`];
}

/** The card's id; its place in the list too when it has no id or shares it; else the file. */
function where({ card, position, file }: Finding, repeated: Set<string | undefined>): string {
  if (position === undefined) return file;
  if (card === undefined) return `card ${position}`;
  return repeated.has(card) ? `${card} (card ${position})` : card;
}

function summary(errors: number, warnings: number): string {
  if (errors + warnings === 0) return 'cards.json is clean';
  return `${count(errors, 'error')}, ${count(warnings, 'warning')}`;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
