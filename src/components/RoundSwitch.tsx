import type { SinceLastView } from '../state/useSinceLast';

export type RoundView = 'whole' | 'since' | 'commit';

/**
 * The switch between the whole round and what changed since the previous one (in Raw, and
 * on a card new in this round); says why when it cannot. `count` is how many files the
 * since view shows, when that is not every file changed since. With `commits` (Raw, a
 * round whose range has commits) it also offers to read the round commit by commit.
 */
export function RoundSwitch({
  view,
  onView,
  sinceLast,
  count: shownCount,
  commits = 0,
}: {
  view: RoundView;
  onView: (view: RoundView) => void;
  sinceLast: SinceLastView;
  count?: number;
  commits?: number;
}) {
  const since = sinceLast.state === 'ok' ? sinceLast.data : null;
  const unavailable = sinceLast.state === 'ok' ? null : whyUnavailable(sinceLast);
  const count = shownCount ?? since?.material.length ?? 0;
  return (
    <div className="inv-round-switch">
      <div className="inv-segmented" role="group" aria-label="Which changes">
        <button
          type="button"
          aria-pressed={view === 'whole' || (view === 'since' && !since)}
          onClick={() => onView('whole')}
        >
          Whole round
        </button>
        <button
          type="button"
          aria-pressed={view === 'since' && !!since}
          disabled={!since}
          title={unavailable ?? undefined}
          onClick={() => onView('since')}
        >
          {since ? `Since round ${since.from} (${count} ${count === 1 ? 'file' : 'files'})` : 'Since the last round'}
        </button>
        {commits > 0 && (
          <button type="button" aria-pressed={view === 'commit'} onClick={() => onView('commit')}>
            By commit ({commits})
          </button>
        )}
      </div>
      {unavailable && (
        <span className="inv-round-unavailable" role="note">
          {unavailable}
        </span>
      )}
    </div>
  );
}

function whyUnavailable(sinceLast: Exclude<SinceLastView, { state: 'ok' }>): string {
  switch (sinceLast.state) {
    case 'loading':
      return 'Comparing with the previous round…';
    case 'failed':
      return `Could not compare with the previous round: ${sinceLast.reason}`;
    case 'none':
      return sinceLast.reason;
  }
}
