import type { Note, Notes } from '../../schemas/notes';
import { parseNoteKey } from './note-keys';

/** The instruction a reader hands to the agent, with every note as Markdown below it. */
export function notesPrompt(notes: Notes['notes']): string {
  const entries = Object.entries(notes);
  const head = 'Read `.review/notes.json` and address every note: a change request gets a change, a question gets an answer, and either way write a new card in `.review/cards.json` that lists the note keys it addresses in `addresses`. Never edit `.review/notes.json`.';
  if (entries.length === 0) return head;
  return `${head}\n\n${entries.map(([key, note]) => noteMarkdown(key, note)).join('\n\n')}\n`;
}

function noteMarkdown(key: string, note: Note): string {
  const target = parseNoteKey(key);
  const where =
    target.kind === 'card' ? `card \`${target.id}\`` : target.kind === 'file' ? `file \`${target.ref}\`` : `\`${target.ref}\` line ${target.side}${target.line}`;
  const lines = [`## ${note.kind === 'question' ? 'Question' : 'Change'} on ${where}: ${note.title}`, `key: \`${key}\``];
  if (note.refs.length) lines.push(`refs: ${note.refs.map((r) => `\`${r}\``).join(', ')}`);
  if (note.quote !== undefined) lines.push('', '```diff', note.quote, '```');
  lines.push('', note.text);
  return lines.join('\n');
}
