import { useContext } from 'react';
import { InlineMarkdown } from '../components/InlineMarkdown';
import { ThreadsContext } from '../components/NoteThread';
import { Visible } from '../components/Visible';

/** A mark whose line is in no hunk of this diff: shown above it, never dropped. */
export function UnmatchedMark({ at, text, cardId }: { at: string; text: string; cardId: string }) {
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

/** A card's mark, drawn under the line it is pinned on. */
export function MarkNote({ text, cardId }: { text: string; cardId: string }) {
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
