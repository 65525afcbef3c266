import { createContext, useContext } from 'react';
import type { Thread } from '../model/threads';
import './loop.css';

/** What a note's thread needs from the round: each note's thread, and the cards to link. */
export interface Threads {
  threads: Map<string, Thread>;
  titleOf: (id: string) => string | undefined;
  onSelect: (id: string) => void;
}

/** Provided once by the round, so every note box finds its thread wherever it is drawn. */
export const ThreadsContext = createContext<Threads | null>(null);

/**
 * Under a note: the cards that address it, as links that select them, and whether it
 * reads answered (a card addresses it and the reader has not written it since) or open.
 */
export function NoteThread({ noteKey, hasNote }: { noteKey: string; hasNote: boolean }) {
  const round = useContext(ThreadsContext);
  const thread = round?.threads.get(noteKey);
  const cards = thread?.addressedBy ?? [];
  if (!round || (!hasNote && cards.length === 0)) return null;
  const answered = hasNote && thread?.answered === true;
  return (
    <div className="inv-note-thread" data-thread-state={answered ? 'answered' : 'open'}>
      {hasNote && (
        <span className={`inv-thread-state inv-thread-${answered ? 'answered' : 'open'}`}>
          {answered ? 'answered' : 'open'}
        </span>
      )}
      {cards.length > 0 && (
        <span>
          addressed by{' '}
          {cards.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <button type="button" className="inv-link" onClick={() => round.onSelect(id)}>
                {round.titleOf(id) ?? id}
              </button>
            </span>
          ))}
        </span>
      )}
    </div>
  );
}
