import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Card } from '../schemas/cards';
import type { RoundIndex } from '../schemas/api';
import type { RoundCommit } from '../schemas/material';
import { Api, sessionToken } from './api/client';
import { Banners } from './components/Banners';
import type { CardContext } from './components/CardView';
import { CardsMode } from './components/CardsMode';
import { Header } from './components/Header';
import { HandOver } from './components/HandOver';
import { HelpOverlay } from './components/HelpOverlay';
import { RoundArrived } from './components/RoundArrived';
import { QuestionsWaiting } from './components/QuestionsWaiting';
import { waitingQuestions } from './model/questions';
import { ThreadsContext, type Threads } from './components/NoteThread';
import { RawMode } from './components/RawMode';
import { SearchBar } from './components/SearchBar';
import { SidebarHandle } from './components/SidebarHandle';
import { SkipLink } from './components/SkipLink';
import { UndoDelete } from './components/UndoDelete';
import { ViewOptions } from './components/ViewOptions';
import { UNCLAIMED } from './components/Sidebar';
import type { DiffFormat } from './diff/diff2html';
import { highlightFound } from './diff/found';
import { landInSight } from './diff/landInSight';
import {
  fileOnScreen,
  fileToActOn,
  focusNoteBox,
  landOnNotesOf,
  stepFileSection,
  stepHunk,
  stepNote,
  unfoldFile,
} from './diff/moves';
import { budget } from './model/budget';
import { coverage as computeCoverage, groupByIntent } from './model/coverage';
import { fileTree, treeOrder } from './model/file-tree';
import type { Match } from './model/search';
import { nextFileWithNotes, notedRefs } from '../shared/note-keys';
import { noteThreads, openNotes } from '../shared/threads';
import { setStorageScope, useStored } from './state/storage';
import { useKeyboard } from './state/useKeyboard';
import { useNotes } from './state/useNotes';
import { useReading } from './state/useReading';
import { useReview } from './state/useReview';
import { useSearch } from './state/useSearch';
import { clearTarget, revealTarget, useTarget } from './state/target';
import { usePlace } from './state/usePlace';
import { parsePlace, type Place } from '../shared/place';
import { useCardRounds } from './state/useCardRounds';
import { useSidebar } from './state/useSidebar';
import { useSinceLast } from './state/useSinceLast';
import { useViewed } from './state/useViewed';
import { ViewSettingsContext } from './state/settings';
import { useViewOptions } from './state/useViewOptions';
import { DiffsContext, useDiffStore } from './state/diffs';

const token = sessionToken();
const api = new Api(token);
const NO_CARDS: Card[] = [];
const NO_COMMITS: RoundCommit[] = [];

/** The viewer: error, loading, or the round read by cards or in Raw. */
export function App() {
  const review = useReview(api);
  const material = review.material?.state === 'ok' ? review.material.data : null;
  const root = material?.source.root ?? null;
  const scopeReady = useMemo(() => {
    if (root) setStorageScope(root);
    return root !== null;
  }, [root]);
  // Wait for the cards and the notes too: whether the round opens by cards or in Raw depends
  // on the cards, and a note box shown before the notes arrive could be typed over.
  if (!review.material || (review.material.state === 'ok' && (!review.cards || !review.notes))) {
    return <Shell review={review}>{review.connection ? null : <p className="inv-empty">Loading the round…</p>}</Shell>;
  }
  if (!material) {
    return (
      <Shell review={review}>
        <div className="inv-empty">
          <h1>
            {review.material.state === 'mismatched' ? 'This round is not the one it names' : 'No round captured yet'}
          </h1>
          <p>
            {review.material.state === 'missing'
              ? 'There is no .review/material.json in this repository.'
              : review.material.state === 'mismatched'
                ? review.material.message
                : 'The .review/material.json of this repository is damaged.'}{' '}
            Run <code>{review.freshness?.command ?? 'involut'} rounds</code> in the repository; this page updates by
            itself.
          </p>
        </div>
      </Shell>
    );
  }
  const version = review.material.state === 'ok' ? review.material.version : '';
  return <Round key={root} review={review} material={material} version={version} scopeReady={scopeReady} />;
}

function Shell({ review, children }: { review: ReturnType<typeof useReview>; children: React.ReactNode }) {
  return (
    <div className="inv-app">
      <Banners review={review} />
      {children}
    </div>
  );
}

