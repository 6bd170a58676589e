import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Three vitest projects; Playwright (tests/e2e) is the fourth level. `npm test` runs them all.
// Unit and API files run two at a time (both cores: an API file waits on PostgreSQL or on its
// PGlite much of the time). API files share their worker's modules (`isolate: false`): each file
// makes its own app and databases (tests/api/harness.ts) and none mocks a module, and importing
// the whole server anew for each of ~130 files took half of the API project's 9 minutes (now 4.6). The
// process tests, which start real servers, run afterwards, two files at a time.
export default defineConfig({
  // The compiled messages as one module (scripts/messages.ts writes it): a test file that reaches
  // src/shared/i18n.ts loads one file, not 3,000 (that doubled the suite's time).
  resolve: {
    alias: [{ find: /^\.\.\/paraglide\/messages\.js$/, replacement: fileURLToPath(new URL('./src/paraglide/messages.bundle.js', import.meta.url)) }],
  },
  test: {
    setupFiles: ['./tests/support/fail-on-console-error.ts'],
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'api',
          isolate: false,
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
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
