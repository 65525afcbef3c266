import type { Card } from '../../schemas/cards';
import type { CardContext } from './CardView';

/** The cards a card continues and is continued by, each a link to it. */
export function CardThread({
  card,
  continuedBy,
  context,
}: {
  card: Card;
  continuedBy: string[];
  context: CardContext;
}) {
  if (!card.continues && continuedBy.length === 0) return null;
  const link = (id: string) => (
    <button type="button" className="inv-link" onClick={() => context.onSelect(id)}>
      {context.titleOf(id) ?? id}
    </button>
  );
  return (
    <div className="inv-thread">
      {card.continues && (
        <p>
          Continues{' '}
          {context.titleOf(card.continues) ? (
            link(card.continues)
          ) : (
            <span className="inv-dangling">an unknown card “{card.continues}”</span>
          )}
        </p>
      )}
      {continuedBy.length > 0 && (
        <p>
          Continued by{' '}
          {continuedBy.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              {link(id)}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
