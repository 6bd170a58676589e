import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, type APIRequest, type APIRequestContext, type Browser, type Cookie, type Page } from '@playwright/test';
import { runCli } from '../../src/server/cli.ts';
import type { Role } from '../../src/shared/roles.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const PASSWORD = 'Str0ng-password!';

let counter = 0;
/** A fresh address for each account a test makes (tests share one server). */
export function uniqueEmail(name: string): string {
  return `${name}-${process.pid}-${++counter}-${Date.now().toString(36)}@example.org`;
}

/** Runs the operator CLI against the e2e server's DATA_DIR, as an operator would. */
export function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'src/server/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: Role;
}

/**
 * Runs an operator CLI command in this process: the same code as `npm run cli` (it reaches the
 * running server's database through its socket), without starting a Node process for each of the
 * many accounts the tests make.
 */
async function cliInProcess(args: string[]): Promise<void> {
  const err: string[] = [];
  const env = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '', LOG_LEVEL: 'warn' };
  const code = await runCli(args, env, { out: () => {}, err: (line) => err.push(line) });
  if (code !== 0) throw new Error(`cli ${args[0]} failed (${code}): ${err.join('\n')}`);
}

/** Creates an active account with the CLI's `user:create`. */
export async function createAccount(role: Role, firstName = 'Ada', lastName = 'Lovelace'): Promise<Account> {
  const email = uniqueEmail(role);
  await cliInProcess(['user:create', '--email', email, '--password', PASSWORD, '--role', role, '--first-name', firstName, '--last-name', lastName]);
  return { email, password: PASSWORD, firstName, lastName, role };
}

let ipCounter = 0;

/**
 * Signs a browser context in through the API (for tests about something else than signing in).
 * The e2e server trusts X-Forwarded-For, so each of these sign-ins counts against its own
 * address and the per-IP sign-in limit stays out of tests that are not about it.
 */
export async function signInThroughApi(request: APIRequestContext, baseURL: string, account: Account): Promise<void> {
  const res = await request.post('/api/auth/login', {
    headers: { Origin: baseURL, 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${(process.pid + ++ipCounter) % 250}` },
    data: { email: account.email, password: account.password },
  });
  if (res.status() !== 200) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

/** Signs the page's browser context in. */
export async function signIn(page: Page, baseURL: string, account: Account): Promise<void> {
  await signInThroughApi(page.context().request, baseURL, account);
}

/** A new admin and an API request context signed in as them (the caller disposes of it). */
export async function signedInAdmin(request: APIRequest, baseURL: string): Promise<{ admin: Account; adminRequest: APIRequestContext }> {
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const adminRequest = await request.newContext({ baseURL });
  await signInThroughApi(adminRequest, baseURL, admin);
  return { admin, adminRequest };
}

/**
 * Signs in through the sign-in page, as a person on this device would (ends on home). Already on
 * it (after signing out), without loading it again: the next person's session starts in the same
 * page, by client-side navigation, as it does for people.
 */
export async function signInWithForm(page: Page, account: Account): Promise<void> {
  if (!/\/login$/.test(page.url())) await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Signs out through the account menu in the header (ends on the sign-in page). */
export async function signOutWithMenu(page: Page, account: Account): Promise<void> {
  await page.getByRole('button', { name: `${account.firstName} ${account.lastName}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A signed-in session's cookies, made once and reused (the per-email limit is 10 a minute). */
export async function sessionCookies(browser: Browser, baseURL: string, account: Account): Promise<Cookie[]> {
  const context = await browser.newContext({ baseURL });
  await signInThroughApi(context.request, baseURL, account);
  const { cookies } = await context.storageState();
  await context.close();
  return cookies;
}
