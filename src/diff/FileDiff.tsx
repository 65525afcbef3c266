import { formatBytes } from '../model/bytes';
import { useContext, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Mark } from '../../schemas/cards';
import type { Entry, LoadedEntry } from '../model/entry';
import { sessionToken, type Api } from '../api/client';
import { formatPlace } from '../../shared/place';
import { BinaryView } from '../components/BinaryView';
import { ApartLineNotes, lineNoteKeys, placeLineNotes } from '../components/LineNotes';
import { CopyPath } from '../components/CopyPath';
import { isMarkdown, MarkdownPreview } from '../components/MarkdownPreview';
import { NoteBox } from '../components/NoteBox';
import { FileCommits, PathStates } from '../components/Provenance';
import { ThreadsContext } from '../components/NoteThread';
import { Visible } from '../components/Visible';
import { invisibleWarning } from '../model/invisible';
import { diffLines, findLine, lineAnchor } from '../../shared/diff-lines';
import { placeMarks } from '../../shared/marks';
import { fileKey, lineKey } from '../../shared/note-keys';
import type { LineRange } from '../model/line-range';
import { useFold } from '../state/folding';
import { revealTarget, useTargetIn } from '../state/target';
import type { NotesApi } from '../state/notes-api';
import { ChunkedDiff } from './ChunkedDiff';
import { ContextBar } from './ContextBar';
import { useExpandedContext } from './useExpandedContext';
import { useWhitespace, type WhitespaceState } from './useWhitespace';
import { useViewSettings } from '../state/settings';
import type { LineExtra } from './ChunkView';
import type { DiffFormat } from './diff2html';
import { countLines } from '../../shared/diff-lines';
import { useDiff } from '../state/diffs';
import { diffLineCount, estimateFileHeight, HUGE_CHARS, HUGE_LINES, startsOpen } from './estimate';
import { NEAR, useNearViewport } from './useNearViewport';
import { useLineSelection } from './useLineSelection';
import { InlineMarkdown } from '../components/InlineMarkdown';

interface Props {
  entry: Entry;
  format: DiffFormat;
  api: Api;
  notes: NotesApi;
  marks: Array<{ mark: Mark; cardId: string }>;
  viewed: boolean;
  onViewed: (on: boolean) => void;
  /** Show the file-level note box (on every file: in Raw, on a card's files, on files no card claims). */
  fileNote: boolean;
  /** Set when the diff is the one since that round (not the whole round): line notes off it are not outdated. */
  sinceRound?: number;
  /** Set when the diff is one commit's: its lines are not the round's, so no notes are taken on it and its context is not widened. */
  commit?: string;
}

/**
 * One file of the material: its header, then its diff, image, or the reason it has none.
 * A file far from view is only its empty section, about as tall as it will be drawn (so a
 * round of thousands of files mounts in a moment and the scrollbar is about right); it is
 * drawn when it first comes near the viewport, and stays. The section is the same element
 * before and after: a jump, a locator or the browser's scroll anchoring that holds it keeps it.
 */
export function FileDiff(props: Props) {
  const section = useRef<HTMLElement>(null);
  const seen = useNearViewport(section, NEAR, { sticky: true });
  // The diff is asked for once the file comes near; meanwhile the section keeps its place.
  const { entry, error, retry } = useDiff(props.entry, seen);
  const drawn = seen && entry ? entry : null;
  const lineCount = diffLineCount(props.entry);
  const open = startsOpen(props.entry, lineCount, props.marks.length > 0) && !props.viewed;
  const height = estimateFileHeight(props.entry, lineCount, open, props.fileNote);
  return (
    <section
      ref={section}
      className={drawn ? 'inv-file' : 'inv-file inv-file-far'}
      data-ref={props.entry.ref}
      aria-label={`File ${props.entry.ref}`}
      aria-busy={(seen && !drawn) || undefined}
      // Drawn, it is as tall as it is; the estimate stands only while the browser skips its content (content-visibility).
      style={drawn ? { containIntrinsicSize: `auto ${height}px` } : { height }}
    >
      {drawn && <SeenFile {...props} entry={drawn} section={section} />}
      {!drawn && seen && error && (
        <p className="inv-file-message" role="alert">
          The diff of {props.entry.ref} could not be fetched: {error}{' '}
          <button type="button" onClick={retry}>
            Try again
          </button>
        </p>
      )}
    </section>
  );
}

