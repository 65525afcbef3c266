/** Which side of a diff a line note is on: `+` the new file, `-` the old one. */
export type Side = '+' | '-';

/** What a note is attached to, decoded from its key in notes.json. */
export type NoteTarget =
  | { kind: 'card'; id: string }
  | { kind: 'file'; ref: string }
  /** One line (`to` equals `line`), or the lines `line` to `to` of one side. */
  | { kind: 'line'; ref: string; side: Side; line: number; to: number };

export type LineTarget = Extract<NoteTarget, { kind: 'line' }>;

export const cardKey = (id: string) => id;
export const fileKey = (ref: string) => `file:${ref}`;
/** The key of a line note, or of a range note when `to` is after `line`. */
export const lineKey = (ref: string, side: Side, line: number, to = line) =>
  `line:${ref}:${side}${line}${to > line ? `-${to}` : ''}`;

/** Decodes a note key; a ref may itself contain colons, so the line part is read from the end. */
export function parseNoteKey(key: string): NoteTarget {
  if (key.startsWith('file:')) return { kind: 'file', ref: key.slice(5) };
  if (key.startsWith('line:')) {
    const match = /^line:(.+):([+-])(\d+)(?:-(\d+))?$/s.exec(key);
    const line = Number(match?.[3]);
    const to = match?.[4] === undefined ? line : Number(match[4]);
    if (match && to >= line) return { kind: 'line', ref: match[1]!, side: match[2] as Side, line, to };
  }
  return { kind: 'card', id: key };
}

/** How a line note's place reads: `line +12`, or `lines +12–18` for a range. */
export const linesLabel = ({ side, line, to }: { side: Side; line: number; to: number }) =>
  to > line ? `lines ${side}${line}–${to}` : `line ${side}${line}`;

/** The files the notes are on (file and line notes). */
export function notedRefs(notes: Record<string, unknown>): string[] {
  return Object.keys(notes).flatMap((key) => {
    const target = parseNoteKey(key);
    return target.kind === 'card' ? [] : [target.ref];
  });
}

/**
 * The nearest of `refs` after (or, stepping back, before) the file `from` in the order
 * `order` gives (from null: from the start, or the end stepping back); null when none.
 */
export function nextFileWithNotes(
  order: ReadonlyMap<string, number>,
  refs: Iterable<string>,
  from: string | null,
  step: 1 | -1,
): string | null {
  const at = from === null ? (step > 0 ? -1 : Infinity) : (order.get(from) ?? -1);
  let best: string | null = null;
  let bestAt = step > 0 ? Infinity : -1;
  for (const ref of refs) {
    const i = order.get(ref);
    if (i === undefined) continue;
    if (step > 0 ? i > at && i < bestAt : i < at && i > bestAt) {
      best = ref;
      bestAt = i;
    }
  }
  return best;
}
