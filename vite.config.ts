import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config, two builds: `vite build` bundles the viewer (src/ → dist/web),
// `vite build --ssr` bundles the CLI and server (server/cli.ts → dist/server/cli.js) with
// their npm dependencies, so the package runs on plain Node without resolving and reading
// the hundreds of files Fastify and its plugins are made of (`involut serve` answers its
// first request about 180 ms sooner). `open` stays external: it runs a script of its own
// package on Linux, found beside its module. Fastify's JSON-schema compilers stay out: the
// app gives Fastify compilers of its own (see createApp), so Fastify never requires them,
// and leaving them out (ajv and fast-json-stringify, a quarter of the bundle) makes every
// start parse 0.5 MiB less. Each build writes licenses.md beside its output: the licences
// of the packages it bundles, which ship with them.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        ssr: {
          noExternal: true,
          external: ['open', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'],
        },
        build: {
          outDir: 'dist/server',
          emptyOutDir: true,
          target: 'node20',
          sourcemap: true,
          license: { fileName: 'licenses.md' },
        },
      }
    : {
        root: 'src',
        plugins: [react()],
        build: { outDir: '../dist/web', emptyOutDir: true, license: { fileName: 'licenses.md' } },
      },
);
