import type { Card } from '../../schemas/cards';
import type { Detail } from '../model/detail';
import { Visible } from './Visible';

/* How much of a card shows, and what stands in for the rest. */

/** A folded card in one line: why it was done (or how many files it names), and a way to open it. */
export function FoldedSummary({ card, files, onOpen }: { card: Card; files: number; onOpen: () => void }) {
  const line = card.why?.trim() || `${files} ${files === 1 ? 'file' : 'files'}, no reason given.`;
  return (
    <p className="inv-card-folded">
      <span className="inv-card-folded-line" title={line}>
        <Visible text={line} />
      </span>
      <button type="button" className="inv-link" onClick={onOpen}>
        Show the summary
      </button>
    </p>
  );
}

/** Above a drawing in the summary: which files it stands for, and that their diff is one click away. */
export function DrawnFiles({ refs, onFull }: { refs: string[]; onFull: () => void }) {
  const named = refs.slice(0, 3);
  const more = refs.length - named.length;
  return (
    <p className="inv-drawn-files">
      <span>
        The drawing stands for the diff of{' '}
        {named.map((ref, i) => (
          <span key={ref}>
            {i > 0 && (i === named.length - 1 && more === 0 ? ' and ' : ', ')}
            <code>
              <Visible text={ref} />
            </code>
          </span>
        ))}
        {more > 0 && ` and ${more} more`}.
      </span>
      <button type="button" className="inv-link" onClick={onFull}>
        Show the diff too
      </button>
    </p>
  );
}

/** Folded, summary or full: how much of the card shows. */
export function DetailSwitch({
  title,
  detail,
  onDetail,
}: {
  title: string;
  detail: Detail;
  onDetail: (d: Detail) => void;
}) {
  return (
    <div className="inv-detail" role="group" aria-label="How much of the card to show">
      {(['folded', 'summary', 'full'] as const).map((d) => (
        <button
          key={d}
          type="button"
          aria-pressed={detail === d}
          aria-label={`${d}: ${title}`}
          onClick={() => onDetail(d)}
        >
          {d}
        </button>
      ))}
    </div>
  );
}
