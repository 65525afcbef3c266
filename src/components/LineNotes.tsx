import type { RefObject } from 'react';
import type { Entry } from '../model/entry';
import type { LineExtra } from '../diff/ChunkView';
import { lineAnchor, type DiffLine } from '../../shared/diff-lines';
import { placeLineNote } from '../../shared/line-notes';
import { linesLabel, parseNoteKey, type Side } from '../../shared/note-keys';
import type { NotesApi } from '../state/notes-api';
import { NoteBox } from './NoteBox';
import { Visible } from './Visible';

/** A line or range note that no lines of this diff read as it quoted: shown at the top of its file. */
export interface ApartLineNote {
  key: string;
  side: Side;
  line: number;
  to: number;
  quote: string | undefined;
}

/** The keys of the line notes on the file `ref`. */
export function lineNoteKeys(notes: NotesApi, ref: string): string[] {
  return Object.keys(notes.notes).filter((key) => {
    const target = parseNoteKey(key);
    return target.kind === 'line' && target.ref === ref;
  });
}

/**
 * Places each line note of the file with `placeLineNote`: under its line, under the one
 * line that reads exactly as it quoted (saying it followed its line), or apart at the
 * top of the file. `focus` holds the key of a note the reader just opened on a line
 * until its box has taken the focus: a diff drawn again (a new round) must not take it.
 */
export function placeLineNotes(
  entry: Entry,
  lines: DiffLine[],
  notes: NotesApi,
  keys: string[],
  focus: RefObject<string | null>,
) {
  const extras: LineExtra[] = [];
  const apart: ApartLineNote[] = [];
  for (const key of keys) {
    const target = parseNoteKey(key);
    if (target.kind !== 'line') continue;
    const stored = notes.notes[key]?.quote;
    const place = placeLineNote(lines, target.side, target.line, stored, target.to);
    if (place.state === 'outdated') {
      apart.push({ key, side: target.side, line: target.line, to: target.to, quote: stored });
      continue;
    }
    // Pinned under the last line it covers.
    const anchor = lineAnchor(place.line)!;
    const moved = place.state === 'moved' ? linesLabel({ side: target.side, line: place.from, to: place.to }) : null;
    const range = target.to > target.line;
    extras.push({
      ...anchor,
      id: `note:${key}${moved ? `@${moved}` : ''}`,
      render: () => (
        <>
          {moved && (
            <p className="inv-note-moved" role="note">
              Written on {linesLabel(target)};{' '}
              {range
                ? 'it followed its lines, which now read here at'
                : 'it followed its line, which now reads here at'}{' '}
              {moved.replace(/^lines? /, '')}.
            </p>
          )}
          <LineNoteBox
            entry={entry}
            noteKey={key}
            side={target.side}
            line={target.line}
            to={target.to}
            quote={stored ?? place.lines.map((l) => l.text).join('\n')}
            notes={notes}
            autoFocus={focus.current === key}
            onFocused={() => (focus.current = null)}
          />
        </>
      ),
    });
  }
  return { extras, apart };
}

interface BoxProps {
  entry: Entry;
  noteKey: string;
  side: Side;
  line: number;
  to: number;
  quote: string | undefined;
  notes: NotesApi;
  autoFocus?: boolean;
  onFocused?: () => void;
}

function LineNoteBox({ entry, noteKey, side, line, to, quote, notes, autoFocus, onFocused }: BoxProps) {
  const where = `${entry.ref} ${linesLabel({ side, line, to })}`;
  return (
    <NoteBox
      noteKey={noteKey}
      title={where}
      refs={[entry.ref]}
      quote={quote}
      notes={notes}
      autoFocus={autoFocus}
      onFocused={onFocused}
      label={`Note on ${where}`}
    />
  );
}

/**
 * Line notes whose line is not in this diff, at the top of the file, each quoting the
 * line it was written on. `sinceRound` is set in the since-last view, where a line that
 * did not change between the rounds is simply not in the diff.
 */
export function ApartLineNotes({
  entry,
  apart,
  notes,
  sinceRound,
}: {
  entry: Entry;
  apart: ApartLineNote[];
  notes: NotesApi;
  sinceRound?: number;
}) {
  if (apart.length === 0) return null;
  return (
    <div className="inv-line-notes-apart">
      {apart.map((note) => (
        <div key={note.key} className="inv-outdated" data-outdated-key={note.key}>
          <p className="inv-outdated-label" role="note">
            {sinceRound === undefined ? 'Outdated' : 'Not in this view'}:{' '}
            {note.to > note.line ? `note on ${linesLabel(note)}` : `line note on ${note.side}${note.line}`}, written on{' '}
            {note.quote === undefined ? (
              'a line it did not quote'
            ) : (
              <code className="inv-quote">
                <Visible text={note.quote} />
              </code>
            )}
            .{' '}
            {sinceRound === undefined
              ? `${note.to > note.line ? 'Those lines are' : 'That line is'} no longer in this round’s diff.`
              : `${note.to > note.line ? 'Those lines are' : 'That line is'} not in the diff since round ${sinceRound}; the whole round shows where it stands.`}
          </p>
          <LineNoteBox
            entry={entry}
            noteKey={note.key}
            side={note.side}
            line={note.line}
            to={note.to}
            quote={note.quote}
            notes={notes}
          />
        </div>
      ))}
    </div>
  );
}
