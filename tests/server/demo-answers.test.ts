/**
 * The demo's scripted agent plans its answer as the skill asks of an agent: one new card
 * per open note, listing it in `addresses`, continuing the card it was on, and the reader's
 * words left where the note was written (above its line, indented like it), or in the
 * TODO file for a file that takes no comment.
 */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../schemas/cards';
import type { Note } from '../../schemas/notes';
import { TODO_FILE, answerNotes, insertLines } from '../../server/demo/answer-notes';

const card: Card = {
  id: 'c_1',
  title: 'Sessions expire',
  intent: 'behavior',
  refs: ['config/limits.json', 'src/a.ts'],
  why: 'Idle time, not absolute time.',
};
const note = (text: string, extra: Partial<Note> = {}): Note => ({
  title: 't',
  refs: [],
  text,
  at: '2026-01-01T00:00:00Z',
  ...extra,
});
const files: Record<string, string[]> = {
  'src/a.ts': ['export function f() {', '  return 1;', '}'],
  'config/limits.json': ['{}'],
};
const read = (ref: string) => files[ref] ?? null;

describe('the demo agent’s answer', () => {
  it('answers a line note above its line, indented like it, in a card that addresses it', () => {
    const answer = answerNotes([['line:src/a.ts:+2', note('Return 2.')]], [card], 2, read);
    expect(answer.insertions).toEqual([{ ref: 'src/a.ts', before: 2, text: '  // TODO(review): Return 2.' }]);
    expect(insertLines(files['src/a.ts']!, answer.insertions)).toEqual([
      'export function f() {',
      '  // TODO(review): Return 2.',
      '  return 1;',
      '}',
    ]);
    expect(answer.cards).toHaveLength(1);
    expect(answer.cards[0]).toMatchObject({
      id: 'c_r2_1',
      addresses: ['line:src/a.ts:+2'],
      continues: null,
      refs: ['src/a.ts'],
      marks: [{ ref: 'src/a.ts', at: '// TODO(review): Return 2.' }],
    });
  });

  it('writes a note on a card whose first file takes no comment into the TODO file, and answers a question from the card', () => {
    const answer = answerNotes(
      [
        ['c_1', note('Keep the mobile app at 45 minutes.')],
        ['file:src/a.ts', note('Why a function?', { kind: 'question' })],
      ],
      [card],
      3,
      read,
    );
    expect(
      insertLines(
        [],
        answer.insertions.filter((i) => i.ref === TODO_FILE),
      ),
    ).toEqual([
      '# Notes from the review',
      '',
      'What the reader asked for that is still to do.',
      '',
      '- the card “t”: Keep the mobile app at 45 minutes.',
    ]);
    expect(answer.cards.map((c) => [c.id, c.continues, c.addresses, c.intent])).toEqual([
      ['c_r3_1', 'c_1', ['c_1'], 'behavior'],
      ['c_r3_2', null, ['file:src/a.ts'], 'behavior'],
    ]);
    expect(answer.cards[1]!.why).toContain('Idle time, not absolute time.');
  });

  it('never reuses a card id', () => {
    const answer = answerNotes([['c_1', note('x')]], [card, { ...card, id: 'c_r2_1' }], 2, read);
    expect(answer.cards[0]!.id).toBe('c_r2_1_2');
  });
});
