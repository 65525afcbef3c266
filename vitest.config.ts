import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/browser-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
