import type { RoundCommit } from '../../schemas/material';
import type { CommitView } from '../state/useCommit';
import { Visible } from './Visible';
import './rounds.css';

/** The round's commits, oldest first, to read one at a time; says how the chosen one's changes stand. */
export function CommitPicker({
  commits,
  chosen,
  onChoose,
  view,
}: {
  commits: RoundCommit[];
  chosen: string | null;
  onChoose: (id: string) => void;
  view: CommitView;
}) {
  const files = view.state === 'ok' ? view.data.material.length : null;
  return (
    <div className="inv-commits">
      <ol className="inv-commit-list" aria-label="Commits of this round, oldest first">
        {commits.map((commit, i) => (
          <li key={commit.id}>
            <button
              type="button"
              className="inv-commit"
              aria-pressed={commit.id === chosen}
              onClick={() => onChoose(commit.id)}
            >
              <span className="inv-commit-n">{i + 1}</span>
              <code className="inv-commit-id">{commit.id.slice(0, 7)}</code>
              <span className="inv-commit-subject">
                <Visible text={commit.subject} />
              </span>
            </button>
          </li>
        ))}
      </ol>
      <p className="inv-commit-state" role="status">
        {view.state === 'loading' && 'Reading the commit from git…'}
        {view.state === 'failed' && `Could not read the commit: ${view.reason}`}
        {view.state === 'none' && 'Choose a commit to see its files and diff.'}
        {files !== null &&
          (files === 0
            ? 'This commit changed no file.'
            : `${files} ${files === 1 ? 'file' : 'files'}; notes are taken on the whole round.`)}
      </p>
    </div>
  );
}
