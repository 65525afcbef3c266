import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import wabt from 'wabt';

/** Assembles a `.wat` file (SIMD allowed); the tests compare this with the committed module. */
export async function assemble(source: string): Promise<Uint8Array> {
  const module = (await wabt()).parseWat(path.basename(source), readFileSync(source, 'utf8'), { simd: true });
  try {
    module.validate();
    return module.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}

/** `json-bytes.wat` → `json-bytes-wasm.ts`, exporting `jsonBytesWasm`. */
function targetOf(source: string): { file: string; name: string } {
  const base = path.basename(source, '.wat');
  const name = base.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) + 'Wasm';
  return { file: path.join(path.dirname(source), `${base}-wasm.ts`), name };
}

// `npm run wasm` (tsx server/wasm/assemble.ts <file.wat>...): the built CLI carries each
// module as text, with no file to find at run time.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const source of process.argv.slice(2)) {
    const bytes = await assemble(source);
    const { file, name } = targetOf(source);
    writeFileSync(
      file,
      `// Generated from ${path.basename(source)} by \`npm run wasm\`; do not edit.\n` +
        `export const ${name} = '${Buffer.from(bytes).toString('base64')}';\n`,
    );
    console.log(`${path.relative(process.cwd(), file)}: ${bytes.length} bytes`);
  }
}
