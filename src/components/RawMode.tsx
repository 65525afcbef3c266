import {
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { Card } from '../../schemas/cards';
import type { Entry } from '../model/entry';
import { FileDiff } from '../diff/FileDiff';
import { estimateFilesHeight } from '../diff/estimate';
import { holdFileInPlace } from '../diff/holdInPlace';
import { landInSight } from '../diff/landInSight';
import { fileOnScreen } from '../diff/moves';
import { whenScreenSettled } from '../diff/screenSettled';
import { refreshNear } from '../diff/useNearViewport';
import { fileTree, filterEntries, treeOrder } from '../model/file-tree';
import { targetNow, useTarget } from '../state/target';
import type { RoundCommit } from '../../schemas/material';
import { useCommit } from '../state/useCommit';
import type { SinceLastView } from '../state/useSinceLast';
import { CommitPicker } from './CommitPicker';
import type { CardContext } from './CardView';
import { FileBlock } from './FileBlock';
import { FileTree } from './FileTree';
import { NotesElsewhere, NotesOnGoneCards } from './NotesElsewhere';
import { RoundSwitch, type RoundView } from './RoundSwitch';
import { MAIN_ID } from './SkipLink';
import './RawMode.css';

interface Props {
  entries: Entry[];
  cards: Card[];
  /** The id of every card in cards.json, valid or not: a card note on any other is shown apart. */
  cardIds: ReadonlySet<string>;
  context: CardContext;
  current: string | null;
  onOpen: (ref: string) => void;
  sinceLast: SinceLastView;
  /** The commits of the round's range, to read one by one. */
  commits: RoundCommit[];
}

/**
 * Every file of the material, whatever the cards say: a tree on the left, every diff on
 * the right; or, switched, only what changed since the previous round, or one commit's changes.
 */
export function RawMode({ entries, cards, cardIds, context, current, onOpen, sinceLast, commits }: Props) {
  const [view, setView] = useState<RoundView>('whole');
  const since = view === 'since' && sinceLast.state === 'ok' ? sinceLast.data : null;
  const [chosenCommit, setChosenCommit] = useState<string | null>(null);
  const byCommit = view === 'commit' && commits.length > 0;
  const commit = useCommit(context.api, byCommit ? (chosenCommit ?? commits[0]!.id) : null);
  const ofCommit = commit.state === 'ok' ? commit.data : null;
  const shown = byCommit ? (ofCommit?.material ?? NO_ENTRIES) : since ? since.material : entries;
  const tree = useMemo(() => fileTree(shown), [shown]);
  // The filter narrows the tree and the page alike: the page shows what the tree shows.
  const [filter, setFilter] = useState('');
  const applied = useDeferredValue(filter);
  const filtered = useMemo(
    () => (applied.trim() ? fileTree(filterEntries(shown, applied)) : tree),
    [applied, shown, tree],
  );
  const ordered = useMemo(() => treeOrder(filtered), [filtered]);
  const kept = useMemo(() => new Set(ordered.map((e) => e.ref)), [ordered]);
  // Marks stay visible in Raw too: cards add, they never take away.
  const marksByRef = useMemo(() => {
    const map = new Map<string, Array<{ mark: NonNullable<Card['marks']>[number]; cardId: string }>>();
    for (const card of cards)
      for (const mark of card.marks ?? []) map.set(mark.ref, [...(map.get(mark.ref) ?? []), { mark, cardId: card.id }]);
    return map;
  }, [cards]);
  // What is on screen comes first: the list mounts only its blocks near the viewport
  // (FileBlock), and the tree of every file, which costs more to draw than the files in
  // view, renders once those are complete on screen (their images loaded; at most a
  // second).
  const [treeReady, setTreeReady] = useState(false);
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    if (treeReady) return;
    return whenScreenSettled(main.current, () => startTransition(() => setTreeReady(true)));
  }, [treeReady]);
  // A jump (a tree click, the keyboard) mounts the file's block, scrolls the file to the
  // top, draws what it scrolled to before the next paint, and holds the file there while
  // the files around it take their real heights.
  const jumpTo = useCallback((ref: string) => {
    const list = main.current;
    const section = list?.querySelector(`section.inv-file[data-ref="${CSS.escape(ref)}"]`);
    if (!list || !section) return;
    section.scrollIntoView({ block: 'start' });
    refreshNear(list);
    // A line already drawn and marked by this jump (ChunkView) is what must land in sight, not the file's top.
    const target = targetNow();
    const row = target?.ref === ref && target.line ? section.querySelector(`tr[data-hit-seq="${target.seq}"]`) : null;
    if (row) landInSight(row);
    else holdFileInPlace(ref);
  }, []);
  // Stable, so the tree's rows (memoized) do not all re-render on each jump.
  const latestOnOpen = useRef(onOpen);
  latestOnOpen.current = onOpen;
  const openFromTree = useCallback((entry: Entry) => latestOnOpen.current(entry.ref), []);
  // The tree follows the file at the top of the screen as the reader scrolls; after a
  // jump, it shows the file jumped to until the reader scrolls on their own.
  const [onScreen, setOnScreen] = useState<string | null>(null);
  const following = useRef(false);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame || !following.current) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setOnScreen(fileOnScreen());
      });
    };
    const onInput = () => (following.current = true);
    window.addEventListener('scroll', onScroll, { passive: true });
    for (const type of READER_SCROLLS) window.addEventListener(type, onInput, { capture: true, passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      for (const type of READER_SCROLLS) window.removeEventListener(type, onInput, true);
      cancelAnimationFrame(frame);
    };
  }, []);
  // A jump (the tree, ] or [, a search match, a link) is to its file, and to its line when it has one.
  const target = useTarget();
  // A jump to a file the filter hides (a search match, a link) clears the filter, then lands
  // once the file is back on the page: every file stays reachable.
  const keptNow = useRef(kept);
  keptNow.current = kept;
  const filterNow = useRef(applied);
  filterNow.current = applied;
  const heldBack = useRef<string | null>(null);
  useLayoutEffect(() => {
    following.current = false;
    setOnScreen(null);
    if (!target?.scroll) return;
    if (keptNow.current.has(target.ref) || !filterNow.current.trim()) return jumpTo(target.ref);
    heldBack.current = target.ref;
    setFilter('');
  }, [target, jumpTo]);
  useLayoutEffect(() => {
    const ref = heldBack.current;
    if (ref === null || !kept.has(ref)) return;
    heldBack.current = null;
    jumpTo(ref);
  }, [kept, jumpTo]);
  // The list of every file is built again only when what it shows changes, not when the
  // current file does: a jump must not re-render two thousand files. Its files are cut
  // into blocks (FileBlock) that mount when near.
  const { format, api, notes, isViewed, setViewed } = context;
  const slices = useMemo(() => {
    const all: Entry[][] = [];
    for (let at = 0; at < ordered.length; at += FILES_PER_BLOCK) all.push(ordered.slice(at, at + FILES_PER_BLOCK));
    return all;
  }, [ordered]);
  // Measured apart from the files' elements: it reads every diff, and changes only with the list.
  const heights = useMemo(
    () => slices.map((entries) => estimateFilesHeight(entries, (e) => marksByRef.has(e.ref), true)),
    [slices, marksByRef],
  );
  const blocks = useMemo(
    () =>
      slices.map((entries, i) => ({
        key: `${ofCommit ? ofCommit.id : since ? 'since' : 'whole'}:${i}`,
        list: entries.map((e) => e.ref),
        refs: new Set(entries.map((e) => e.ref)),
        height: heights[i]!,
        files: () =>
          entries.map((entry) => (
            <FileDiff
              key={entry.ref}
              entry={entry}
              format={format}
              api={api}
              notes={notes}
              marks={marksByRef.get(entry.ref) ?? NO_MARKS}
              viewed={isViewed(entry)}
              onViewed={(on) => setViewed(entry, on)}
              fileNote={!ofCommit}
              sinceRound={since?.from}
              commit={ofCommit?.id}
            />
          )),
      })),
    [slices, heights, since, ofCommit, format, api, notes, marksByRef, isViewed, setViewed],
  );
  return (
    <div className="inv-layout">
      {treeReady ? (
        <FileTree
          tree={tree}
          shown={filtered}
          entries={shown}
          filter={filter}
          applied={applied}
          onFilter={setFilter}
          onOpen={openFromTree}
          isViewed={isViewed}
          current={onScreen ?? current}
        />
      ) : (
        <nav className="inv-sidebar inv-tree" aria-label="Changed files" aria-busy="true" />
      )}
      <main
        ref={main}
        id={MAIN_ID}
        tabIndex={-1}
        className="inv-main inv-raw"
        aria-label={
          byCommit ? 'Changed by one commit' : since ? `Changed since round ${since.from}` : 'Every changed file'
        }
      >
        <RoundSwitch view={view} onView={setView} sinceLast={sinceLast} commits={commits.length} />
        {byCommit && (
          <CommitPicker
            commits={commits}
            chosen={chosenCommit ?? commits[0]!.id}
            onChoose={setChosenCommit}
            view={commit}
          />
        )}
        {!byCommit && (
          <p className="inv-raw-hint">
            Leave a note for the agent under any file (a question, an objection, an instruction), or click a line number
            to note that line.
          </p>
        )}
        <NotesElsewhere entries={entries} notes={context.notes} />
        <NotesOnGoneCards cardIds={cardIds} notes={context.notes} />
        {applied.trim() && (
          <p className="inv-page-filter">
            {filtered.files} of {tree.files} files, filtered by “{applied.trim()}”{' '}
            <button type="button" className="inv-link" onClick={() => setFilter('')}>
              Clear the filter
            </button>
          </p>
        )}
        {shown.length === 0 && !byCommit && (
          <p className="inv-empty">
            {since ? `Nothing changed since round ${since.from}.` : 'Nothing changed in this round.'}
          </p>
        )}
        {blocks.map((block) => (
          <FileBlock
            key={block.key}
            height={block.height}
            refs={block.list}
            pinned={current !== null && block.refs.has(current)}
            files={block.files}
          />
        ))}
      </main>
    </div>
  );
}

const NO_MARKS: never[] = [];

const NO_ENTRIES: Entry[] = [];

/** What the reader does to scroll on their own (a key may also be a jump, which comes after). */
const READER_SCROLLS = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const;

/** About the square root of the 2,000 files of a large round: the fewest sections laid out again, and few mounted at once. */
const FILES_PER_BLOCK = 50;
