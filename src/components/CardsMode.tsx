import { useLayoutEffect } from 'react';
import type { InvalidCard } from '../../schemas/api';
import type { Card } from '../../schemas/cards';
import { FileDiff } from '../diff/FileDiff';
import { holdFileInPlace } from '../diff/holdInPlace';
import { continuations, type Coverage } from '../model/coverage';
import { usePreloadRenders } from '../renders/useRender';
import { revealTarget, useTarget } from '../state/target';
import type { useReading } from '../state/useReading';
import { CardView, type CardContext } from './CardView';
import { InvalidCardView } from './InvalidCardView';
import { NotesOnGoneCards } from './NotesElsewhere';
import { Sidebar, UNCLAIMED, invalidId } from './Sidebar';
import { MAIN_ID } from './SkipLink';

interface Props {
  cards: Card[];
  invalid: InvalidCard[];
  request: string | null | undefined;
  coverage: Coverage;
  /** The id of every card in cards.json, valid or not: a card note on any other is shown apart. */
  cardIds: ReadonlySet<string>;
  fits: Set<string>;
  context: CardContext;
  reading: ReturnType<typeof useReading>;
  selected: string | null;
}

/** Reading by cards: the groups on the left, the selected card (or the unclaimed files) on the right. */
export function CardsMode({ cards, invalid, request, coverage, cardIds, fits, context, reading, selected }: Props) {
  usePreloadRenders(cards);
  const next = continuations(cards);
  const card = cards.find((c) => c.id === selected);
  const invalidIndex = invalid.findIndex((_, i) => invalidId(i) === selected);
  // A file no card claims, chosen in the sidebar, is shown among them, at its top.
  const target = useTarget();
  useLayoutEffect(() => {
    if (selected !== UNCLAIMED || !target?.scroll || target.line) return;
    const section = document.querySelector(
      `section[aria-label="Files no card claims"] section.inv-file[data-ref="${CSS.escape(target.ref)}"]`,
    );
    if (!section) return;
    section.scrollIntoView({ block: 'start' });
    holdFileInPlace(target.ref);
  }, [selected, target]);
  const openFile = (ref: string) => {
    context.onSelect(UNCLAIMED);
    revealTarget(ref);
  };
  return (
    <div className="inv-layout">
      <Sidebar
        cards={cards}
        invalid={invalid}
        coverage={coverage}
        request={request}
        fits={fits}
        selected={selected}
        onSelect={context.onSelect}
        onOpenFile={openFile}
        answered={(id) => !!reading.predictions[id]}
        isNew={(id) => context.origins !== null && context.origins.roundOf(id) === context.origins.round}
      />
      <main id={MAIN_ID} tabIndex={-1} className="inv-main" aria-label="Selected card">
        <NotesOnGoneCards cardIds={cardIds} notes={context.notes} />
        {card && (
          <CardView
            key={card.id}
            card={card}
            context={context}
            detail={reading.detailOf(card.id, card.intent)}
            onDetail={(d) => reading.setDetail(card.id, card.intent, d)}
            prediction={reading.predictions[card.id]}
            onPredict={(p) => reading.predict(card.id, p)}
            dangling={coverage.dangling.get(card.id) ?? []}
            continuedBy={next.get(card.id) ?? []}
          />
        )}
        {invalidIndex !== -1 && <InvalidCardView card={invalid[invalidIndex]!} />}
        {selected === UNCLAIMED && (
          <section aria-label="Files no card claims">
            <h2 className="inv-section-title">Files no card claims</h2>
            {coverage.unclaimed.map((entry) => (
              <FileDiff
                key={entry.ref}
                entry={entry}
                format={context.format}
                api={context.api}
                notes={context.notes}
                marks={[]}
                viewed={context.isViewed(entry)}
                onViewed={(on) => context.setViewed(entry, on)}
                fileNote
              />
            ))}
          </section>
        )}
      </main>
    </div>
  );
}
