import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import wabt from 'wabt';

const source = fileURLToPath(new URL('./json-bytes.wat', import.meta.url));
const target = fileURLToPath(new URL('./json-bytes-wasm.ts', import.meta.url));

/** Assembles json-bytes.wat; the test compares this with the committed module. */
export async function assembleJsonBytes(): Promise<Uint8Array> {
  const module = (await wabt()).parseWat('json-bytes.wat', readFileSync(source, 'utf8'), { simd: true });
  try {
    module.validate();
    return module.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}

// `npm run wasm`: the built CLI carries the module as text, with no file to find at run time.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bytes = await assembleJsonBytes();
  writeFileSync(
    target,
    `// Generated from json-bytes.wat by \`npm run wasm\`; do not edit.\n` +
      `export const jsonBytesWasm = '${Buffer.from(bytes).toString('base64')}';\n`,
  );
  console.log(`${path.relative(process.cwd(), target)}: ${bytes.length} bytes`);
}
