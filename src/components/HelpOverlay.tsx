import { useEffect, useRef } from 'react';

/** Every key of useKeyboard's KEYS, as the reader reads it; typing in a field triggers none. */
export const SHORTCUTS: Array<[string, string]> = [
  ['j / k', 'next / previous card (or file, in Raw)'],
  ['] / [', 'next / previous file'],
  ['. / ,', 'next / previous hunk'],
  ['m / M', 'next / previous note or mark'],
  ['v', 'mark the current file viewed (or not); a viewed file folds'],
  ['/', 'search every file of the round (Enter: next match, Shift+Enter: previous)'],
  ['r', 'toggle Raw mode'],
  ['n', 'focus the note box of the current card or file'],
  ['H', 'go to “Hand over” (Enter hands your notes over to the agent)'],
  ['s', 'switch unified / side-by-side'],
  ['w', 'hide or show whitespace-only changes'],
  ['b', 'hide or show the sidebar (drag its edge, or use the arrow keys on it, to resize it)'],
  ['?', 'show or hide this help'],
  ['Esc', 'leave a note box or the search field, close this help'],
];

/** The keys of a focused line number (useLineSelection); Tab reaches the first line number of each diff. */
export const LINE_SHORTCUTS: Array<[string, string]> = [
  ['↑ / ↓', 'the line number above / below'],
  ['Shift+↑ / Shift+↓', 'choose lines: extend the range (with the mouse: drag, or Shift+click, on line numbers)'],
  ['Enter', 'write a note on the line, or one note on the chosen lines'],
  ['Esc', 'let the chosen lines go'],
];

/** What can take the focus inside the dialog, for keeping Tab there. */
const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The keys, in a modal dialog: the page behind is inert, Tab and Shift+Tab stay inside,
 * Escape or a click beside it closes it, and the focus goes back where it was.
 */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const box = dialog.current!;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    box.showModal();
    return () => {
      box.close();
      before?.focus();
    };
  }, []);
  const keepTab = (event: React.KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const inside = [...dialog.current!.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const at = inside.indexOf(document.activeElement as HTMLElement);
    const next = (at + (event.shiftKey ? -1 : 1) + inside.length) % inside.length;
    event.preventDefault();
    inside[next]?.focus();
  };
  return (
    <dialog
      ref={dialog}
      className="inv-overlay"
      aria-label="Keyboard shortcuts"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => e.target === e.currentTarget && onClose()}
      onKeyDown={keepTab}
    >
      <div className="inv-overlay-box">
        <h2>Keyboard</h2>
        <KeyTable keys={SHORTCUTS} />
        <h3>On a line number</h3>
        <KeyTable keys={LINE_SHORTCUTS} />
        <p className="inv-muted">
          In the file tree: the arrow keys move up and down, and open, close or leave a folder; Home and End go to the
          first and last row; Enter opens the file.
        </p>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
}

function KeyTable({ keys }: { keys: Array<[string, string]> }) {
  return (
    <table>
      <tbody>
        {keys.map(([key, what]) => (
          <tr key={key}>
            <th scope="row">
              <kbd>{key}</kbd>
            </th>
            <td>{what}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
