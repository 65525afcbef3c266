import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Cards } from './cards';
import { Config } from './config';
import { Material } from './material';
import { Notes } from './notes';

/** The JSON Schema files shipped in `schemas/json/` for agents and editors, by file name. */
export function jsonSchemas(): Record<string, unknown> {
  const of = (schema: z.ZodType, id: string) => ({ $id: id, ...z.toJSONSchema(schema, { io: 'input' }) });
  return {
    'material.schema.json': of(Material, 'https://involut.dev/schemas/material.schema.json'),
    'cards.schema.json': of(Cards, 'https://involut.dev/schemas/cards.schema.json'),
    'notes.schema.json': of(Notes, 'https://involut.dev/schemas/notes.schema.json'),
    'config.schema.json': of(Config, 'https://involut.dev/schemas/config.schema.json'),
  };
}

export const jsonSchemaDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'json');

export function jsonSchemaText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

// `npx tsx schemas/json-schema.ts` rewrites the committed files after a schema change.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const [name, schema] of Object.entries(jsonSchemas())) {
    await writeFile(path.join(jsonSchemaDir, name), jsonSchemaText(schema));
    console.log(`wrote schemas/json/${name}`);
  }
}
