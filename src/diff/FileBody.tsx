import { useMemo } from 'react';
import type { Api } from '../api/client';
import { BinaryView } from '../components/BinaryView';
import { formatBytes } from '../model/bytes';
import type { Entry } from '../model/entry';
import { invisibleWarning } from '../model/invisible';
import { HUGE_CHARS, HUGE_LINES } from './estimate';

/** In place of a folded file's notes: how many there are, and the way back to them. */
export function FoldedNotes({
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
export function InvisibleWarning({ entry }: { entry: Entry }) {
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

/** What a file shows under its header: its diff (the children), or why it shows none, or its fold. */
export function FileBody({
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
