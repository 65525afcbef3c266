import { useEffect, useRef } from 'react';
import type { Theme } from '../state/theme';
import type { ViewOptionsState } from '../state/useViewOptions';
import './reading.css';

const MENU_ID = 'inv-view-menu';

/**
 * The reader's drawing preferences, behind one "View" button in the top bar: whitespace,
 * wrapping and theme. The panel is a popover: Escape or a click elsewhere closes it, and
 * it opens under its button.
 */
export function ViewOptions({ options }: { options: ViewOptionsState }) {
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const panel = menu.current;
    if (!panel) return;
    const place = (event: Event) => {
      if ((event as ToggleEvent).newState !== 'open' || !button.current) return;
      const below = button.current.getBoundingClientRect();
      panel.style.top = `${below.bottom + 4}px`;
      panel.style.left = `${Math.max(8, Math.min(below.left, window.innerWidth - panel.offsetWidth - 8))}px`;
    };
    panel.addEventListener('beforetoggle', place);
    panel.addEventListener('toggle', place); // its width is known once open
    return () => {
      panel.removeEventListener('beforetoggle', place);
      panel.removeEventListener('toggle', place);
    };
  }, []);
  const on = [options.hideWhitespace && 'whitespace hidden', options.wrap && 'wrapped'].filter(Boolean);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="inv-view-button"
        popoverTarget={MENU_ID}
        title={`How diffs are drawn: whitespace, wrapping, theme${on.length ? ` (now ${on.join(', ')})` : ''}`}
      >
        View{on.length > 0 && <span className="inv-view-count"> · {on.length}</span>} ▾
      </button>
      <div ref={menu} id={MENU_ID} popover="auto" className="inv-view-options" role="group" aria-label="Diff options">
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
        <label>
          Theme{' '}
          <select
            aria-label="Theme"
            value={options.theme}
            onChange={(e) => options.setTheme(e.target.value as Theme)}
            title="Light or dark, or as the system says"
          >
            <option value="system">As the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </div>
    </>
  );
}