function Round({
  review,
  material,
  version,
  scopeReady,
}: {
  review: ReturnType<typeof useReview>;
  material: RoundIndex;
  /** The round's version, by which its diffs are fetched. */
  version: string;
  scopeReady: boolean;
}) {
  const entries = material.material;
  const diffs = useDiffStore(api, version, entries, () => review.refetch('material'));
  const notes = useNotes(
    api,
    { state: review.notes, seq: review.notesSeq, refetch: () => review.refetch('notes') },
    scopeReady,
  );
  useNewToken(review.refetchAll, notes.retry);
  const reading = useReading();
  const { isViewed, setViewed } = useViewed();
  const [format, setFormat] = useStored<DiffFormat>('format', 'line-by-line');
  const [help, setHelp] = useState(false);
  // What the last key did, and to which file: v and n say it, so the reader sees where they acted.
  const [keyStatus, setKeyStatus] = useState('');
  useEffect(() => {
    if (!keyStatus) return;
    const timer = setTimeout(() => setKeyStatus(''), 5000);
    return () => clearTimeout(timer);
  }, [keyStatus]);
  const options = useViewOptions();
  const sidebar = useSidebar();

  const good = review.lastGoodCards;
  const cards = good?.data.cards ?? NO_CARDS;
  const invalid = useMemo(() => good?.invalid ?? [], [good]);
  const hasCards = cards.length > 0 || invalid.length > 0;
  const cardIds = useMemo(
    () => new Set([...cards.map((c) => c.id), ...invalid.flatMap((c) => rawId(c.raw))]),
    [cards, invalid],
  );
  // Where the URL says the reader was (a reload, a copied link): read once, then kept in the URL.
  const [initial] = useState(() => startAt(parsePlace(window.location.hash)));
  // Until the reader picks a mode, cards open when there are any, Raw otherwise (also while cards.json is missing or broken).
  const [chosenMode, setMode] = useState<'cards' | 'raw' | null>(initial.mode ?? null);
  const mode = chosenMode ?? (hasCards ? 'cards' : 'raw');
  const origins = useCardRounds(api, material, good?.data ?? null);
  // Cards new in this round open on what changed since the previous one.
  const sinceLast = useSinceLast(api, material, mode === 'raw' || !hasCards || origins !== null);
  const [selected, setSelected] = useState<string | null>(initial.card ?? null);
  // The current file is the last jump's target (a tree click, ] or [, a search match, a link, a line chosen).
  const target = useTarget();
  const currentFile = target?.ref ?? null;
  const setCurrentFile = (ref: string | null) => (ref === null ? clearTarget() : revealTarget(ref));
  // In Cards, a line or file jumped to in the selected card (a search match) is part of the place too.
  const inCard =
    target !== null &&
    selected !== null &&
    (selected === UNCLAIMED || !!cards.find((c) => c.id === selected)?.refs.includes(target.ref));
  usePlace(
    token,
    mode === 'raw'
      ? { mode, file: target?.ref, line: target?.line }
      : { mode, card: selected ?? undefined, ...(inCard ? { file: target.ref, line: target.line } : {}) },
    (place) => {
      setMode(place.mode ?? null);
      if (place.card) setSelected(place.card);
      startAt(place);
    },
  );

  const byRef = useMemo(() => new Map(entries.map((e) => [e.ref, e])), [entries]);
  // Search matches are visited in Raw's order of files.
  // Built on the first search, not before the first paint: a round of 10,000 files takes tens of ms.
  const order = useMemo(() => {
    let built: Map<string, number> | null = null;
    return () => (built ??= new Map(treeOrder(fileTree(entries)).map((e, i) => [e.ref, i])));
  }, [entries]);
  const search = useSearch(api, order, material.generated);
  // Another search, or none: what the last one found is no longer highlighted.
  useEffect(() => highlightFound(null), [search.text, search.options]);
  // A match in a file the selected card shows is shown in that card; any other, in Raw.
  const showMatch = (match: Match) => {
    const inCard = mode === 'cards' ? cardFileSection(match.ref) : null;
    if (!inCard) setMode('raw');
    revealTarget(match.ref, match.line, { find: match.find });
    if (inCard && !match.line) landInSight(inCard);
  };
  const coverage = useMemo(() => computeCoverage(entries, cards), [entries, cards]);
  const markedRefs = useMemo(() => cards.flatMap((c) => (c.marks ?? []).map((m) => m.ref)), [cards]);
  const ordered = useMemo(() => groupByIntent(cards).flatMap((g) => g.cards), [cards]);
  const { total, fits } = useMemo(() => budget(ordered, reading.budgetMinutes), [ordered, reading.budgetMinutes]);

  // Cards that appear later (the agent is still writing) open the card view once.
  useEffect(() => {
    if (hasCards && selected === null) {
      setSelected(ordered[0]?.id ?? (coverage.unclaimed.length ? UNCLAIMED : null));
    }
  }, [hasCards, selected, ordered, coverage.unclaimed.length]);

  const titleOf = useCallback((id: string) => cards.find((c) => c.id === id)?.title, [cards]);
  const onSelect = useCallback((id: string) => {
    setMode('cards');
    setSelected(id);
    window.scrollTo({ top: 0 });
  }, []);
  const context: CardContext = {
    entries: byRef,
    api,
    notes,
    format,
    isViewed,
    setViewed,
    titleOf,
    onSelect,
    origins,
    sinceLast,
  };

  // One value per change of notes, cards or round, so note boxes re-render only then.
  const threadMap = useMemo(
    () => noteThreads(notes.notes, cards, material.generated),
    [notes.notes, cards, material.generated],
  );
  const threads = useMemo<Threads>(() => ({ threads: threadMap, titleOf, onSelect }), [threadMap, titleOf, onSelect]);

  // Back to the cards from Raw: the card holding the file in view, from its top.
  const changeMode = (next: 'cards' | 'raw') => {
    if (next === 'raw' || mode === 'cards' || !hasCards) return setMode(next);
    const ref = fileToActOn(currentFile);
    const holds = (id: string | null) => !!ref && !!cards.find((c) => c.id === id)?.refs.includes(ref);
    const card = holds(selected) ? selected : (ordered.find((c) => holds(c.id))?.id ?? null);
    if (card) return onSelect(card);
    if (ref && coverage.unclaimed.some((e) => e.ref === ref)) {
      onSelect(UNCLAIMED);
      revealTarget(ref);
      return;
    }
    setMode('cards');
    window.scrollTo({ top: 0 });
  };
  const stepFile = (step: 1 | -1) => {
    const ref = stepFileSection(step);
    if (ref) revealTarget(ref);
  };
  useKeyboard({
    nextCard: (step) => {
      if (mode === 'raw') return stepFile(step);
      const ids = [...ordered.map((c) => c.id), ...(coverage.unclaimed.length ? [UNCLAIMED] : [])];
      const at = selected ? ids.indexOf(selected) : -1;
      const next = ids[Math.max(0, Math.min(ids.length - 1, at + step))];
      if (next) context.onSelect(next);
    },
    nextFile: stepFile,
    nextHunk: (step) => void (stepHunk(step) || stepFile(step)),
    nextNote: (step) => {
      if (stepNote(step) || mode !== 'raw') return;
      // None drawn that way: the next file holding any, in Raw's order, drawn first.
      const ref = nextFileWithNotes(order(), [...markedRefs, ...notedRefs(notes.notes)], fileOnScreen(), step);
      if (!ref) return setKeyStatus(step > 0 ? 'No mark or note below.' : 'No mark or note above.');
      revealTarget(ref);
      landOnNotesOf(ref, step);
    },
    toggleViewed: () => {
      const entry = byRef.get(fileToActOn(currentFile) ?? '');
      if (!entry) return setKeyStatus('No file in sight to mark viewed.');
      const on = !isViewed(entry);
      setViewed(entry, on);
      setKeyStatus(`${entry.ref}: ${on ? 'marked viewed' : 'no longer viewed'}`);
    },
    toggleRaw: () => changeMode(mode === 'raw' ? 'cards' : 'raw'),
    toggleFormat: () => setFormat((f) => (f === 'line-by-line' ? 'side-by-side' : 'line-by-line')),
    toggleWhitespace: () => options.setHideWhitespace((on) => !on),
    toggleSidebar: sidebar.toggle,
    focusNote: () => {
      const file = fileToActOn(currentFile);
      const focus = () => {
        focusNoteBox(file);
        const ref = document.activeElement?.closest<HTMLElement>('section.inv-file')?.dataset.ref;
        const path = ref && byRef.has(ref) ? ref : undefined;
        setKeyStatus(
          path ? `${path}: writing a note` : document.activeElement?.matches('textarea') ? 'Writing a note' : '',
        );
      };
      // A folded file folds its note box too: n unfolds it, and focuses the box once drawn.
      if (unfoldFile(file)) requestAnimationFrame(focus);
      else focus();
    },
    focusSearch: () => document.querySelector<HTMLInputElement>('.inv-search-input')?.focus(),
    focusHandOver: () => document.querySelector<HTMLButtonElement>('.inv-handover-button')?.focus(),
    toggleHelp: () => setHelp((h) => !h),
    closeHelp: () => setHelp(false),
  });

  return (
    <DiffsContext.Provider value={diffs}>
      <ThreadsContext.Provider value={threads}>
        <ViewSettingsContext.Provider value={options.settings}>
          <div
            className={`inv-app${options.wrap ? ' inv-wrap' : ''}${sidebar.layout.hidden ? ' inv-sidebar-hidden' : ''}`}
            style={{ '--inv-sidebar-w': `${sidebar.layout.width}px` } as React.CSSProperties}
          >
            <SkipLink />
            <Header
              mode={mode}
              onMode={changeMode}
              hasCards={hasCards}
              format={format}
              onFormat={setFormat}
              budget={{
                minutes: reading.budgetMinutes,
                onMinutes: reading.setBudgetMinutes,
                total,
                fits: fits.size,
                cards: ordered.length,
              }}
              notes={notes.notes}
              promptContext={{ cards, material: entries, threads: threadMap }}
              onHelp={() => setHelp(true)}
              search={<SearchBar search={search} onMatch={showMatch} />}
              options={<ViewOptions options={options} />}
              questions={
                hasCards && (
                  <QuestionsWaiting
                    ids={waitingQuestions(ordered, (id) => !!reading.predictions[id])}
                    onSelect={onSelect}
                  />
                )
              }
              handOver={
                <HandOver
                  api={api}
                  notes={notes}
                  open={openNotes(notes.notes, threadMap).length}
                  handedOver={review.notes?.state === 'ok' ? review.notes.data.handedOver : undefined}
                  round={{ round: material.source.round, generated: material.generated }}
                  waiting={review.waiting}
                />
              }
            />
            <RoundArrived
              round={material.source.round}
              generated={material.generated}
              cards={cards}
              origins={origins}
              threads={threadMap}
              onShow={(id) => (id ? onSelect(id) : setMode('raw'))}
            />
            <Banners review={review} />
            <p className="inv-key-status" role="status">
              {keyStatus}
            </p>
            {mode === 'cards' && hasCards ? (
              <CardsMode
                cards={cards}
                invalid={invalid}
                request={good?.data.request}
                coverage={coverage}
                cardIds={cardIds}
                fits={fits}
                context={context}
                reading={reading}
                selected={selected}
              />
            ) : (
              <RawMode
                entries={entries}
                cards={cards}
                cardIds={cardIds}
                context={context}
                current={currentFile}
                onOpen={setCurrentFile}
                sinceLast={sinceLast}
                commits={material.source.commits ?? NO_COMMITS}
              />
            )}
            <SidebarHandle layout={sidebar.layout} onToggle={sidebar.toggle} onResize={sidebar.resize} />
            <UndoDelete notes={notes} />
            {help && <HelpOverlay onClose={() => setHelp(false)} />}
          </div>
        </ViewSettingsContext.Provider>
      </ThreadsContext.Provider>
    </DiffsContext.Provider>
  );
}

/**
 * A new URL pasted into this tab (a server started again on the same port has a new
 * token) changes only the fragment: the token is taken at once, everything is read again
 * with it and unsent drafts go out, without a reload.
 */
function useNewToken(refetchAll: () => void, retry: () => void) {
  useEffect(() => {
    let current = sessionToken();
    // The fragment also moves with the reader's place (back, forward): only a new token is news.
    const taken = () => {
      if (sessionToken() === current) return;
      current = sessionToken();
      api.setToken(current);
      refetchAll();
      retry();
    };
    window.addEventListener('hashchange', taken);
    return () => window.removeEventListener('hashchange', taken);
  }, [refetchAll, retry]);
}

/** The selected card's section of a file, when the card shows its diff now. */
function cardFileSection(ref: string): Element | null {
  return document.querySelector(`main[aria-label="Selected card"] section.inv-file[data-ref="${CSS.escape(ref)}"]`);
}

/** Puts the reader at a place's file and line (or nowhere in particular), and returns the place. */
function startAt(place: Place): Place {
  if (place.file) revealTarget(place.file, place.line);
  else clearTarget();
  return place;
}

/** The id an invalid card was given, when it is a string: a note on it stays on it. */
function rawId(raw: unknown): string[] {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? [id] : [];
}
