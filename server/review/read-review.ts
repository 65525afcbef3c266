import { stat } from 'node:fs/promises';
import type { CardsState, MaterialState, NotesState } from '../../schemas/api';
import { InvolutError } from '../cli/errors';
import { openRepo } from '../git/repo';
import { assertReviewDirSafe, type ReviewDir } from './review-dir';
import { readSettled, toState, type SettledRead } from './review-files';

/** The three review files of a repository, read once, as states, with the parsed JSON of each. */
export interface ReviewRead {
  root: string;
  review: ReviewDir;
  material: MaterialState;
  cards: CardsState;
  notes: NotesState;
  /** Each file's parsed JSON as it is on disk; undefined when the file is missing or is not JSON. */
  raw: { material: unknown; cards: unknown; notes: unknown };
}

/**
 * Reads `.review/` of the repository holding `dir` (its git top level), for the commands that
 * read it once and exit. A file that does not parse is read as it is, without waiting for a
 * writer to finish: these commands run after the writing, at the agent's or reader's request.
 */
export async function readReview(dir: string): Promise<ReviewRead> {
  const root = await repoRoot(dir);
  const review = await assertReviewDirSafe(root);
  const settle = { maxWaitMs: 0 };
  const [material, cards, notes] = await Promise.all([
    readSettled(review.material, settle),
    readSettled(review.cards, settle),
    readSettled(review.notes, settle),
  ]);
  return {
    root,
    review,
    material: toState('material', material),
    cards: toState('cards', cards),
    notes: toState('notes', notes),
    raw: { material: valueOf(material), cards: valueOf(cards), notes: valueOf(notes) },
  };
}

/** The git top level of the repository holding `dir`, which must be a folder. */
export async function repoRoot(dir: string): Promise<string> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) {
    throw new InvolutError('not-a-repo', `${dir} is not a folder; pass --repo with the folder of your repository.`);
  }
  return (await openRepo(dir)).root;
}

const valueOf = (read: SettledRead): unknown => ('value' in read ? read.value : undefined);
