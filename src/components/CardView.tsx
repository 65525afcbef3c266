import type { Card } from '../../schemas/cards';
import type { Entry } from '../model/entry';
import type { Api } from '../api/client';
import type { DiffFormat } from '../diff/diff2html';
import type { Detail } from '../model/detail';
import { cardKey } from '../../shared/note-keys';
import { useRender } from '../renders/useRender';
import type { CardOrigins } from '../state/useCardRounds';
import type { NotesApi } from '../state/notes-api';
import type { SinceLastView } from '../state/useSinceLast';
import { CardAddresses } from './CardAddresses';
import { DetailSwitch, DrawnFiles, FoldedSummary } from './CardDetail';
import { CardFields } from './CardFields';
import { CardThread } from './CardThread';
import { NoteBox } from './NoteBox';
import { invisibleWarning } from '../model/invisible';
import { Question, type Prediction } from './Question';
import { QuestionMark } from './QuestionsWaiting';
import { InlineMarkdown } from './InlineMarkdown';
import { CardDiffs, CardRound } from './CardRound';

export interface CardContext {
  entries: Map<string, Entry>;
  api: Api;
  notes: NotesApi;
  format: DiffFormat;
  isViewed: (entry: Entry) => boolean;
  setViewed: (entry: Entry, on: boolean) => void;
  titleOf: (id: string) => string | undefined;
  onSelect: (id: string) => void;
  /** Which round each card comes from; null when that cannot be told (the first round). */
  origins: CardOrigins | null;
  sinceLast: SinceLastView;
}

interface Props {
  card: Card;
  context: CardContext;
  detail: Detail;
  onDetail: (detail: Detail) => void;
  prediction: Prediction | undefined;
  onPredict: (p: Prediction) => void;
  dangling: string[];
  continuedBy: string[];
}

