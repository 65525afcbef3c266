import type { Card } from '../../schemas/cards';
import { InlineMarkdown } from './InlineMarkdown';

/** `null` (or left out) means "not stated"; `""` or `[]` means "looked, found nothing". */
function Stated({ label, value }: { label: string; value: string | string[] | null | undefined }) {
  if (value === null || value === undefined) {
    return (
      <div className="inv-field inv-not-stated">
        <dt>{label}</dt>
        <dd>not stated</dd>
      </div>
    );
  }
  const items = Array.isArray(value) ? value : value === '' ? [] : [value];
  if (items.length === 0) {
    return (
      <div className="inv-field inv-nothing">
        <dt>{label}</dt>
        <dd>looked, found nothing</dd>
      </div>
    );
  }
  return (
    <div className="inv-field">
      <dt>{label}</dt>
      <dd>
        {items.length === 1 ? (
          <InlineMarkdown text={items[0]!} />
        ) : (
          <ul>
            {items.map((item, i) => (
              <li key={i}>
                <InlineMarkdown text={item} />
              </li>
            ))}
          </ul>
        )}
      </dd>
    </div>
  );
}

/** The agent's account of a card: why, what it skipped, where it was unsure, what crept in, what might break. */
export function CardFields({ card }: { card: Card }) {
  return (
    <dl className="inv-fields">
      <Stated label="Why" value={card.why} />
      <Stated label="Skipped" value={card.skipped} />
      {card.unsure === null || card.unsure === undefined ? (
        <Stated label="Unsure" value={card.unsure} />
      ) : (
        <div className="inv-field inv-unsure">
          <dt>Unsure</dt>
          <dd>
            <p>
              <strong>About:</strong> <InlineMarkdown text={card.unsure.about} />
            </p>
            <p>
              <strong>Chose:</strong> <InlineMarkdown text={card.unsure.chose} />
            </p>
            <p>
              <strong>Because:</strong> <InlineMarkdown text={card.unsure.because} />
            </p>
            {card.unsure.alternative != null && (
              <p>
                <strong>Alternative:</strong> <InlineMarkdown text={card.unsure.alternative} />
              </p>
            )}
          </dd>
        </div>
      )}
      <Stated label="Unrequested" value={card.unrequested} />
      <Stated label="Might break" value={card.might_break} />
    </dl>
  );
}
