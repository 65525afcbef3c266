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
  ['w', 'hide or show whitespace-only changes'],
  ['?', 'show or hide this help'],
  ['Esc', 'leave a note box or the search field, close this help'],
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
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}
