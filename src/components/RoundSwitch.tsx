import type { SinceLastView } from '../state/useSinceLast';

export type RoundView = 'whole' | 'since';

/** Raw mode's switch between the whole round and what changed since the previous one; says why when it cannot. */
export function RoundSwitch({
  view,
  onView,
  sinceLast,
}: {
  view: RoundView;
  onView: (view: RoundView) => void;
  sinceLast: SinceLastView;
}) {
  const since = sinceLast.state === 'ok' ? sinceLast.data : null;
  const unavailable = sinceLast.state === 'ok' ? null : whyUnavailable(sinceLast);
  const count = since?.material.length ?? 0;
  return (
    <div className="inv-round-switch">
      <div className="inv-segmented" role="group" aria-label="Which changes">
        <button type="button" aria-pressed={view === 'whole' || !since} onClick={() => onView('whole')}>
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
