/** Which side of a diff a line note is on: `+` the new file, `-` the old one. */
export type Side = '+' | '-';

/** What a note is attached to, decoded from its key in notes.json. */
export type NoteTarget =
  | { kind: 'card'; id: string }
  | { kind: 'file'; ref: string }
  | { kind: 'line'; ref: string; side: Side; line: number };

export const cardKey = (id: string) => id;
export const fileKey = (ref: string) => `file:${ref}`;
export const lineKey = (ref: string, side: Side, line: number) => `line:${ref}:${side}${line}`;

/** Decodes a note key; a ref may itself contain colons, so the line part is read from the end. */
export function parseNoteKey(key: string): NoteTarget {
  if (key.startsWith('file:')) return { kind: 'file', ref: key.slice(5) };
  if (key.startsWith('line:')) {
    const match = /^line:(.+):([+-])(\d+)$/s.exec(key);
    if (match) return { kind: 'line', ref: match[1]!, side: match[2] as Side, line: Number(match[3]) };
  }
  return { kind: 'card', id: key };
}
