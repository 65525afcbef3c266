import { headerBottom, landInSight, sightTop } from './landInSight';

/** Hunk header rows drawn in the page (both tables of side by side hold one: the left is kept). */
const HUNKS = '.inv-diff tr:has(> td.d2h-info)';
/** What a note key steps through: marks, line notes, and note boxes that hold text. */
const NOTES =
  '.inv-mark, .inv-extra:not(.inv-twin) .inv-note, .inv-note:has(textarea.inv-note-text:not(:placeholder-shown)), .inv-folded-notes';

/**
 * Moves to the next (or previous) element matching `selector` below (or above) the sticky
 * headers, landing it in sight. Returns false when there is none in that direction among
 * what is drawn (lazily drawn chunks near the viewport are included).
 */
function step(selector: string, by: 1 | -1, keep: (element: Element) => boolean = () => true): boolean {
  // Against where a jump lands each one: what a jump just landed on is neither next nor previous.
  const offset = (e: Element) => e.getBoundingClientRect().top - sightTop(e.closest('section.inv-file'));
  const all = [...document.querySelectorAll(selector)].filter(keep);
  const target = by > 0 ? all.find((e) => offset(e) > 2) : all.findLast((e) => offset(e) < -2);
  if (!target) return false;
  landInSight(target);
  return true;
}

/** The next or previous hunk of any file drawn near the viewport. */
export function stepHunk(by: 1 | -1): boolean {
  // In side by side, the right table's header row is the left one's twin.
  return step(HUNKS, by, (row) => !row.closest('.d2h-file-side-diff + .d2h-file-side-diff'));
}

/** The next or previous mark or note. */
export function stepNote(by: 1 | -1): boolean {
  return step(NOTES, by);
}

/** The file whose section is at the top of the screen, just below the app bar (one hit test, whatever the round's size). */
export function fileOnScreen(): string | null {
  const main = document.querySelector('main.inv-main');
  if (!main) return null;
  const x = main.getBoundingClientRect().left + 24;
  const section = document.elementFromPoint(x, headerBottom() + 48)?.closest<HTMLElement>('section.inv-file');
  return section?.dataset.ref ?? null;
}

/**
 * The file a key acts on: the one holding the focus (a line number, a checkbox), else the
 * one selected (`current`, the last jump's target) while any of it is in sight, else the
 * file at the top of the screen. A short file jumped to near the end of the page does not
 * reach the top, so the top alone would name the file above it.
 */
export function fileToActOn(current: string | null): string | null {
  const focused = document.activeElement?.closest<HTMLElement>('section.inv-file')?.dataset.ref;
  if (focused) return focused;
  const section = current ? document.querySelector(`section.inv-file[data-ref="${CSS.escape(current)}"]`) : null;
  const r = section?.getBoundingClientRect();
  if (r && r.height > 0 && r.bottom > headerBottom() && r.top < window.innerHeight) return current;
  return fileOnScreen();
}

/**
 * Scrolls to the next (or previous) file's section below the app bar and returns its ref.
 * Raw's blocks not mounted yet stand for their first file (FileBlock): Raw scrolls to it once mounted.
 */
export function stepFileSection(by: 1 | -1): string | null {
  const sections = [...document.querySelectorAll<HTMLElement>('section.inv-file, [data-first-ref]')];
  if (!sections.length) return null;
  // The file a jump landed on sits just below the app bar (scroll-margin-top): the next one starts below that.
  const line = headerBottom() + 12;
  const top = sections.findIndex((s) => s.getBoundingClientRect().top > line);
  const at = top === -1 ? sections.length - 1 : by > 0 ? top : top - 2;
  const target = sections[Math.max(0, Math.min(sections.length - 1, at))]!;
  target.scrollIntoView({ block: 'start' });
  return target.dataset.ref ?? target.dataset.firstRef ?? null;
}

/** Focuses the note box of the current file; else the first one on screen (a card's, after ] in Cards); else the first. */
export function focusNoteBox(ref: string | null): void {
  const scope = ref ? document.querySelector(`section.inv-file[data-ref="${CSS.escape(ref)}"]`) : null;
  const inScope = scope?.querySelector<HTMLTextAreaElement>('textarea.inv-note-text');
  const boxes = [...document.querySelectorAll<HTMLTextAreaElement>('textarea.inv-note-text')];
  const onScreen = boxes.find((box) => {
    const r = box.getBoundingClientRect();
    return r.height > 0 && r.top >= headerBottom() && r.bottom <= window.innerHeight;
  });
  (inScope ?? onScreen ?? boxes[0])?.focus();
}

/** Unfolds a folded file by its fold control; false when it is not folded (or not drawn). */
export function unfoldFile(ref: string | null): boolean {
  const section = ref ? document.querySelector(`section.inv-file[data-ref="${CSS.escape(ref)}"]`) : null;
  const fold = section?.querySelector<HTMLButtonElement>('.inv-file-header button[aria-expanded="false"]');
  fold?.click();
  return !!fold;
}

/** Stops waiting for a file's notes to be drawn (a newer step, or the reader moved on). */
let stopWaiting: (() => void) | null = null;

/**
 * Lands on the first (or, stepping back, the last) mark or note of `ref`'s file once it is
 * drawn: a file jumped to far down the page is drawn when its diff arrives. The reader's
 * own scroll, click or key gives up the wait.
 */
export function landOnNotesOf(ref: string, by: 1 | -1): void {
  stopWaiting?.();
  const look = () => {
    const section = document.querySelector(`section.inv-file[data-ref="${CSS.escape(ref)}"]`);
    const all = section ? [...section.querySelectorAll(NOTES)] : [];
    const target = by > 0 ? all[0] : all[all.length - 1];
    if (!target) return false;
    landInSight(target);
    return true;
  };
  if (look()) return;
  const observer = new MutationObserver(() => look() && stop());
  const stop = () => {
    observer.disconnect();
    for (const type of MOVED_ON) window.removeEventListener(type, stop, true);
    if (stopWaiting === stop) stopWaiting = null;
  };
  stopWaiting = stop;
  observer.observe(document.body, { childList: true, subtree: true });
  for (const type of MOVED_ON) window.addEventListener(type, stop, { capture: true, passive: true });
}

const MOVED_ON = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const;
