import type { Theme } from '../state/theme';
import type { ViewOptionsState } from '../state/useViewOptions';
import './reading.css';

/** The reader's drawing preferences in the top bar: whitespace, wrapping and theme. */
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
      <select
        aria-label="Theme"
        value={options.theme}
        onChange={(e) => options.setTheme(e.target.value as Theme)}
        title="Light or dark, or as the system says"
      >
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </div>
  );
}
