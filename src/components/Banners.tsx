import type { Review } from '../state/useReview';

/** Everything the reader must know about the state of the files, one line each. */
export function Banners({ review }: { review: Review }) {
  const banners: Array<{ tone: 'warn' | 'error' | 'info'; text: string }> = [];
  // The server says how Involut runs on its machine; `involut` until it has answered.
  const involut = review.freshness?.command ?? 'involut';
  if (review.keyRefused)
    banners.push({
      tone: 'error',
      text: 'This page has no key to the Involut server: open the URL `involut` printed in its terminal, which carries the key (after #token=).',
    });
  else if (review.connection)
    banners.push({
      tone: 'error',
      text: `The Involut server cannot be reached (${review.connection}). Is \`${involut}\` still running?`,
    });
  const { cards, material, freshness } = review;
  if (cards?.state === 'invalid-json') {
    const where = cards.line ? ` at line ${cards.line}, column ${cards.column}` : '';
    banners.push({
      tone: 'warn',
      text: review.lastGoodCards
        ? `cards.json does not parse${where} (${cards.message}); the agent may be mid-write. Showing the last good cards.`
        : `cards.json does not parse${where} (${cards.message}). Every change is in Raw.`,
    });
  }
  if (cards?.state === 'invalid-schema') {
    const first = cards.issues[0];
    banners.push({
      tone: 'warn',
      text: `cards.json does not match the contract${first ? ` (${first.path.join('.') || 'top level'}: ${first.message})` : ''}. ${review.lastGoodCards ? 'Showing the last good cards.' : 'Every change is in Raw.'}`,
    });
  }
  if (cards?.state === 'ok' && cards.invalid.length > 0) {
    banners.push({
      tone: 'warn',
      text: `${cards.invalid.length} ${cards.invalid.length === 1 ? 'card does' : 'cards do'} not match the contract; ${cards.invalid.length === 1 ? 'it is' : 'they are'} listed as invalid, every other card is shown.`,
    });
  }
  const { notes } = review;
  if (notes?.state === 'invalid-json' || notes?.state === 'invalid-schema') {
    const what =
      notes.state === 'invalid-json'
        ? `does not parse${notes.line ? ` at line ${notes.line}, column ${notes.column}` : ''} (${notes.message})`
        : `does not match the contract${notes.issues[0] ? ` (${notes.issues[0].path.join('.') || 'top level'}: ${notes.issues[0].message})` : ''}`;
    banners.push({
      tone: 'error',
      text: `.review/notes.json ${what}. The notes shown are the last good ones, read-only; what you type is kept as a draft and saved once the file is fixed. Fix it by hand, or put back the last good copy: \`cp .review/notes.last-good.json .review/notes.json\` (a note written after that copy is lost: keep its text first).`,
    });
  }
  if (material?.state === 'invalid-json' || material?.state === 'invalid-schema') {
    banners.push({
      tone: 'error',
      text: `material.json is damaged; run \`${involut} rounds\` to capture the round again.`,
    });
  }
  // What the round could not show as a change (a submodule with uncommitted work), by path.
  if (material?.state === 'ok')
    for (const text of material.data.source.warnings ?? []) banners.push({ tone: 'warn', text });
  if (freshness?.fresh === false && material?.state === 'ok') {
    banners.push({
      tone: 'info',
      text: `The working tree has moved since this round was captured. Run \`${involut} rounds\` to review the latest state.`,
    });
  }
  if (!review.live && !review.connection && review.material) {
    banners.push({ tone: 'info', text: 'Live updates paused: reconnecting to the server…' });
  }
  if (banners.length === 0) return null;
  return (
    <div className="inv-banners">
      {banners.map((b, i) => (
        <p key={i} className={`inv-banner inv-banner-${b.tone}`} role={b.tone === 'info' ? 'status' : 'alert'}>
          {b.text}
        </p>
      ))}
    </div>
  );
}
