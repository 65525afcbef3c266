import type { PathState } from '../../schemas/material';
import type { Entry } from '../model/entry';
import { Visible } from './Visible';
import './rounds.css';

const STATE_TITLES: Record<PathState, string> = {
  committed: 'In a commit of this round',
  staged: 'Staged in the index, not committed',
  unstaged: 'Changed in the working tree, not staged',
  untracked: 'A new file git does not track yet',
};

const CONFLICTED_TITLE = 'A merge conflict git has not resolved: shown as the working copy, markers and all';

/** Where a file's change stands in git, as small labels; a change can stand in several places. */
export function PathStates({ entry }: { entry: Entry }) {
  const states = entry.provenance ?? [];
  if (!states.length && !entry.conflicted) return null;
  const label = [...(entry.conflicted ? ['conflicted'] : []), ...states].join(', ');
  return (
    <span className="inv-states" aria-label={`Change is ${label}`}>
      {entry.conflicted && (
        <span className="inv-state inv-state-conflicted" title={CONFLICTED_TITLE}>
          conflicted
        </span>
      )}
      {states.map((state) => (
        <span key={state} className={`inv-state inv-state-${state}`} title={STATE_TITLES[state]}>
          {state}
        </span>
      ))}
    </span>
  );
}

/** A long list folds after this many subjects. */
const SHOWN = 3;

/** The subjects of the round's commits that touched the file, oldest first. */
export function FileCommits({ entry }: { entry: Entry }) {
  const subjects = entry.commits ?? [];
  if (subjects.length === 0) return null;
  const item = (subject: string, i: number) => (
    <li key={i}>
      <Visible text={subject} />
    </li>
  );
  return (
    <div className="inv-file-commits" aria-label={`Commits that touched ${entry.ref}`}>
      <span className="inv-file-commits-label">{subjects.length === 1 ? 'Commit' : `${subjects.length} commits`}</span>
      <ol>{subjects.slice(0, SHOWN).map(item)}</ol>
      {subjects.length > SHOWN && (
        <details>
          <summary>{subjects.length - SHOWN} more</summary>
          <ol start={SHOWN + 1}>{subjects.slice(SHOWN).map((s, i) => item(s, i + SHOWN))}</ol>
        </details>
      )}
    </div>
  );
}
