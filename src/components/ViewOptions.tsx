import type { ViewOptionsState } from '../state/useViewOptions';
import './reading.css';

/** The reader's drawing preferences in the top bar: whitespace and wrapping. */
export function ViewOptions({ options }: { options: ViewOptionsState }) {
  return (
    <div className="inv-view-options" role="group" aria-label="Diff options">
      <button
        type="button"
        aria-pressed={options.hideWhitespace}
        onClick={() => options.setHideWhitespace(!options.hideWhitespace)}
        title="Leave whitespace-only changes out of modified files' diffs (w)"
      >
        Hide whitespace
      </button>
      <button
        type="button"
        aria-pressed={options.wrap}
        onClick={() => options.setWrap(!options.wrap)}
        title="Wrap long lines instead of scrolling sideways"
      >
        Wrap lines
      </button>
    </div>
  );
}
