import { useState } from 'react';

/** Rows drawn at first, and drawn more per click: a table of 38,000 rows must not put them all in the page. */
const ROWS_STEP = 200;

/** How many of `total` rows are drawn, and a way to draw the next step. */
export function useShownRows(total: number): { shown: number; more: () => void } {
  const [asked, setAsked] = useState(ROWS_STEP);
  return { shown: Math.min(asked, total), more: () => setAsked((n) => n + ROWS_STEP) };
}

/** Under rows drawn in pieces: how many are not drawn yet, and a button for the next ones. */
export function ShowMore({
  shown,
  total,
  noun,
  onMore,
}: {
  shown: number;
  total: number;
  noun: string;
  onMore: () => void;
}) {
  if (shown >= total) return null;
  const left = total - shown;
  const next = Math.min(ROWS_STEP, left);
  return (
    <p className="inv-show-more">
      <button type="button" onClick={onMore}>
        Show {next.toLocaleString('en')} more {noun}
      </button>{' '}
      <span className="inv-muted">
        {shown.toLocaleString('en')} of {total.toLocaleString('en')} shown, {left.toLocaleString('en')} not drawn yet
      </span>
    </p>
  );
}
