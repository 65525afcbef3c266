import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One config, two builds: `vite build` bundles the viewer (src/ → dist/web),
// `vite build --ssr` bundles the CLI and server (server/cli.ts → dist/server/cli.js)
// with every npm dependency left external, so the package runs on plain Node.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
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