function SeenFile({
  entry: material,
  format,
  api,
  notes,
  marks,
  viewed,
  onViewed,
  fileNote,
  sinceRound,
  commit,
  section,
}: Props & { entry: LoadedEntry; section: RefObject<HTMLElement | null> }) {
  // The diff as the reader asked to see it (whitespace-only changes left out, or not).
  const whitespace = useWhitespace(material, api, useViewSettings().hideWhitespace && !commit && !sinceRound);
  const entry = whitespace.entry;
  const lineCount = useMemo(() => countLines(entry.diff), [entry.diff]);
  // A viewed file starts folded, and folds when marked viewed; collapse and expand all override both.
  const [open, setOpen] = useFold(startsOpen(entry, lineCount, marks.length > 0) && !viewed);
  const wasViewed = useRef(viewed);
  useLayoutEffect(() => {
    if (viewed && !wasViewed.current) setOpen(false);
    wasViewed.current = viewed;
  }, [viewed, setOpen]);
  // A jump to a line of a folded file unfolds it.
  const target = useTargetIn(entry.ref);
  useLayoutEffect(() => {
    if (target?.line) setOpen(true);
  }, [target, setOpen]);
  const [preview, setPreview] = useState(false);
  const [openLine, setOpenLine] = useState<string | null>(null);
  const focusLine = useRef<string | null>(null);
  const context = useExpandedContext(entry, api, !commit);
  const shown = useMemo(
    () => (context.diff === entry.diff ? entry : { ...entry, diff: context.diff }),
    [entry, context.diff],
  );
  const savedKeys = commit ? [] : lineNoteKeys(notes, entry.ref);
  const keys = openLine && !savedKeys.includes(openLine) ? [...savedKeys, openLine] : savedKeys;
  // Numbered lines are needed to place marks and line notes; a file without either skips the
  // work (a 50,000-line diff takes about 10 ms), and numbers them only when a line is clicked.
  const numbered = marks.length > 0 || keys.length > 0;
  const lines = useMemo(() => (entry.diff && numbered ? diffLines(entry.diff) : []), [entry.diff, numbered]);
  const placed = useMemo(() => placeMarks(marks, lines), [marks, lines]);
  const lineNotes = placeLineNotes(entry, lines, notes, keys, focusLine);

  const extras: LineExtra[] = [
    ...placed
      .filter((p) => p.line)
      .map((p, i) => {
        const anchor = lineAnchor(p.line!)!;
        return {
          ...anchor,
          id: `mark:${i}:${p.cardId}`,
          render: () => <MarkNote text={p.mark.text} cardId={p.cardId} />,
        };
      }),
    ...lineNotes.extras,
  ];

  const linesNow = () => (numbered || !entry.diff ? lines : diffLines(entry.diff));
  /** Opens the note box of a line, or of a range (pinned under its last line), and focuses it. */
  const openNote = ({ side, from, to }: LineRange) => {
    if (commit) return; // a commit's lines are not the round's: no notes on them
    const line = findLine(linesNow(), side, to);
    // One line is keyed where it is anchored (a context line on the new side); a range keeps its side.
    const anchor = from < to ? { side, line: to } : line ? lineAnchor(line) : { side, line: to };
    if (!anchor) return;
    focusLine.current = from < to ? lineKey(entry.ref, side, from, to) : lineKey(entry.ref, anchor.side, anchor.line);
    setOpenLine(focusLine.current);
    revealTarget(entry.ref, { side: anchor.side, number: anchor.line }, { scroll: false });
  };
  const selection = useLineSelection(section, format, linesNow, openNote);

  const unmatched = placed.filter((p) => !p.line);
  // A folded file folds its notes too (a collapse all leaves no note box open); a count stays.
  const folded = !open && !!entry.diff && !entry.binary && !entry.withheld && whitespace.state !== 'only-whitespace';
  const foldedNotes = folded
    ? [...(fileNote ? [fileKey(entry.ref)] : []), ...savedKeys].filter((key) => notes.text(key) !== '')
    : [];
  return (
    // Laid out as the section's own children (display: contents); it only gathers the line selection's events.
    <div
      className="inv-file-content"
      onMouseDown={selection.onMouseDown}
      onMouseOver={selection.onMouseOver}
      onKeyDown={selection.onKeyDown}
    >
      <FileHeader
        entry={entry}
        viewed={viewed}
        onViewed={onViewed}
        open={open}
        onToggle={() => setOpen(!open)}
        foldable={!!entry.diff}
        whitespace={whitespace.state}
        preview={isMarkdown(entry) ? { on: preview, toggle: () => setPreview(!preview) } : null}
      />
      <FileCommits entry={entry} />
      {preview && <MarkdownPreview entry={entry} api={api} />}
      <InvisibleWarning entry={entry} />
      {unmatched.map((p, i) => (
        <UnmatchedMark key={i} at={p.mark.at} text={p.mark.text} cardId={p.cardId} />
      ))}
      {!folded && <ApartLineNotes entry={entry} apart={lineNotes.apart} notes={notes} sinceRound={sinceRound} />}
      <FileBody
        entry={entry}
        api={api}
        open={open}
        viewed={viewed}
        lineCount={lineCount}
        onOpen={() => setOpen(true)}
        onlyWhitespace={whitespace.state === 'only-whitespace'}
        commit={commit}
      >
        {open && (
          <ChunkedDiff
            entry={shown}
            format={format}
            extras={extras}
            onLineClick={selection.onLineClick}
            onHunkClick={context.expandable ? (header) => void context.above(header) : undefined}
          />
        )}
        {open && <ContextBar context={context} refName={entry.ref} />}
      </FileBody>
      {foldedNotes.length > 0 && (
        <FoldedNotes keys={foldedNotes} unsaved={notes.unsaved} refName={entry.ref} onOpen={() => setOpen(true)} />
      )}
      {fileNote && !folded && (
        <NoteBox
          noteKey={fileKey(entry.ref)}
          title={entry.ref}
          refs={[entry.ref]}
          notes={notes}
          label={`Note on file ${entry.ref}`}
        />
      )}
    </div>
  );
}

