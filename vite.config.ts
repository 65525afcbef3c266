import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config, two builds: `vite build` bundles the viewer (src/ → dist/web),
// `vite build --ssr` bundles the CLI and server (server/cli.ts → dist/server/cli.js) with
// their npm dependencies, so the package runs on plain Node without resolving and reading
// the hundreds of files Fastify and its plugins are made of (`involut serve` answers its
// first request about 180 ms sooner). `open` stays external: it runs a script of its own
// package on Linux, found beside its module.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        ssr: { noExternal: true, external: ['open'] },
        build: {
          outDir: 'dist/server',
          emptyOutDir: true,
          target: 'node20',
          sourcemap: true,
        },
      }
    : {
        root: 'src',
        plugins: [react()],
        build: { outDir: '../dist/web', emptyOutDir: true },
      },
);
