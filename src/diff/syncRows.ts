/**
 * Side by side is two tables, one per side, whose rows must stay level. With wrapped lines
 * a row is as tall as its longer side: each pair of rows is set to the taller of the two.
 * Called after a chunk is drawn and whenever its width changes.
 */
export function levelSideRows(root: Element): void {
  const [left, right] = [...root.querySelectorAll('.d2h-file-side-diff tbody')].map(
    (body) => [...body.children] as HTMLElement[],
  );
  if (!left || !right) return;
  const pairs = Math.min(left.length, right.length);
  for (let i = 0; i < pairs; i++) left[i]!.style.height = right[i]!.style.height = '';
  // Read every height before writing any, so the browser lays out once.
  const heights = Array.from({ length: pairs }, (_, i) =>
    Math.max(left[i]!.getBoundingClientRect().height, right[i]!.getBoundingClientRect().height),
  );
  for (let i = 0; i < pairs; i++) left[i]!.style.height = right[i]!.style.height = `${heights[i]}px`;
}
