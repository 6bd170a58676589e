/**
 * Account security in the browser (issue 29): an admin sets up an authenticator app (the test
 * computes the codes from the key the screen shows), signs out and in with a code, uses a recovery
 * code once (the second use fails), adds a passkey with Chromium's virtual authenticator and signs
 * in with it alone, and later confirms a sensitive change with it; a moderator without a second
 * factor opening the admin area is sent to set one up; a change refused for an old sign-in (403
 * `reauth_required`) goes on after the dialog, what was typed kept, and a participant whose one
 * factor is a passkey signs in with the password and then the passkey. axe on each new screen; screenshots at 390×844 and 1280×800.
 *
 * These run against a server of their own, started here from the built site: the suite's server
 * runs with the staff requirement off (REQUIRE_STAFF_SECOND_FACTOR=0, so that the other specs'
 * staff sign in with a password), and passkeys need a host name (a WebAuthn relying party id is
 * never an IP address): this one is `http://localhost:<port>` with the requirement on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import type { Page } from '@playwright/test';
import { runCli } from '../../src/server/cli.ts';
import { readLock } from '../../src/server/db/lock.ts';
import type { Role } from '../../src/shared/roles.ts';
import { freePort, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { PASSWORD, uniqueEmail, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { saveCookieChoice, screenshotsAtBothSizes, seriousViolations } from './page-helpers.ts';

let server: ServerProcess;
let dataDir: string;
let url: string;

test.beforeAll(async () => {
  // A new embedded database (unpacked, migrated) beside the suite's server and browsers: up to a minute or more on a busy machine.
  test.setTimeout(240_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sec-'));
  const port = String(await freePort());
  url = `http://localhost:${port}`;
  server = await startServerProcess(
    { PORT: port, DATA_DIR: dataDir, PUBLIC_URL: url, REQUIRE_STAFF_SECOND_FACTOR: '1', LOG_LEVEL: 'warn' },
    { waitHealthy: false },
  );
  let exited = false;
  void server.exited.then(() => (exited = true));
  const deadline = Date.now() + 200_000;
  while (!exited && Date.now() < deadline) {
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop('SIGKILL');
  throw new Error(`the spec's server did not become healthy:\n${server.output()}`);
});

test.beforeEach(async ({ page }) => {
  // Journeys through several pages, argon2 hashes and a new database's first queries.
  test.setTimeout(90_000);
  await saveCookieChoice(page);
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An active account on this spec's server (the CLI's `user:create`, through the server's socket). */
async function createAccount(role: Role, firstName: string, lastName: string): Promise<Account> {
  const email = uniqueEmail(`sec-${role}`);
  const err: string[] = [];
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' };
  const args = ['user:create', '--email', email, '--password', PASSWORD, '--role', role, '--first-name', firstName, '--last-name', lastName];
  const code = await runCli(args, env, { out: () => {}, err: (line) => err.push(line) });
  if (code !== 0) throw new Error(`user:create failed: ${err.join('\n')}`);
  return { email, password: PASSWORD, firstName, lastName, role };
}

/** A JSON call of this page's browser context (its cookies) to this spec's server. */
async function call(page: Page, method: 'POST' | 'GET', apiPath: string, data: unknown = {}): Promise<number> {
  const res = await page.context().request.fetch(`${url}${apiPath}`, {
    method,
    headers: { Origin: url, 'Content-Type': 'application/json' },
    data: method === 'GET' ? undefined : data,
  });
  return res.status();
}

const signOut = async (page: Page) => expect(await call(page, 'POST', '/api/auth/logout')).toBe(200);

