import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config, two builds: `vite build` bundles the viewer (src/ → dist/web),
// `vite build --ssr` bundles the CLI and server (server/cli.ts → dist/server/cli.js)
// with the npm dependencies left external, so the package runs on plain Node; the two
// that `involut rounds` loads are bundled in: as modules of their own they cost it a
// resolution and a load each (picomatch, in CommonJS, six files and a translation).
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        ssr: { noExternal: ['picomatch', 'image-size'] },
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
