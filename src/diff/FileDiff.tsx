import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Mark } from '../../schemas/cards';
import type { Entry, LoadedEntry } from '../model/entry';
import type { Api } from '../api/client';
import { ApartLineNotes, lineNoteKeys, placeLineNotes } from '../components/LineNotes';
import { isMarkdown, MarkdownPreview } from '../components/MarkdownPreview';
import { NoteBox } from '../components/NoteBox';
import { FileCommits } from '../components/Provenance';
import { diffLines, findLine, lineAnchor } from '../../shared/diff-lines';
import { placeMarks } from '../../shared/marks';
import { fileKey, lineKey } from '../../shared/note-keys';
import type { LineRange } from '../model/line-range';
import { useFold } from '../state/folding';
import { revealTarget, useTargetIn } from '../state/target';
import type { NotesApi } from '../state/notes-api';
import { ChunkedDiff } from './ChunkedDiff';
import { FileBody, FoldedNotes, InvisibleWarning } from './FileBody';
import { FileHeader } from './FileHeader';
import { MarkNote, UnmatchedMark } from './MarkNote';
import { ContextBar } from './ContextBar';
import { useExpandedContext } from './useExpandedContext';
import { useWhitespace } from './useWhitespace';
import { useViewSettings } from '../state/settings';
import type { LineExtra } from './ChunkView';
import type { DiffFormat } from './diff2html';
import { countLines } from '../../shared/diff-lines';
import { useDiff } from '../state/diffs';
import { diffLineCount, estimateFileHeight, startsOpen } from './estimate';
import { NEAR, useNearViewport } from './useNearViewport';
import { useLineSelection } from './useLineSelection';

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
