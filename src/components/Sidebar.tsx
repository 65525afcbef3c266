import type { InvalidCard } from '../../schemas/api';
import type { Card } from '../../schemas/cards';
import type { Entry } from '../model/entry';
import { useMemo } from 'react';
import { coverageLine, groupByIntent, type Coverage } from '../model/coverage';
import { LazyList } from './LazyList';
import { QuestionMark } from './QuestionsWaiting';
import { InlineMarkdown } from './InlineMarkdown';
import { RequestBox } from './RequestBox';
import { Visible } from './Visible';

export const UNCLAIMED = '__unclaimed';
export const invalidId = (i: number) => `__invalid:${i}`;

/** An invalid card's id when it has a usable one, else its position in cards.json. */
export function invalidCardName(card: InvalidCard): string {
  const raw = card.raw as { id?: unknown } | null;
  return typeof raw === 'object' && raw !== null && typeof raw.id === 'string' && raw.id
    ? `“${raw.id}”`
    : `card #${card.index + 1}`;
}

interface Props {
  cards: Card[];
  invalid: InvalidCard[];
  coverage: Coverage;
  request: string | null | undefined;
  fits: Set<string>;
  selected: string | null;
  onSelect: (id: string) => void;
  /** Shows one of the files no card claims, among them. */
  onOpenFile: (ref: string) => void;
  /** True once the reader answered or skipped the card's question. */
  answered: (id: string) => boolean;
  /** True for a card new in the round being read (marked "new" in the list). */
  isNew?: (id: string) => boolean;
}

/** The cards grouped by intent, the files no card claims, and how much the cards explain. */
export function Sidebar({
  cards,
  invalid,
  coverage,
  request,
  fits,
  selected,
  onSelect,
  onOpenFile,
  answered,
  isNew,
}: Props) {
  const groups = useMemo(() => groupByIntent(cards), [cards]);
  return (
    <nav className="inv-sidebar" aria-label="Cards">
      {request ? <RequestBox request={request} /> : null}
      <p className="inv-coverage">{coverageLine(coverage)}</p>
      {groups.map((group) => (
        <section key={group.intent} className="inv-group">
          <h3 className={`inv-group-title inv-intent-badge-${group.intent}`}>{group.intent}</h3>
          <LazyList items={group.cards} selected={group.cards.findIndex((card) => card.id === selected)}>
            {(card) => (
              <li key={card.id}>
                <button
                  type="button"
                  className="inv-nav-item"
                  aria-current={selected === card.id ? 'true' : undefined}
                  onClick={() => onSelect(card.id)}
                  title={fits.has(card.id) ? 'fits today’s budget' : 'beyond today’s budget'}
                >
                  <span className="inv-nav-title">
                    <InlineMarkdown text={card.title} links={false} />
                    {isNew?.(card.id) && <span className="inv-nav-new">new</span>}
                    {card.question && !answered(card.id) && <QuestionMark />}
                  </span>
                  <span className={`inv-nav-minutes${fits.has(card.id) ? '' : ' inv-over-budget'}`}>
                    {card.minutes == null ? '?' : `${card.minutes}′`}
                  </span>
                </button>
              </li>
            )}
          </LazyList>
        </section>
      ))}
      {invalid.length > 0 && (
        <section className="inv-group">
          <h3 className="inv-group-title inv-intent-badge-invalid">invalid cards</h3>
          <ul>
            {invalid.map((card, i) => (
              <li key={i}>
                <button
                  type="button"
                  className="inv-nav-item"
                  aria-current={selected === invalidId(i) ? 'true' : undefined}
                  onClick={() => onSelect(invalidId(i))}
                >
                  <span className="inv-nav-title">{invalidCardName(card)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="inv-group">
        <h3 className="inv-group-title">files no card claims</h3>
        {coverage.unclaimed.length === 0 ? (
          <p className="inv-muted">none: every changed file is on a card</p>
        ) : (
          <button
            type="button"
            className="inv-nav-item"
            aria-current={selected === UNCLAIMED ? 'true' : undefined}
            onClick={() => onSelect(UNCLAIMED)}
          >
            <span className="inv-nav-title">
              {coverage.unclaimed.length} {coverage.unclaimed.length === 1 ? 'file' : 'files'}
            </span>
          </button>
        )}
        <ul className="inv-unclaimed-list">
          {coverage.unclaimed.slice(0, 50).map((e: Entry) => (
            <li key={e.ref}>
              <button
                type="button"
                className="inv-link inv-unclaimed-file"
                title={e.ref}
                onClick={() => onOpenFile(e.ref)}
              >
                <Visible text={e.ref} />
              </button>
            </li>
          ))}
          {coverage.unclaimed.length > 50 && (
            <li>
              <button type="button" className="inv-link" onClick={() => onSelect(UNCLAIMED)}>
                … and {coverage.unclaimed.length - 50} more: show them all
              </button>
            </li>
          )}
        </ul>
      </section>
    </nav>
  );
}
