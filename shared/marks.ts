import type { Mark } from '../schemas/cards';
import type { DiffLine } from './diff-lines';

/** A mark placed in its file's diff: under `line`, or at the top of the file when nothing matched. */
export interface PlacedMark {
  mark: Mark;
  /** Id of the card that wrote it. */
  cardId: string;
  /** The first diff line containing `mark.at`, or null when none does. */
  line: DiffLine | null;
}

/**
 * Pins each mark under the first line of its file's diff that contains `at`, exactly
 * as it reads in material.json (prefix included); a mark that matches nothing is kept
 * with `line: null`, to be shown at the top of the file quoting what it looked for.
 */
export function placeMarks(marks: Array<{ mark: Mark; cardId: string }>, lines: DiffLine[]): PlacedMark[] {
  return marks.map(({ mark, cardId }) => ({
    mark,
    cardId,
    line: lines.find((l) => l.text.includes(mark.at)) ?? null,
  }));
}
