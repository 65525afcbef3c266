import type { InvalidCard } from '../../schemas/api';
import { invalidCardName } from './Sidebar';

/** A card that failed the contract: shown as broken, with why and its raw JSON, while the others render. */
export function InvalidCardView({ card }: { card: InvalidCard }) {
  return (
    <article className="inv-card inv-invalid" aria-label={`Invalid card ${invalidCardName(card)}`}>
      <header className="inv-card-header">
        <span className="inv-intent inv-intent-badge-invalid">invalid</span>
        <h2>Card {invalidCardName(card)} does not match the contract</h2>
      </header>
      <ul className="inv-issues">
        {card.issues.map((issue, i) => (
          <li key={i}>
            <code>{issue.path.length ? issue.path.join('.') : '(the card)'}</code>: {issue.message}
          </li>
        ))}
      </ul>
      <pre className="inv-raw-json">{JSON.stringify(card.raw, null, 2)}</pre>
    </article>
  );
}
