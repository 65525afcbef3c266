import { sessionToken } from '../api/client';
import { formatPlace } from '../../shared/place';
import { CopyPath } from '../components/CopyPath';
import { PathStates } from '../components/Provenance';
import { Visible } from '../components/Visible';
import type { Entry } from '../model/entry';
import type { WhitespaceState } from './useWhitespace';

/** A file's header: fold, status, path, tags, counts, and what can be done with the file. */
export function FileHeader({
  entry,
  viewed,
  onViewed,
  open,
  onToggle,
  foldable,
  whitespace,
  preview,
}: {
  entry: Entry;
  viewed: boolean;
  onViewed: (on: boolean) => void;
  open: boolean;
  onToggle: () => void;
  foldable: boolean;
  whitespace: WhitespaceState;
  /** A Markdown file's rendered before and after, shown or not. */
  preview: { on: boolean; toggle: () => void } | null;
}) {
  return (
    <header className="inv-file-header">
      {foldable && (
        <button
          type="button"
          className="inv-icon-button"
          aria-expanded={open}
          aria-label={open ? `Fold ${entry.ref}` : `Unfold ${entry.ref}`}
          onClick={onToggle}
        >
          {open ? '▾' : '▸'}
        </button>
      )}
      <span className={`inv-status inv-status-${entry.status}`}>{entry.status}</span>
      <span className="inv-file-path">
        {entry.from ? (
          <>
            <span className="inv-from">
              <Visible text={entry.from} />
            </span>{' '}
            → <Visible text={entry.ref} />
          </>
        ) : (
          <Visible text={entry.ref} />
        )}
      </span>
      <FileTags entry={entry} />
      <PathStates entry={entry} />
      {(whitespace === 'hidden' || whitespace === 'only-whitespace') && (
        <span className="inv-tag" title="Whitespace-only changes are left out of this diff">
          whitespace hidden
        </span>
      )}
      <span className="inv-counts">
        {entry.additions != null && <span className="inv-add">+{entry.additions}</span>}
        {entry.deletions != null && <span className="inv-del">−{entry.deletions}</span>}
      </span>
      {preview && (
        <button
          type="button"
          className="inv-file-action"
          aria-pressed={preview.on}
          aria-label={`Preview ${entry.ref} rendered`}
          title="Show this Markdown file rendered, before and after"
          onClick={preview.toggle}
        >
          Preview
        </button>
      )}
      <CopyPath path={entry.ref} />
      <a
        className="inv-copy-link"
        href={formatPlace(sessionToken(), { mode: 'raw', file: entry.ref })}
        aria-label={`Link to ${entry.ref}`}
        title="Link to this file: open it, or copy it"
      >
        #
      </a>
      <label className="inv-viewed">
        <input
          type="checkbox"
          checked={viewed}
          aria-label={`Viewed: ${entry.ref}`}
          onChange={(e) => onViewed(e.target.checked)}
        />{' '}
        viewed
      </label>
    </header>
  );
}

function FileTags({ entry }: { entry: Entry }) {
  const tags: string[] = [];
  if (entry.status === 'renamed' && entry.similarity != null) tags.push(`${entry.similarity}% similar`);
  if (entry.binary) tags.push('binary');
  if (entry.generated) tags.push('generated');
  if (entry.symlink) tags.push('symlink');
  if (entry.submodule) tags.push('submodule');
  if (entry.withheld) tags.push('withheld');
  if (entry.mode && entry.diff) tags.push(`mode ${entry.mode.before} → ${entry.mode.after}`);
  return (
    <>
      {tags.map((t) => (
        <span key={t} className="inv-tag">
          {t}
        </span>
      ))}
    </>
  );
}