/** One card: the agent's account, its question, its drawing, then the diff of every ref it names. */
export function CardView({ card, context, detail, onDetail, prediction, onPredict, dangling, continuedBy }: Props) {
  const { entries, api, notes } = context;
  const question = card.question ?? null;
  const gated = question?.when === 'before' && !prediction;
  const render = useRender(card);
  const drawing = render === 'loading' ? null : render;
  const refs = card.refs.filter((ref) => entries.has(ref));
  // In the summary, the drawing stands for the files it draws; every other file (all of them when
  // the drawing is absent or malformed) keeps its diff on the card. While it loads, it stands for all.
  const undrawn =
    detail === 'summary' && drawing
      ? refs.filter((ref) => !('Draw' in drawing) || (drawing.draws && !drawing.draws(entries.get(ref)!)))
      : [];
  const diffs = detail === 'full' ? refs : undrawn;
  return (
    <article className={`inv-card inv-intent-${card.intent}`} aria-label={`Card ${card.title}`} data-card-id={card.id}>
      <header className="inv-card-header">
        <span className={`inv-intent inv-intent-badge-${card.intent}`}>{card.intent}</span>
        <h2>
          <InlineMarkdown text={card.title} />
        </h2>
        <CardRound id={card.id} origins={context.origins} />
        <span className="inv-minutes">{card.minutes == null ? 'minutes not stated' : `${card.minutes} min`}</span>
        <DetailSwitch title={card.title} detail={detail} onDetail={onDetail} />
      </header>
      <CardInvisibleWarning card={card} />
      <CardThread card={card} continuedBy={continuedBy} context={context} />
      <CardAddresses cardId={card.id} keys={card.addresses ?? []} notes={notes.notes} />
      {detail === 'folded' && <FoldedSummary card={card} files={refs.length} onOpen={() => onDetail('summary')} />}
      {/* An "after" question is drawn only under the full diff: short of that, say it waits. */}
      {question && !prediction && (detail === 'folded' || (detail === 'summary' && question.when === 'after')) && (
        <p className="inv-question-waiting">
          <QuestionMark />
          <span>
            <InlineMarkdown text={question.text} />
          </span>
          <button
            type="button"
            className="inv-link"
            onClick={() => onDetail(question.when === 'after' ? 'full' : 'summary')}
          >
            {question.when === 'after' ? 'Read the diff and answer' : 'Answer it'}
          </button>
        </p>
      )}
      {dangling.length > 0 && <Dangling refs={dangling} from={earlierRound(card.id, context.origins)} />}
      {detail !== 'folded' && (
        <>
          <CardFields card={card} />
          {question?.when === 'before' && (
            <Question question={question} prediction={prediction} onPredict={onPredict} />
          )}
        </>
      )}
      {/* Folded or not, the card takes a note. */}
      <NoteBox
        noteKey={cardKey(card.id)}
        title={card.title}
        refs={card.refs}
        notes={notes}
        label={`Note on card ${card.title}`}
        hint
      />
      {/* The drawing is part of the summary: it is often the quickest way to see the change. */}
      {detail !== 'folded' && !gated && (
        <>
          {drawing && 'absent' in drawing && (
            <p className="inv-render-absent" role="note">
              {drawing.absent}
            </p>
          )}
          {render === 'loading' && (
            <section className="inv-render" aria-label={`${card.render} drawing`} aria-busy="true">
              <p className="inv-muted">Loading the drawing…</p>
            </section>
          )}
          {drawing && 'Draw' in drawing && detail === 'summary' && refs.length > undrawn.length && (
            <DrawnFiles refs={refs.filter((ref) => !undrawn.includes(ref))} onFull={() => onDetail('full')} />
          )}
          {drawing && 'Draw' in drawing && (
            <section className="inv-render" aria-label={`${card.render} drawing`}>
              <drawing.Draw card={card} entries={refs.map((r) => entries.get(r)!)} api={api} data={drawing.data} />
            </section>
          )}
        </>
      )}
      {diffs.length > 0 && !gated && (
        <>
          {detail === 'full' && refs.length > 0 && (
            <p className="inv-card-progress inv-muted">
              {refs.filter((ref) => context.isViewed(entries.get(ref)!)).length} of {refs.length}{' '}
              {refs.length === 1 ? 'file' : 'files'} viewed
            </p>
          )}
          <CardDiffs card={card} refs={diffs} context={context} />
          {detail === 'full' && question?.when === 'after' && (
            <Question question={question} prediction={prediction} onPredict={onPredict} />
          )}
        </>
      )}
      {detail === 'summary' && !gated && refs.length > undrawn.length && (
        <button type="button" className="inv-show-diff" onClick={() => onDetail('full')}>
          Show the diff of {refs.length - undrawn.length} {undrawn.length > 0 ? 'more ' : ''}
          {refs.length - undrawn.length === 1 ? 'file' : 'files'}
        </button>
      )}
    </article>
  );
}

/** The round a card of an earlier round comes from; undefined for a card new in this one, or when it cannot be told. */
function earlierRound(id: string, origins: CardOrigins | null): number | undefined {
  const from = origins?.roundOf(id);
  return origins && from !== undefined && from < origins.round ? from : undefined;
}

/**
 * The refs a card names that this round does not change. On a new card it is the agent's
 * slip (red, as check warns); on an earlier card, which is never edited, the code moved on:
 * information, as check says it.
 */
function Dangling({ refs, from }: { refs: string[]; from: number | undefined }) {
  const names = `${refs.length === 1 ? 'a file that is' : 'files that are'} not in this round: ${refs.map((r) => `“${r}”`).join(', ')}`;
  return from === undefined ? (
    <p className="inv-dangling" role="note">
      Names {names}.
    </p>
  ) : (
    <p className="inv-dangling inv-dangling-earlier" role="note">
      For information: names {names}. The card is from round {from}, and the code moved on since.
    </p>
  );
}

/** A warning on a card whose text (any field the agent wrote) holds direction-control or invisible characters. */
function CardInvisibleWarning({ card }: { card: Card }) {
  const warning = invisibleWarning(JSON.stringify(card), 'This card');
  if (!warning) return null;
  return (
    <p className="inv-invisible-warning" role="alert">
      {warning}
    </p>
  );
}
