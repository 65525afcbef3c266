import { createContext, useContext } from 'react';
import type { EarlierText } from '../../schemas/notes';
import type { Thread } from '../../shared/threads';
import { Visible } from './Visible';
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
 * Under a note: whether it reads open, answered (a card addresses it and the reader has
 * not written it since) or resolved, and the cards that address it, as links that select them.
 */
export function NoteThread({ noteKey, hasNote }: { noteKey: string; hasNote: boolean }) {
  const round = useContext(ThreadsContext);
  const thread = round?.threads.get(noteKey);
  const cards = thread?.addressedBy ?? [];
  if (!round || (!hasNote && cards.length === 0)) return null;
  const state = hasNote ? (thread?.state ?? 'open') : 'open';
  return (
    <div className="inv-note-thread" data-thread-state={state}>
      {hasNote && <span className={`inv-thread-state inv-thread-${state}`}>{state}</span>}
      {cards.length > 0 && (
        <span>
          addressed by <CardLinks ids={cards} round={round} />
        </span>
      )}
    </div>
  );
}

/** The texts a note held before its follow-ups, oldest first, each with the cards that had answered it. */
export function EarlierTexts({ earlier }: { earlier: EarlierText[] }) {
  const round = useContext(ThreadsContext);
  if (earlier.length === 0) return null;
  return (
    <ol className="inv-note-earlier" aria-label="Earlier texts of this note">
      {earlier.map((text) => (
        <li key={text.at}>
          <blockquote className="inv-note-read">
            <Visible text={text.text} />
          </blockquote>
          <p className="inv-note-answered-by">
            {text.answeredBy.length === 0 ? (
              'followed up'
            ) : (
              <>
                answered by{' '}
                {round ? (
                  <CardLinks ids={text.answeredBy.map((c) => c.id)} round={round} titles={text.answeredBy} />
                ) : (
                  text.answeredBy.map((c) => c.title).join(', ')
                )}
                , then followed up
              </>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}

/** Cards as links that select them; a card no longer in cards.json reads by the title kept with the note. */
function CardLinks({
  ids,
  round,
  titles = [],
}: {
  ids: string[];
  round: Threads;
  titles?: Array<{ id: string; title: string }>;
}) {
  return (
    <>
      {ids.map((id, i) => {
        const title = round.titleOf(id);
        return (
          <span key={id}>
            {i > 0 && ', '}
            {title !== undefined ? (
              <button type="button" className="inv-link" onClick={() => round.onSelect(id)}>
                {title}
              </button>
            ) : (
              (titles.find((t) => t.id === id)?.title ?? id)
            )}
          </span>
        );
      })}
    </>
  );
}
