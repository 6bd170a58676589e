import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { startTremendousStandin } from './tests/support/tremendous-standin.ts';

/** A free loopback port. Workers inherit the runner's environment, so every process agrees. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

// The gift-card provider: a local Tremendous stand-in whose orders wait for approval (rewards.spec
// approves one through its API, then sends the signed webhook). Started once, by the runner; the
// workers inherit its address and keys.
if (!process.env.TREMENDOUS_BASE_URL) {
  const standin = await startTremendousStandin({ approvalRequired: true });
  process.env.TREMENDOUS_BASE_URL = standin.url;
  process.env.TREMENDOUS_API_KEY = standin.apiKey;
  process.env.TREMENDOUS_WEBHOOK_SECRET = standin.webhookSecret;
}
const provider = {
  url: process.env.TREMENDOUS_BASE_URL,
  apiKey: process.env.TREMENDOUS_API_KEY ?? '',
  webhookSecret: process.env.TREMENDOUS_WEBHOOK_SECRET ?? '',
};

/**
 * Debian's chromium-headless-shell (the browser without its window layer, what Playwright itself runs headless):
 * routes.spec took 3.2 min on it against 4.4 min on the full browser, with half the processor time.
 * The full browser when the shell is not installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Tests that change what every page shows (maintenance, the site banner): from the CLI, and from the admin screen. */
const SITE_WIDE_CLI = /flags switched from the CLI/;
const SITE_WIDE_UI = /@site-wide/;

export default defineConfig({
  testDir: 'tests/e2e',
  // Playwright empties its output folder at start: keep it apart from the other reports.
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  // Three files at a time on two cores: a test waits on its pages and the server part of the time.
  workers: 3,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A guard against a hung test, not a measure (timings are `npm run bench`'s): three files at a time on two
  // cores, a long journey took just over 30 s.
  timeout: 60_000,
  // First loads of the heavier screens can take more than Playwright's 5 s on a busy 2-core machine.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL,
    // No traces on CI, where nobody can open them: recording one for every test (a DOM snapshot per
    // action) made routes.spec 5.1 min instead of 4.4. A failure there still leaves its screenshot and its page's
    // accessibility tree (error-context.md); locally a failed test keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The participants' service worker would answer requests page.route() means to intercept: off,
    // but in service-worker.spec.ts, which turns it on for itself (test.use).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM,
      // Browsers cannot be downloaded here: Debian's chromium, with the network chatter off, and a
      // fake camera and microphone (a test pattern and a tone) a page may use without a prompt
      // (the video question's "Record here", field-capture.spec.ts).
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [
    // Everything but the tests that flip site-wide switches (maintenance, banner; from the CLI or
    // tagged @site-wide): those run alone afterwards, since every test shares one server (a
    // banner appearing meanwhile shifts other tests' pages).
    // (The two groups one after the other: a banner test beside a maintenance test would be sent to /maintenance.)
    { name: 'chromium', use: { browserName: 'chromium' }, grepInvert: [SITE_WIDE_CLI, SITE_WIDE_UI] },
    { name: 'global-switches', use: { browserName: 'chromium' }, grep: SITE_WIDE_CLI, dependencies: ['chromium'] },
    { name: 'site-wide-ui', use: { browserName: 'chromium' }, grep: SITE_WIDE_UI, dependencies: ['global-switches'] },
  ],
  // The built app, started the way `npm start` starts it, on a free port with a temporary DATA_DIR.
  webServer: {
    command: 'node scripts/start.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    // A first start builds the site once per language (scripts/build.ts): minutes on two cores.
    timeout: 420_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 12_000 },
    env: {
      PORT: process.env.E2E_PORT,
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // Tests that sign in through the API pick their own address (tests/e2e/accounts.ts).
      TRUST_PROXY: '1',
      DATABASE_URL: '',
      // Staff sign in with a password alone here: the second-factor requirement is off (tests/api/staff-second-factor.test.ts checks it on).
      REQUIRE_STAFF_SECOND_FACTOR: '0',
      // Outgoing webhooks may reach a receiver the test starts on 127.0.0.1 (integrations.spec.ts); every other private range stays refused.
      WEBHOOKS_ALLOW_LOOPBACK: '1',
      REWARDS_PROVIDER: 'tremendous',
      TREMENDOUS_BASE_URL: provider.url,
      TREMENDOUS_API_KEY: provider.apiKey,
      TREMENDOUS_WEBHOOK_SECRET: provider.webhookSecret,
    },
  },
});