/** The notes of a folded file, counted: one click unfolds the file and shows them. */
function FoldedNotes({
  keys,
  unsaved,
  refName,
  onOpen,
}: {
  keys: string[];
  unsaved: readonly string[];
  refName: string;
  onOpen: () => void;
}) {
  const waiting = keys.filter((key) => unsaved.includes(key)).length;
  return (
    <p className="inv-folded-notes">
      <button type="button" className="inv-link" onClick={onOpen}>
        {keys.length} {keys.length === 1 ? 'note' : 'notes'} folded with this file
        {waiting > 0 ? ` (${waiting} not saved yet)` : ''}: show
        <span className="inv-visually-hidden"> {refName}</span>
      </button>
    </p>
  );
}

const NOT_UTF8 = 'The file name holds bytes that are not UTF-8, shown as ⟨0x…⟩ markers.';

/** A warning on a file whose name or diff holds direction-control or invisible characters, or bytes that are not UTF-8. */
function InvisibleWarning({ entry }: { entry: Entry }) {
  const warnings = useMemo(
    () =>
      [
        invisibleWarning(`${entry.from ?? ''}${entry.ref}`, 'The file name'),
        entry.ref_base64 !== undefined || entry.from_base64 !== undefined ? NOT_UTF8 : null,
        entry.diff ? invisibleWarning(entry.diff, 'The diff') : null,
      ].filter((w) => w !== null),
    [entry.ref, entry.from, entry.diff, entry.ref_base64, entry.from_base64],
  );
  if (warnings.length === 0) return null;
  return (
    <p className="inv-file-message inv-invisible-warning" role="alert">
      {warnings.join(' ')}
    </p>
  );
}

function FileBody({
  entry,
  api,
  open,
  viewed,
  lineCount,
  onOpen,
  onlyWhitespace,
  commit,
  children,
}: {
  entry: Entry;
  api: Api;
  open: boolean;
  viewed: boolean;
  lineCount: number;
  onOpen: () => void;
  onlyWhitespace: boolean;
  commit?: string;
  children: React.ReactNode;
}) {
  if (entry.withheld) {
    return <p className="inv-file-message">Withheld: {entry.withheld.reason}. Its content never left git.</p>;
  }
  // The byte routes serve the round's sides, not a commit's: a commit's binary is named, not drawn wrong.
  if (entry.binary && commit)
    return (
      <p className="inv-file-message">
        A binary file this commit changed; Raw&apos;s round view shows how the round left it.
      </p>
    );
  if (entry.binary) return <BinaryView entry={entry} api={api} />;
  if (entry.diff === '' || entry.diff === null) return <p className="inv-file-message">{noLinesMessage(entry)}</p>;
  if (onlyWhitespace)
    return <p className="inv-file-message">Only whitespace changed: show whitespace changes to read it.</p>;
  if (!open) {
    return (
      <button type="button" className="inv-fold" onClick={onOpen}>
        {entry.generated
          ? 'Generated or lock file'
          : lineCount > HUGE_LINES || (entry.diff?.length ?? 0) > HUGE_CHARS
            ? 'Large diff'
            : viewed
              ? 'Viewed'
              : 'Folded'}
        : {lineCount.toLocaleString()} {lineCount === 1 ? 'line' : 'lines'}
        {/* What is folded is the diff: its size, not the whole file's. */}
        {`, ${formatBytes(entry.diff?.length ?? 0)}`}. Show it
        <span className="inv-visually-hidden">: {entry.ref}</span>
      </button>
    );
  }
  return <>{children}</>;
}

