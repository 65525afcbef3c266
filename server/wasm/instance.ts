/**
 * A module's exports with its memory as bytes, or undefined where this Node rejects the
 * module (WebAssembly SIMD missing, say), so that the caller keeps its JavaScript way.
 * The memory of Involut's modules never grows, so the view stays valid.
 */
export function instantiate<Exports>(module: Uint8Array<ArrayBuffer>): { exports: Exports; memory: Buffer } | undefined {
  if (!WebAssembly.validate(module)) return undefined;
  const exports = new WebAssembly.Instance(new WebAssembly.Module(module)).exports;
  return { exports: exports as Exports, memory: Buffer.from((exports.memory as WebAssembly.Memory).buffer) };
}
