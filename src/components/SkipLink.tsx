/** The id of the page's `main`: the selected card, or Raw mode's files. */
export const MAIN_ID = 'inv-main';

/**
 * The first stop of Tab: past the header and the sidebar, straight to the card or the
 * files. The focus is moved by hand: a `#fragment` would replace the fragment that holds
 * the session token and the reader's place.
 */
export function SkipLink() {
  return (
    <a
      className="inv-skip"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      Skip to the changes
    </a>
  );
}
