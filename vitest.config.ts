import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/browser-setup.ts'],
    // The tests mostly wait on git, servers and Chromium: two files at a time keep both cores
    // busy where vitest's default (cores − 1) would run them one by one on a 2-core machine.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