/** Moves the account's sign-ins an hour back (through the server's database socket): its next sensitive change asks again. */
async function signedInAnHourAgo(page: Page, email: string): Promise<void> {
  const socket = readLock(dataDir)?.socket;
  if (!socket) throw new Error('the server does not share its database socket');
  const client = new pg.Client({ host: socket.host, port: socket.port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query("UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE user_id = (SELECT id FROM users WHERE email = $1)", [
      email.toLowerCase(),
    ]);
  } finally {
    await client.end();
  }
  // The server may hold the session in its cache for up to 5 s (a change through the socket is not
  // announced to it): a sensitive call answers 403 once it reads the new time.
  await expect.poll(() => call(page, 'POST', '/api/account/passkeys/options'), { timeout: 15_000 }).toBe(403);
}

/** Chromium's virtual authenticator on this page (a platform one, user verification on): passkeys are made and used without a prompt. */
async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

async function signInWithPassword(page: Page, account: Account): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A code of the authenticator app for a step after `after` (a step once used is never taken again): waits for the next step when needed. */
async function codeAfter(secret: string, after: number): Promise<{ code: string; step: number }> {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  let now = Date.now();
  const stepOf = (ms: number) => Math.floor(ms / 30_000);
  if (stepOf(now) <= after) {
    await new Promise((resolve) => setTimeout(resolve, (after + 1) * 30_000 - now + 250));
    now = Date.now();
  }
  return { code: totp.generate({ timestamp: now }), step: stepOf(now) };
}

test('an admin sets up an authenticator app, signs in with a code, with a recovery code once, and with a passkey alone', async ({ page }) => {
  test.setTimeout(180_000);
  const admin = await createAccount('admin', 'Ada', 'Secure');

  // Signed in with a password alone, the admin area sends them to set up a second factor first.
  await signInWithPassword(page, admin);
  await expect(page).toHaveURL(`${url}/account/security?r=/admin`);
  await expect(page.getByRole('heading', { level: 1, name: 'Account security' })).toBeVisible();
  await expect(page.getByText('Set up a second way to sign in to use the admin area')).toBeVisible();

  // The authenticator app: the QR code as an image, the key as text, a first code.
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await page.locator('code').first().innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByRole('heading', { name: 'Set up your authenticator app' })).toBeFocused();
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await screenshotsAtBothSizes(page, 'security-totp-setup');
  const first = await codeAfter(secret, 0);
  await page.getByRole('textbox', { name: 'Authentication code' }).fill(first.code);
  await page.getByRole('button', { name: 'Turn on' }).click();

  // The recovery codes, once: Copy, and a text file to download.
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allInnerTexts();
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as text' }).click()]);
  expect(download.suggestedFilename()).toBe('fieldwork-recovery-codes.txt');
  const file = fs.readFileSync(await download.path(), 'utf8');
  for (const code of codes) expect(file).toContain(code);
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await screenshotsAtBothSizes(page, 'security-recovery-codes');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('10 of 10 left')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to the admin area' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // Signed out and in again: the second step asks for the code in place, focused; staff are not offered to skip it.
  await signOut(page);
  await signInWithPassword(page, admin);
  const codeField = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByRole('checkbox', { name: 'Trust this browser for 30 days' })).toHaveCount(0);
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await screenshotsAtBothSizes(page, 'login-second-step');
  const second = await codeAfter(secret, first.step);
  await codeField.fill(second.code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page).toHaveURL(`${url}/admin`);

  // A recovery code signs in once; the second time it is refused.
  const recovery = codes[0] ?? '';
  for (const attempt of ['first', 'second'] as const) {
    await signOut(page);
    await signInWithPassword(page, admin);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recovery);
    await page.getByRole('button', { name: 'Continue' }).click();
    if (attempt === 'first') await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    else await expect(page.getByRole('alert')).toContainText('That code is not right');
  }
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[1] ?? '');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // A passkey from Chromium's virtual authenticator (user verification on), then a sign-in with it alone.
  await virtualAuthenticator(page);
  await page.goto(`${url}/account/security`);
  await page.getByRole('textbox', { name: 'Name of the new passkey' }).fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const passkeys = page.getByRole('list', { name: 'Your passkeys' });
  await expect(passkeys.getByRole('button', { name: 'Rename Test laptop' })).toBeVisible();
  await expect(passkeys.getByText('Not used yet')).toBeVisible();
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await screenshotsAtBothSizes(page, 'security-screen');

  await signOut(page);
  await page.goto(`${url}/login`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // An hour later, a sensitive change asks again; the passkey confirms it and the change goes on.
  await signedInAnHourAgo(page, admin.email);
  await page.goto(`${url}/account/security`);
  await page.getByRole('button', { name: 'Make new codes' }).click();
  await page.getByRole('group', { name: 'Confirm' }).getByRole('button', { name: 'Make new codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
});

test('a moderator without a second factor opening the admin area is sent to set one up', async ({ page }) => {
  const moderator = await createAccount('moderator', 'Mo', 'Derator');
  expect(await call(page, 'POST', '/api/auth/login', { email: moderator.email, password: moderator.password })).toBe(200);
  // Staff calls answer 403 until then.
  expect(await call(page, 'GET', '/api/admin/users')).toBe(403);

  await page.goto(`${url}/admin/users`);
  await expect(page).toHaveURL(`${url}/account/security?r=/admin/users`);
  await expect(page.getByText('Set up a second way to sign in to use the admin area')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await screenshotsAtBothSizes(page, 'security-staff-required');
});

test('a change refused for an old sign-in goes on after the re-authentication dialog, what was typed kept', async ({ page }) => {
  const participant = await createAccount('participant', 'Pat', 'Ticipant');
  expect(await call(page, 'POST', '/api/auth/login', { email: participant.email, password: participant.password })).toBe(200);
  // The sign-in was an hour ago.
  await signedInAnHourAgo(page, participant.email);

  await page.goto(`${url}/account/security`);
  const name = page.getByRole('textbox', { name: 'Name of the new passkey' });
  await name.fill('Typed before the dialog');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog).toBeVisible();
  const password = dialog.getByLabel('Password', { exact: true });
  await expect(password).toBeFocused();
  // No authenticator app on this account: the password alone.
  await expect(dialog.getByRole('textbox', { name: 'Authentication code' })).toHaveCount(0);
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await screenshotsAtBothSizes(page, 'reauth-dialog');
  await password.fill('Wr0ng-password!');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Incorrect password')).toBeVisible();
  await password.fill(participant.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();

  // The call went again by itself: the set-up shows, and the screen kept what was typed.
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  await expect(name).toHaveValue('Typed before the dialog');

  // A passkey as the only second factor: after the password, the second step is the passkey, and a
  // participant may trust this browser.
  await virtualAuthenticator(page);
  await name.fill('Phone');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('button', { name: 'Rename Phone' })).toBeVisible();
  await signOut(page);
  await signInWithPassword(page, participant);
  await expect(page.getByText('Your password was right. Now confirm it’s you with your passkey.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Authentication code' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Trust this browser for 30 days' })).toBeVisible();
  await screenshotsAtBothSizes(page, 'login-second-step-passkey');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(`${url}/`);
});
