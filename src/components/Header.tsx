import { useContext, useEffect, useRef, useState } from 'react';
import type { Note } from '../../schemas/notes';
import type { DiffFormat } from '../diff/diff2html';
import { parseNoteKey } from '../../shared/note-keys';
import { openNotesPrompt, type NotesContext } from '../../shared/prompt';
import { DiffsContext } from '../state/diffs';
import { openNotes, type Thread } from '../../shared/threads';
import { useHeaderHeight } from '../state/useHeaderHeight';
import './Header.css';

interface Props {
  mode: 'cards' | 'raw';
  onMode: (mode: 'cards' | 'raw') => void;
  hasCards: boolean;
  format: DiffFormat;
  onFormat: (format: DiffFormat) => void;
  budget: { minutes: number; onMinutes: (m: number) => void; total: number; fits: number; cards: number };
  notes: Record<string, Note>;
  /** What the copied prompt orders and annotates the notes with (card order, threads). */
  promptContext: PromptContext;
  onHelp: () => void;
  /** The search field of the whole round. */
  search: React.ReactNode;
  /** The reader's drawing preferences (whitespace). */
  options: React.ReactNode;
  /** The hand-over to the agent, and whether the agent waits or works. */
  handOver: React.ReactNode;
  /** How many of the cards' questions wait for the reader's answer. */
  questions?: React.ReactNode;
}

/** The top bar: mode, diff format, the daily budget, the notes hand-over, and help. */
export function Header({
  mode,
  onMode,
  hasCards,
  format,
  onFormat,
  budget,
  notes,
  promptContext,
  onHelp,
  search,
  options,
  handOver,
  questions,
}: Props) {
  // Only open notes are handed over: answered and resolved ones leave the agent nothing to do.
  const count = openNotes(notes, promptContext.threads).length;
  const bar = useRef<HTMLElement>(null);
  useHeaderHeight(bar);
  return (
    <header ref={bar} className="inv-header">
      <h1 className="inv-logo">Involut</h1>
      <div className="inv-segmented" role="group" aria-label="Mode">
        <button
          type="button"
          aria-pressed={mode === 'cards'}
          disabled={!hasCards}
          onClick={() => onMode('cards')}
          title={hasCards ? 'Read by cards' : 'No cards to read: the agent has not written cards.json'}
        >
          Cards
        </button>
        <button type="button" aria-pressed={mode === 'raw'} onClick={() => onMode('raw')}>
          Raw
        </button>
      </div>
      <div className="inv-segmented" role="group" aria-label="Diff format">
        <button type="button" aria-pressed={format === 'line-by-line'} onClick={() => onFormat('line-by-line')}>
          Unified
        </button>
        <button type="button" aria-pressed={format === 'side-by-side'} onClick={() => onFormat('side-by-side')}>
          Side by side
        </button>
      </div>
      {options}
      {search}
      {hasCards && (
        <label
          className="inv-budget"
          title={`Cards need ${budget.total} min; ${budget.fits} of ${budget.cards} fit in the budget`}
        >
          Budget{' '}
          <input
            type="number"
            min={0}
            step={5}
            value={budget.minutes}
            aria-label="Daily budget in minutes"
            onChange={(e) => budget.onMinutes(Math.max(0, Number(e.target.value) || 0))}
          />{' '}
          min <span className="inv-budget-need">· cards need {budget.total} </span>
          <span className="inv-budget-fits">
            · {budget.fits} of {budget.cards} fit
          </span>
        </label>
      )}
      {questions}
      {/* The loop's end of the bar: on a narrow window it wraps as one piece, kept to the right. */}
      <div className="inv-header-end">
        {handOver}
        <CopyPrompt notes={notes} count={count} context={promptContext} />
        <button type="button" className="inv-icon-button" aria-label="Keyboard shortcuts" onClick={onHelp}>
          ?
        </button>
      </div>
    </header>
  );
}

type PromptContext = NotesContext & { threads: Map<string, Thread> };

/** How long "Copied" stays: long enough to read, short enough not to linger over the page. */
const COPIED_MS = 4000;

function CopyPrompt({ notes, count, context }: { notes: Record<string, Note>; count: number; context: PromptContext }) {
  const [copied, setCopied] = useState<string | null>(null);
  // The confirmation goes after a moment; the prompt shown to copy by hand stays until the next copy.
  useEffect(() => {
    if (!copied?.startsWith('Copied')) return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const diffs = useContext(DiffsContext);
  const copy = async () => {
    // Line notes are placed in the current diff: the files they are on are fetched first.
    const lined = Object.keys(notes).flatMap((key) => {
      const target = parseNoteKey(key);
      return target?.kind === 'line' ? [target.ref] : [];
    });
    const loaded = lined.length && diffs ? await diffs.load(lined) : null;
    const material = loaded
      ? context.material?.map((entry) => (loaded.has(entry.ref) ? { ...entry, diff: loaded.get(entry.ref) } : entry))
      : context.material;
    const text = openNotesPrompt(notes, { ...context, material });
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied: paste it to your agent.');
    } catch {
      setCopied(text);
    }
  };
  return (
    <span className="inv-copy">
      <button
        type="button"
        onClick={() => void copy()}
        disabled={count === 0}
        title="The instruction for the agent, with your open notes as Markdown"
        aria-label={`Copy prompt: ${count} ${count === 1 ? 'note' : 'notes'}`}
      >
        Copy prompt
      </button>
      {copied && (
        <span className="inv-copied" role="status">
          {copied.startsWith('Copied') ? (
            copied
          ) : (
            <textarea readOnly value={copied} aria-label="Prompt to copy" onFocus={(e) => e.target.select()} />
          )}
        </span>
      )}
    </span>
  );
}
