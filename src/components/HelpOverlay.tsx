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
  ['s', 'switch unified / side-by-side'],
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

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <div className="inv-overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      <div className="inv-overlay-box" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <table>
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <th scope="row">
                  <kbd>{keys}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>On a line number</h3>
        <table>
          <tbody>
            {LINE_SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <th scope="row">
                  <kbd>{keys}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
