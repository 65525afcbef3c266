import './questions.css';

/**
 * In the app bar: how many cards ask the reader a question not yet answered, as one
 * button that opens the first of them. Nothing when none waits.
 */
export function QuestionsWaiting({ ids, onSelect }: { ids: string[]; onSelect: (id: string) => void }) {
  if (ids.length === 0) return null;
  const n = ids.length;
  return (
    <button
      type="button"
      className="inv-questions-waiting"
      onClick={() => onSelect(ids[0]!)}
      title={`${n} ${n === 1 ? 'card asks' : 'cards ask'} you a question; open the first`}
      aria-label={`${n} ${n === 1 ? 'question waits' : 'questions wait'} for your answer: open the first`}
    >
      {n} {n === 1 ? 'question' : 'questions'}
    </button>
  );
}

/** Beside a card's title in a list: its question waits for the reader. */
export function QuestionMark() {
  return (
    <>
      {/* A space first, so the mark reads apart from the title it follows. */}{' '}
      <span className="inv-question-waits" title="A question waits for your answer">
        question waits
      </span>
    </>
  );
}
