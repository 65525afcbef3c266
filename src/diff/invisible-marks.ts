import { describe, hasInvisible, splitInvisible } from '../model/invisible';

const MARKER = /⟨U\+[0-9A-F]{4,5}⟩/g;

/**
 * Replaces, in a drawn diff, every direction-control or invisible character by a visible
 * marker, so a line reads as it runs. Done after each drawing step (highlighting rebuilds
 * the lines from their text, where the markers then stand as plain text: they are styled
 * again here). Works on text nodes only: the diff is never parsed as HTML.
 */
export function markInvisible(target: HTMLElement): void {
  const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
  const found: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node as Text).data;
    MARKER.lastIndex = 0;
    if ((hasInvisible(text) || MARKER.test(text)) && !node.parentElement?.classList.contains('inv-invisible'))
      found.push(node as Text);
  }
  if (found.length) target.dataset.invisible = 'true';
  for (const node of found) {
    const pieces: Array<string | HTMLElement> = [];
    for (const piece of splitInvisible(node.data)) {
      if (typeof piece !== 'string') pieces.push(marker(piece.code, piece.name));
      else pieces.push(...splitMarkers(piece));
    }
    node.replaceWith(...pieces);
  }
}

function splitMarkers(text: string): Array<string | HTMLElement> {
  const out: Array<string | HTMLElement> = [];
  let at = 0;
  for (const match of text.matchAll(MARKER)) {
    if (match.index > at) out.push(text.slice(at, match.index));
    const code = match[0].slice(1, -1);
    out.push(marker(code, describe(String.fromCodePoint(parseInt(code.slice(2), 16))).name));
    at = match.index + match[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

function marker(code: string, name: string): HTMLElement {
  return Object.assign(document.createElement('span'), {
    className: 'inv-invisible',
    title: `${code} ${name}`,
    textContent: `⟨${code}⟩`,
  });
}