function noLinesMessage(entry: Entry): string {
  if (entry.mode) return `Only the mode changed: ${entry.mode.before} → ${entry.mode.after}.`;
  if (entry.status === 'renamed') return `Renamed from ${entry.from} without changes.`;
  if (entry.status === 'added') return 'Added as an empty file.';
  if (entry.status === 'deleted') return 'Deleted; the file was empty.';
  return 'No line changes.';
}

function FileHeader({
  entry,
  viewed,
  onViewed,
  open,
  onToggle,
  foldable,
  whitespace,
  preview,
}: {
  entry: Entry;
  viewed: boolean;
  onViewed: (on: boolean) => void;
  open: boolean;
  onToggle: () => void;
  foldable: boolean;
  whitespace: WhitespaceState;
  /** A Markdown file's rendered before and after, shown or not. */
  preview: { on: boolean; toggle: () => void } | null;
}) {
  return (
    <header className="inv-file-header">
      {foldable && (
        <button
          type="button"
          className="inv-icon-button"
          aria-expanded={open}
          aria-label={open ? `Fold ${entry.ref}` : `Unfold ${entry.ref}`}
          onClick={onToggle}
        >
          {open ? '▾' : '▸'}
        </button>
      )}
      <span className={`inv-status inv-status-${entry.status}`}>{entry.status}</span>
      <span className="inv-file-path">
        {entry.from ? (
          <>
            <span className="inv-from">
              <Visible text={entry.from} />
            </span>{' '}
            → <Visible text={entry.ref} />
          </>
        ) : (
          <Visible text={entry.ref} />
        )}
      </span>
      <FileTags entry={entry} />
      <PathStates entry={entry} />
      {(whitespace === 'hidden' || whitespace === 'only-whitespace') && (
        <span className="inv-tag" title="Whitespace-only changes are left out of this diff">
          whitespace hidden
        </span>
      )}
      <span className="inv-counts">
        {entry.additions != null && <span className="inv-add">+{entry.additions}</span>}
        {entry.deletions != null && <span className="inv-del">−{entry.deletions}</span>}
      </span>
      {preview && (
        <button
          type="button"
          className="inv-file-action"
          aria-pressed={preview.on}
          aria-label={`Preview ${entry.ref} rendered`}
          title="Show this Markdown file rendered, before and after"
          onClick={preview.toggle}
        >
          Preview
        </button>
      )}
      <CopyPath path={entry.ref} />
      <a
        className="inv-copy-link"
        href={formatPlace(sessionToken(), { mode: 'raw', file: entry.ref })}
        aria-label={`Link to ${entry.ref}`}
        title="Link to this file: open it, or copy it"
      >
        #
      </a>
      <label className="inv-viewed">
        <input
          type="checkbox"
          checked={viewed}
          aria-label={`Viewed: ${entry.ref}`}
          onChange={(e) => onViewed(e.target.checked)}
        />{' '}
        viewed
      </label>
    </header>
  );
}

function FileTags({ entry }: { entry: Entry }) {
  const tags: string[] = [];
  if (entry.status === 'renamed' && entry.similarity != null) tags.push(`${entry.similarity}% similar`);
  if (entry.binary) tags.push('binary');
  if (entry.generated) tags.push('generated');
  if (entry.symlink) tags.push('symlink');
  if (entry.submodule) tags.push('submodule');
  if (entry.withheld) tags.push('withheld');
  if (entry.mode && entry.diff) tags.push(`mode ${entry.mode.before} → ${entry.mode.after}`);
  return (
    <>
      {tags.map((t) => (
        <span key={t} className="inv-tag">
          {t}
        </span>
      ))}
    </>
  );
}

/** A mark whose line is in no hunk of this diff: shown above it, never dropped. */
function UnmatchedMark({ at, text, cardId }: { at: string; text: string; cardId: string }) {
  const title = useCardTitle(cardId);
  return (
    <div className="inv-mark inv-mark-unmatched" role="note">
      <span className="inv-mark-label">
        mark from “<InlineMarkdown text={title} links={false} />
        ”, no line contains “<Visible text={at} />”
      </span>
      <span className="inv-mark-text">
        <InlineMarkdown text={text} />
      </span>
    </div>
  );
}

/** The title of the card a mark comes from (its id while the card is not known). */
function useCardTitle(cardId: string): string {
  return useContext(ThreadsContext)?.titleOf(cardId) ?? cardId;
}

function MarkNote({ text, cardId }: { text: string; cardId: string }) {
  const title = useCardTitle(cardId);
  return (
    <div className="inv-mark" role="note">
      <span className="inv-mark-label" title={`A mark of the card “${title}”`}>
        <InlineMarkdown text={title} links={false} />
      </span>
      <span className="inv-mark-text">
        <InlineMarkdown text={text} />
      </span>
    </div>
  );
}
