import { useState } from 'react';
import type { Card } from '../../schemas/cards';
import type { Entry } from '../model/entry';
import { FileDiff } from '../diff/FileDiff';
import type { CardOrigins } from '../state/useCardRounds';
import type { CardContext } from './CardView';
import { RoundSwitch, type RoundView } from './RoundSwitch';
import { Visible } from './Visible';
import './rounds.css';

/** Whether a card is new in the round being read, or the round it comes from; nothing in a first round. */
export function CardRound({ id, origins }: { id: string; origins: CardOrigins | null }) {
  const from = origins?.roundOf(id);
  if (!origins || from === undefined) return null;
  return from === origins.round ? (
    <span className="inv-card-round inv-card-round-new">new in round {origins.round}</span>
  ) : (
    <span className="inv-card-round">from round {from}</span>
  );
}

/**
 * The diffs of a card's files. A card new in this round opens on what changed in its files
 * since the previous round, the whole round one click away; any other card shows the round.
 */
export function CardDiffs({ card, refs, context }: { card: Card; refs: string[]; context: CardContext }) {
  const { origins, sinceLast } = context;
  const isNew = origins !== null && origins.roundOf(card.id) === origins.round;
  const [view, setView] = useState<RoundView>('since');
  const since = isNew && sinceLast.state === 'ok' ? sinceLast.data : null;
  const changed = since ? refs.filter((ref) => since.material.some((e) => e.ref === ref)) : [];
  const showSince = since !== null && view === 'since';
  const shown: Entry[] = showSince
    ? since.material.filter((e) => refs.includes(e.ref))
    : refs.map((ref) => context.entries.get(ref)!);
  const unchanged = showSince ? refs.filter((ref) => !changed.includes(ref)) : [];
  // A mark is pinned to a line of the whole round; in the since view only those on a line shown here are pinned.
  const marksOf = (entry: Entry) =>
    (card.marks ?? []).filter((m) => m.ref === entry.ref && (!showSince || !!entry.diff?.includes(m.at)));
  const apart = showSince ? (card.marks ?? []).length - shown.reduce((n, e) => n + marksOf(e).length, 0) : 0;
  return (
    <>
      {isNew && <RoundSwitch view={view} onView={setView} sinceLast={sinceLast} count={changed.length} />}
      {unchanged.length > 0 && (
        <p className="inv-card-unchanged inv-muted" role="note">
          Unchanged since round {since!.from}:{' '}
          {unchanged.map((ref, i) => (
            <span key={ref}>
              {i > 0 && ', '}
              <Visible text={ref} />
            </span>
          ))}
          . Their whole-round diff is under “Whole round”.
        </p>
      )}
      {apart > 0 && (
        <p className="inv-card-unchanged inv-muted" role="note">
          {apart === 1 ? 'One mark is' : `${apart} marks are`} on lines not in this view; “Whole round” shows{' '}
          {apart === 1 ? 'it' : 'them'}.
        </p>
      )}
      {shown.map((entry) => (
        <FileDiff
          key={`${showSince ? 'since' : 'whole'}:${entry.ref}`}
          entry={entry}
          format={context.format}
          api={context.api}
          notes={context.notes}
          marks={marksOf(entry).map((mark) => ({ mark, cardId: card.id }))}
          viewed={context.isViewed(entry)}
          onViewed={(on) => context.setViewed(entry, on)}
          fileNote
          sinceRound={showSince ? since.from : undefined}
        />
      ))}
    </>
  );
}
