import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../server/review/json-position';
import { parseJson, readSettled } from '../../server/review/review-files';
import { removeTempDirs, sleep, tempDir } from '../helpers/server';

afterAll(removeTempDirs);

describe('the position of a JSON error', () => {
  it('is found wherever JSON.parse finds one, and also where it names none', () => {
    const cases = [
      '{}',
      '[]',
      '{"a":1,}',
      '{"a":',
      '',
      '{"a" 1}',
      '[1,2',
      '{\n"a":\n  x}',
      '-',
      '01',
      '1.',
      '{"a":[1,{"b":null}]} x',
      '[true,false,null,-1.5e3,"\\n"]',
      '"a\nb"',
      ' \t{"a" : "b"} \n',
      '[,]',
      '{,}',
      'tru',
      '{"a":1}}',
    ];
    for (const text of cases) {
      let valid = true;
      let position: number | null = null;
      try {
        JSON.parse(text);
      } catch (error) {
        valid = false;
        const at = /at position (\d+)/.exec((error as Error).message);
        position = at ? Number(at[1]) : null;
      }
      const found = jsonErrorOffset(text);
      expect(found === null, text).toBe(valid);
      if (position !== null) expect(found, text).toBe(position);
    }
  });

  it('gives a 1-based line and column, and survives absurd nesting', () => {
    expect(parseJson(Buffer.from('{\n  "cards": [,]\n}'))).toMatchObject({ error: { line: 2, column: 13 } });
    expect(parseJson(Buffer.from('{"a":'))).toMatchObject({ error: { line: 1, column: 6 } });
    expect(jsonErrorOffset('['.repeat(200_000))).toBeNull();
  });
});

describe('readSettled: a half-written file is not the new truth', () => {
  it('waits for the second chunk of a non-atomic write', async () => {
    const file = path.join(tempDir(), 'cards.json');
    writeFileSync(file, '{"contract": 1, "cards": [');
    setTimeout(() => appendFileSync(file, ']}'), 40);
    const read = await readSettled(file);
    expect(read).toMatchObject({ value: { contract: 1, cards: [] } });
  });

  it('reports a file that stays broken', async () => {
    const file = path.join(tempDir(), 'cards.json');
    writeFileSync(file, '{"contract": 1,');
    const read = await readSettled(file);
    expect(read).toMatchObject({ error: { state: 'invalid-json', line: 1, column: 16 } });
  });

  it('answers missing for a file that is not there', async () => {
    expect(await readSettled(path.join(tempDir(), 'nothing.json'))).toEqual({ bytes: null });
    await sleep(0);
  });
});
