import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Card, Cards } from '../../schemas/cards';
import { Material, MaterialEntry } from '../../schemas/material';
import { Notes } from '../../schemas/notes';
import { projectRoot } from '../helpers/cli';

const examples = path.join(projectRoot, 'fixtures', 'contract-examples');
const readExample = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(examples, name), 'utf8'));

describe("the contract's own examples parse", () => {
  it.each([
    ['material.json', Material],
    ['cards.json', Cards],
    ['notes.json', Notes],
  ] as const)('%s', async (name, schema) => {
    const parsed = schema.safeParse(await readExample(name));
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('keeps what the example says, including the binary entry without commits', async () => {
    const material = Material.parse(await readExample('material.json'));
    expect(material.material.map((m) => [m.ref, m.binary, m.diff === null])).toEqual([
      ['src/auth/session.ts', false, false],
      ['assets/hero.png', true, true],
    ]);
    const cards = Cards.parse(await readExample('cards.json'));
    expect(cards.cards[0]).toMatchObject({
      id: 'c_1',
      intent: 'behavior',
      render: 'tree',
      unrequested: null,
      continues: null,
    });
  });
});

/** The smallest card the contract allows; each test changes one field. */
const card = (fields: Record<string, unknown> = {}) => ({
  id: 'c_1',
  title: 'A card',
  intent: 'cleanup',
  refs: ['a.ts'],
  ...fields,
});
const cards = (cardFields: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => ({
  contract: 1,
  cards: [card(cardFields)],
  ...fields,
});
const entry = (fields: Record<string, unknown> = {}) => ({
  ref: 'a.ts',
  status: 'modified',
  binary: false,
  diff: '@@ -1 +1 @@\n-a\n+b\n',
  hash: '3f9a1c',
  commits: [],
  ...fields,
});
const material = (entryFields: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => ({
  contract: 1,
  source: { kind: 'git', id: 'repo@a3f9c21', root: '/repo', request: null },
  generated: '2026-08-30T16:40:00-03:00',
  material: [entry(entryFields)],
  ...fields,
});
const notes = (fields: Record<string, unknown> = {}) => ({
  contract: 1,
  notes: { c_1: { title: 'A card', refs: ['a.ts'], text: 'Split this.', at: '2026-09-02T18:10:00-03:00' } },
  ...fields,
});

describe('null (not filled in) and empty (looked, found nothing) are both accepted, and kept apart', () => {
  it.each([
    ['might_break', null],
    ['might_break', []],
    ['unrequested', null],
    ['unrequested', ''],
    ['unrequested', []],
    ['continues', null],
    ['skipped', null],
    ['skipped', ''],
    ['marks', null],
    ['marks', []],
    ['why', null],
    ['why', ''],
  ])('card %s: %j', (field, value) => {
    const parsed = Card.parse(card({ [field]: value }));
    expect(parsed[field as keyof typeof parsed]).toEqual(value);
  });

  it('material diff: null for a binary, "" for a change with no hunk', () => {
    expect(MaterialEntry.parse(entry({ binary: true, diff: null })).diff).toBeNull();
    expect(MaterialEntry.parse(entry({ diff: '' })).diff).toBe('');
  });

  it('cards request: null and absent', () => {
    expect(Cards.parse(cards({}, { request: null })).request).toBeNull();
    expect(Cards.parse(cards()).request).toBeUndefined();
  });
});

describe('null is refused where the contract has no "not filled in"', () => {
  it.each(['id', 'title', 'intent', 'refs'])('card %s', (field) => {
    expect(Card.safeParse(card({ [field]: null })).success).toBe(false);
  });

  it.each(['ref', 'status', 'binary', 'hash', 'commits'])('material entry %s', (field) => {
    expect(MaterialEntry.safeParse(entry({ [field]: null })).success).toBe(false);
  });

  it.each(['source', 'generated', 'material'])('material %s', (field) => {
    expect(Material.safeParse(material({}, { [field]: null })).success).toBe(false);
  });

  it('cards list and notes map', () => {
    expect(Cards.safeParse(cards({}, { cards: null })).success).toBe(false);
    expect(Notes.safeParse(notes({ notes: null })).success).toBe(false);
  });
});

describe('forward compatible: unknown fields are kept, at every level', () => {
  it('material, its source and its entries', () => {
    const parsed = Material.parse({
      ...material({ later: { nested: true } }),
      extra: 1,
      source: { ...material().source, machine: 'ci' },
    }) as Record<string, unknown> & { source: Record<string, unknown>; material: Array<Record<string, unknown>> };
    expect(parsed.extra).toBe(1);
    expect(parsed.source.machine).toBe('ci');
    expect(parsed.material[0]!.later).toEqual({ nested: true });
  });

  it('cards, each card, its marks, unsure and question', () => {
    const parsed = Cards.parse(
      cards(
        {
          confidence: 'high',
          marks: [{ ref: 'a.ts', at: 'b', text: 'here', colour: 'red' }],
          unsure: { about: 'x', chose: 'y', because: 'z', weight: 2 },
          question: { when: 'after', text: 'Why?', hint: 'look at b' },
        },
        { agent: 'some-agent' },
      ),
    );
    expect(parsed.agent).toBe('some-agent');
    expect(parsed.cards[0]!.confidence).toBe('high');
    expect(parsed.cards[0]!.marks![0]!.colour).toBe('red');
    expect(parsed.cards[0]!.unsure!.weight).toBe(2);
    expect(parsed.cards[0]!.question!.hint).toBe('look at b');
  });

  it('notes and each note', () => {
    const input = notes();
    const parsed = Notes.parse({ ...input, viewer: '0.2', notes: { c_1: { ...input.notes.c_1, resolved: false } } });
    expect(parsed.viewer).toBe('0.2');
    expect(parsed.notes.c_1.resolved).toBe(false);
  });
});

describe('what the contract does not know is refused', () => {
  it.each([
    ['material', Material, material()],
    ['cards', Cards, cards()],
    ['notes', Notes, notes()],
  ] as const)('%s with contract: 2', (_name, schema, valid) => {
    expect(schema.safeParse(valid).success).toBe(true);
    expect(schema.safeParse({ ...valid, contract: 2 }).success).toBe(false);
    expect(schema.safeParse({ ...valid, contract: '1' }).success).toBe(false);
  });

  it('an unknown intent', () => {
    expect(Card.safeParse(card({ intent: 'refactor' })).success).toBe(false);
  });

  it('an unknown render', () => {
    expect(Card.safeParse(card({ render: 'chart' })).success).toBe(false);
  });

  it('an unknown status', () => {
    expect(MaterialEntry.safeParse(entry({ status: 'copied' })).success).toBe(false);
  });

  it('a source.request other than null', () => {
    expect(Material.safeParse(material({}, { source: { ...material().source, request: 'do it' } })).success).toBe(
      false,
    );
  });
});
