/**
 * The static-host tests (docs/deploy.md): the built site served by nginx with the configuration
 * `npm run cli -- deploy:nginx` prints, `/api/` proxied to an API process that serves no pages
 * (SERVE_STATIC=0). The browser's guard makes every redirect decision there. `npm test` runs them
 * after the main end-to-end suite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import base, { CHROMIUM } from './playwright.config.ts';
import { freePort } from './tests/support/processes.ts';

process.env.E2E_API_PORT ??= String(await freePort());
process.env.E2E_NGINX_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'fw-static-e2e-'));
process.env.E2E_STATIC_ROOT ??= path.join(process.env.E2E_DATA_DIR, 'site');
const baseURL = `http://127.0.0.1:${process.env.E2E_NGINX_PORT}`;

export default defineConfig({
  testDir: 'tests/static-host',
  outputDir: 'test-results/static-host',
  // Maintenance and "a new build" change what every page shows: one test at a time.
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/static-host.json' }]],
  use: { ...base.use, baseURL, launchOptions: { ...base.use?.launchOptions, executablePath: CHROMIUM } },
  projects: [{ name: 'static-host', use: { browserName: 'chromium' } }],
  webServer: [
    {
      // The API alone, started as `npm start` starts it.
      command: 'node scripts/start.ts',
      url: `http://127.0.0.1:${process.env.E2E_API_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 420_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 12_000 },
      env: {
        PORT: process.env.E2E_API_PORT,
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        SERVE_STATIC: '0',
        PUBLIC_URL: baseURL,
        LOG_LEVEL: 'warn',
        TRUST_PROXY: '1',
        DATABASE_URL: '',
        // Staff sign in with a password alone here: the second-factor requirement is off (tests/api/staff-second-factor.test.ts checks it on).
        REQUIRE_STAFF_SECOND_FACTOR: '0',
      },
    },
    {
      command: 'node tests/static-host/serve.ts',
      url: `${baseURL}/builds/latest.json`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 8000 },
      env: {
        E2E_API_PORTS: String(process.env.E2E_API_PORT),
        E2E_NGINX_PORT: String(process.env.E2E_NGINX_PORT),
        E2E_STATIC_ROOT: process.env.E2E_STATIC_ROOT,
      },
    },
  ],
});
