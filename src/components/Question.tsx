import { useState } from 'react';
import type { Question as QuestionData } from '../../schemas/cards';
import { InlineMarkdown } from './InlineMarkdown';

/** What the reader said before seeing the answer. */
export interface Prediction {
  choice?: string;
  text?: string;
  skipped?: boolean;
}

interface Props {
  question: QuestionData;
  prediction: Prediction | undefined;
  onPredict: (prediction: Prediction) => void;
}

/**
 * A card's question. Until the reader picks an option, writes a prediction or skips,
 * the answer stays hidden (and, for a `before` question, the card hides its diff).
 */
export function Question({ question, prediction, onPredict }: Props) {
  const [text, setText] = useState('');
  const heading = question.when === 'before' ? 'Before you look' : 'Now that you have looked';
  if (!prediction) {
    return (
      <section className="inv-question" aria-label="Question">
        <h3>{heading}</h3>
        <p className="inv-question-text">
          <InlineMarkdown text={question.text} />
        </p>
        {question.options && question.options.length > 0 && (
          <div className="inv-options" role="group" aria-label="Options">
            {question.options.map((option) => (
              <button key={option} type="button" onClick={() => onPredict({ choice: option })}>
                {option}
              </button>
            ))}
          </div>
        )}
        <form
          className="inv-predict"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) onPredict({ text: text.trim() });
          }}
        >
          <input
            aria-label="Your prediction"
            placeholder="…or write your prediction"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" disabled={!text.trim()}>
            Answer
          </button>
          <button type="button" className="inv-quiet" onClick={() => onPredict({ skipped: true })}>
            Skip
          </button>
        </form>
        {question.when === 'before' && (
          <p className="inv-hint">The diff and the agent’s answer stay hidden until you answer or skip.</p>
        )}
      </section>
    );
  }
  return (
    <section className="inv-question inv-answered" aria-label="Question">
      <h3>{heading}</h3>
      <p className="inv-question-text">
        <InlineMarkdown text={question.text} />
      </p>
      <div className="inv-answer-pair">
        <div>
          <h4>You said</h4>
          <p>{prediction.skipped ? <em>skipped</em> : (prediction.choice ?? prediction.text)}</p>
        </div>
        <div>
          <h4>The agent’s answer</h4>
          <p>
            {question.answer == null ? (
              <em>not stated</em>
            ) : question.answer === '' ? (
              <em>looked, found nothing</em>
            ) : (
              <InlineMarkdown text={question.answer} />
            )}
          </p>
        </div>
      </div>
    </section>
  );
}
