import { defineConfig } from 'vitest/config';

// Three vitest projects; Playwright (tests/e2e) is the fourth level. `npm test` runs them all.
export default defineConfig({
  test: {
    setupFiles: ['./tests/support/fail-on-console-error.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
      {
        extends: true,
        test: { name: 'process', include: ['tests/process/**/*.test.ts'], testTimeout: 90_000, hookTimeout: 90_000, fileParallelism: false },
      },
    ],
  },
});
