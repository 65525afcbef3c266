import { defineConfig } from 'vitest/config';

/** Checks that need the bench round (`npx vitest run --config bench/vitest.config.ts`); not part of `npm test`. */
export default defineConfig({
  test: {
    include: ['bench/**/*.test.ts'],
    testTimeout: 600_000,
    server: { deps: { inline: [/diff2html/] } },
  },
});
