import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Cards } from '../../schemas/cards';
import { Config } from '../../schemas/config';
import { jsonSchemaDir, jsonSchemas, jsonSchemaText } from '../../schemas/json-schema';
import { Material } from '../../schemas/material';
import { Notes } from '../../schemas/notes';

describe('schemas/json/ is what the zod schemas generate', () => {
  const expected = jsonSchemas();

  it('holds exactly one file per generated schema', async () => {
    const committed = (await readdir(jsonSchemaDir)).filter((name) => name.endsWith('.json')).sort();
    expect(committed, 'schemas/json/ has other files than jsonSchemas() makes; run `npm run schemas`').toEqual(
      Object.keys(expected).sort(),
    );
  });

  it.each(Object.keys(expected))('%s is up to date', async (name) => {
    const committed = await readFile(path.join(jsonSchemaDir, name), 'utf8').catch(() => '(missing)');
    expect(
      committed,
      `schemas/json/${name} is out of date with schemas/*.ts; run \`npm run schemas\` and commit the result`,
    ).toBe(jsonSchemaText(expected[name]));
  });
});

// A change in one of these snapshots is a change of the contract agents write against:
// update it (`npx vitest run tests/schemas -u`) only on purpose, and say so in the commit.
describe('the contract, locked', () => {
  it.each([
    ['material', Material],
    ['cards', Cards],
    ['notes', Notes],
    ['config', Config],
  ] as const)('z.toJSONSchema(%s)', async (name, schema: z.ZodType) => {
    await expect(`${JSON.stringify(z.toJSONSchema(schema), null, 2)}\n`).toMatchFileSnapshot(
      `__snapshots__/${name}.schema.json`,
    );
  });
});
