import { describe, expect, it } from 'vitest';
import { diffSchema, type FieldEntry } from '../../src/model/schema-diff';

/** Fields written as "name: type" (no colon: no type stated). */
const fields = (...specs: string[]): FieldEntry[] =>
  specs.map((spec) => {
    const [name, type] = spec.split(':').map((s) => s.trim());
    return type === undefined ? { name: name! } : { name: name!, type };
  });

const rows = (before: FieldEntry[], after: FieldEntry[]) =>
  diffSchema(before, after).rows.map((r) => `${r.name} ${r.status}`);

describe('diffSchema', () => {
  it('gives each field one row saying what happened to it: added, removed, type changed, unchanged', () => {
    const diff = diffSchema(
      fields('id: serial', 'total: numeric(10,2)', 'status: text', 'legacy_ref: varchar(32)', 'created_at: timestamp'),
      fields(
        'id: bigserial',
        'total: numeric(10,2)',
        'status: order_status',
        'created_at: timestamp',
        'paid_at: timestamptz',
      ),
    );
    expect(diff.rows.map((r) => `${r.name} ${r.status}`)).toEqual([
      'id type changed',
      'total unchanged',
      'status type changed',
      'legacy_ref removed',
      'created_at unchanged',
      'paid_at added',
    ]);
    expect(diff.counts).toEqual({ added: 1, removed: 1, 'type changed': 2, unchanged: 2 });
    expect(diff.rows[0]).toMatchObject({ before: { type: 'serial' }, after: { type: 'bigserial' } });
    expect(diff.rows[3]).toMatchObject({ before: { type: 'varchar(32)' }, after: null });
    expect(diff.duplicates).toEqual([]);
  });

  it('places a removed field where it stood: first when it led, last when it closed', () => {
    expect(rows(fields('a', 'b', 'c', 'd'), fields('b', 'c'))).toEqual([
      'a removed',
      'b unchanged',
      'c unchanged',
      'd removed',
    ]);
    expect(rows(fields('x', 'y'), [])).toEqual(['x removed', 'y removed']);
    expect(rows([], fields('x'))).toEqual(['x added']);
  });

  it('follows the after order when fields were reordered', () => {
    expect(rows(fields('a', 'b', 'gone', 'c'), fields('c', 'b', 'a'))).toEqual([
      'c unchanged',
      'b unchanged',
      'gone removed',
      'a unchanged',
    ]);
  });

  it('treats a type that appears or disappears as a change, and null, absent and blank as the same "not stated"', () => {
    expect(rows([{ name: 'a' }], [{ name: 'a', type: 'int' }])).toEqual(['a type changed']);
    expect(rows([{ name: 'a', type: 'int' }], [{ name: 'a', type: null }])).toEqual(['a type changed']);
    expect(rows([{ name: 'a', type: null }], [{ name: 'a', type: '  ' }])).toEqual(['a unchanged']);
    expect(rows([{ name: 'a', type: ' int' }], [{ name: 'a', type: 'int ' }])).toEqual(['a unchanged']);
  });

  it('keeps both notes of a field', () => {
    const [row] = diffSchema(
      [{ name: 'email', type: 'text', note: 'may repeat' }],
      [{ name: 'email', type: 'text', note: 'unique, lower-cased' }],
    ).rows;
    expect(row).toMatchObject({
      status: 'unchanged',
      before: { note: 'may repeat' },
      after: { note: 'unique, lower-cased' },
    });
  });

  it('reports a name listed twice and pairs the repeats in order', () => {
    const diff = diffSchema(fields('id: int', 'id: int'), fields('id: int', 'id: bigint', 'id: text'));
    expect(diff.duplicates).toEqual([
      { side: 'before', name: 'id', count: 2 },
      { side: 'after', name: 'id', count: 3 },
    ]);
    expect(diff.rows.map((r) => r.status)).toEqual(['unchanged', 'type changed', 'added']);
  });
});
