import { defineConfig } from 'vitest/config';

// Three vitest projects; Playwright (tests/e2e) is the fourth level. `npm test` runs them all.
// Unit and API files run two at a time (both cores: an API file waits on PostgreSQL or on its
// PGlite much of the time); the process tests, which start real servers and time them, run
// afterwards, one file at a time, with nothing else beside them.
export default defineConfig({
  test: {
    setupFiles: ['./tests/support/fail-on-console-error.ts'],
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['./tests/support/pglite-template.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['tests/process/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
