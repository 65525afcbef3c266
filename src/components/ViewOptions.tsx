import type { ViewOptionsState } from '../state/useViewOptions';
import './reading.css';

/** The reader's drawing preferences in the top bar: whitespace. */
export function ViewOptions({ options }: { options: ViewOptionsState }) {
  return (
    <button
      type="button"
      className="inv-view-option"
      aria-pressed={options.hideWhitespace}
      onClick={() => options.setHideWhitespace(!options.hideWhitespace)}
      title="Leave whitespace-only changes out of modified files' diffs (w)"
    >
      Hide whitespace
    </button>
  );
}
