import { matchSummary, type Match } from '../model/search';
import type { SearchOptions, SearchState } from '../state/useSearch';

interface Props {
  search: SearchState;
  /** Shows a match: draws its file and chunk, scrolls it below the headers. */
  onMatch: (match: Match) => void;
}

const TOGGLES: Array<[keyof SearchOptions, string, string]> = [
  ['caseSensitive', 'Aa', 'Match case'],
  ['wholeWord', 'W', 'Whole words only'],
  ['regex', '.*', 'Regular expression'],
];

/** The search field of the whole round (`/` focuses it): options, the count, previous and next. */
export function SearchBar({ search, onMatch }: Props) {
  const go = (step: 1 | -1) => {
    const match = search.step(step);
    if (match) onMatch(match);
  };
  const onKey = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      go(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') event.currentTarget.blur();
  };
  const none = search.matches.length === 0;
  return (
    <div className="inv-search" role="search">
      <input
        type="search"
        className="inv-search-input"
        placeholder="Search files"
        title="Search every file of the round (/)"
        aria-label="Search every file of the round"
        value={search.text}
        onChange={(e) => search.setText(e.target.value)}
        onKeyDown={onKey}
        spellCheck={false}
      />
      {TOGGLES.map(([key, label, title]) => (
        <button
          key={key}
          type="button"
          className="inv-search-toggle"
          aria-pressed={search.options[key]}
          title={title}
          aria-label={title}
          onClick={() => search.setOptions((o) => ({ ...o, [key]: !o[key] }))}
        >
          {label}
        </button>
      ))}
      <span className="inv-search-count" role="status" aria-live="polite">
        {status(search)}
      </span>
      <button
        type="button"
        className="inv-icon-button"
        aria-label="Previous match"
        title="Previous match (Shift+Enter)"
        disabled={none}
        onClick={() => go(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="inv-icon-button"
        aria-label="Next match"
        title="Next match (Enter)"
        disabled={none}
        onClick={() => go(1)}
      >
        ↓
      </button>
    </div>
  );
}

function status(search: SearchState): string {
  if (!search.text) return '';
  if (search.error) return search.error;
  if (search.pending && !search.result) return 'Searching…';
  if (!search.result) return '';
  const summary = matchSummary(search.result);
  // On a match: "3 / 12 in 4 files", short enough to keep the bar on one line.
  return search.at >= 0 && search.matches.length ? `${search.at + 1} / ${summary.replace(/ match(es)?/, '')}` : summary;
}
