/**
 * The site from a static host (docs/deploy.md): nginx serves the built dist/ with the configuration
 * `npm run cli -- deploy:nginx` prints and proxies /api/ to an API process that serves no pages.
 * Nothing on the host decides who may see a page: the browser's guard does, and these are the
 * decisions the Node server otherwise makes before the page is sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { cli, createAccount, PASSWORD, signIn, signInThroughApi, uniqueEmail } from '../e2e/accounts.ts';
import { expect, test } from '../e2e/fixtures.ts';
import { DESKTOP, PHONE, SHOTS, seriousViolations } from '../e2e/page-helpers.ts';

const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });
const staticRoot = (): string => {
  const root = process.env.E2E_STATIC_ROOT;
  if (!root) throw new Error('E2E_STATIC_ROOT is not set');
  return root;
};

test.beforeEach(async ({ page }) => {
  await page.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
});

test('the static host sends the security and caching headers the Node server sends', async ({ request }) => {
  const login = await request.get('/login');
  expect(login.status()).toBe(200);
  const headers = login.headers();
  expect(headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cache-control']).toBe('no-cache');

  // A hashed asset the page loads: a year, never revalidated.
  const asset = /\/_astro\/[^"]+\.js/.exec(await login.text())?.[0];
  expect(asset).toBeTruthy();
  const script = await request.get(asset ?? '');
  expect(script.status()).toBe(200);
  expect(script.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(script.headers()['content-type']).toMatch(/javascript/);
  // Served as built: V8's compile hint on its first line (builds/compile-hints.ts, decision 040).
  expect((await script.text()).split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');

  // The build pointer is never kept; the route payloads are revalidated.
  expect((await request.get('/builds/latest.json')).headers()['cache-control']).toBe('no-store');
  expect((await request.get('/login/_payload.json')).headers()['cache-control']).toBe('no-cache');
  // The participants' service worker: asked again at every update check (decision 038, "Missions offline").
  const worker = await request.get('/sw.js?lang=de');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['cache-control']).toBe('no-cache');

  // A link holding a token sends no referrer; files meant for servers are not served.
  const onboarding = await request.get('/onboarding/abcdefghijklmnopqrstuvwx');
  expect(onboarding.status()).toBe(200);
  expect(onboarding.headers()['referrer-policy']).toBe('no-referrer');
  for (const hidden of ['/_routes.json', '/_headers', '/_redirects', '/.fingerprint']) expect((await request.get(hidden)).status(), hidden).toBe(404);

  // The API's own answers pass through untouched.
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(health.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
});

test('an unknown address is the 404 page with status 404', async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  const response = await page.goto('/no-such-page-here');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  const malformed = await page.goto('/surveys/not-a-number');
  expect(malformed?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
});

test('a visitor is sent to sign in with r, comes back after signing in, and guest and admin pages send a participant home', async ({ page }) => {
  const member = await createAccount('participant', 'Sam', 'Static');
  await page.goto('/account/edit');
  await expect(page).toHaveURL(/\/login\?r=\/account\/edit$/);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/edit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit your account' })).toBeVisible();

  // Signed in, a guest page sends home.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/$/);
  // An admin page sends a participant home.
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/$/);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the onboarding link of an invitation opens its page and signs the new member in', async ({ page, baseURL }) => {
  const email = uniqueEmail('invited');
  const link = cli(['user:invite', '--email', email])
    .stdout.split('\n')
    .find((line) => line.includes('/onboarding/'));
  expect(link).toBeTruthy();
  const url = new URL(link?.trim() ?? '');
  // PUBLIC_URL is the static host: the link points at nginx.
  expect(url.origin).toBe(baseURL);
  await page.goto(url.pathname);
  await expect(page.getByRole('heading', { level: 1, name: /welcome/i })).toBeVisible();
  await page.getByLabel('First name').fill('Ida');
  await page.getByLabel('Last name').fill('Invited');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: /finish|continue|set up|create|get started/i }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /account menu|Ida Invited/i })).toBeVisible();
});

test('maintenance on sends every page to /maintenance; off brings them back', async ({ page }) => {
  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
  try {
    cli(['maintenance', 'on']);
    await expect(async () => {
      await page.goto('/privacy');
      await expect(page).toHaveURL(/\/maintenance$/, { timeout: 3000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Down for maintenance' })).toBeVisible();
  } finally {
    cli(['maintenance', 'off']);
  }
  await expect(async () => {
    await page.goto('/privacy');
    await expect(page).toHaveURL(/\/privacy$/, { timeout: 3000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
});

test('a new build published on the host reloads the page at the next navigation', async ({ page }) => {
  const root = staticRoot();
  const latestFile = path.join(root, 'builds', 'latest.json');
  const before = fs.readFileSync(latestFile, 'utf8');
  const running = JSON.parse(before) as { id: string };
  const metaFile = path.join(root, 'builds', 'meta', `${running.id}.json`);
  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/builds/latest.json')))).toBe(true);
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'still here'));
  const marked = () => page.evaluate(() => (window as unknown as { marker?: string }).marker === 'still here');

  // Without a new build, navigation stays in the page.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Contact us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  expect(await marked()).toBe(true);

  // Publish a "new build" on the host: a new pointer and its meta, as a deploy would.
  const next = { id: `${running.id.slice(0, 8)}static1`, timestamp: Date.now() };
  fs.copyFileSync(metaFile, path.join(root, 'builds', 'meta', `${next.id}.json`));
  fs.writeFileSync(latestFile, JSON.stringify(next));
  try {
    // The watcher checks again when a chunk fails to load (and hourly).
    await page.evaluate(() => window.dispatchEvent(new Event('chunk-error')));
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/builds/latest.json')).length))
      .toBeGreaterThan(1);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect.poll(marked).toBe(false);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  } finally {
    fs.writeFileSync(latestFile, before);
  }
});

/** JSON calls as an admin, failing loudly on an unexpected status. */
function adminApi(request: APIRequestContext, origin: string) {
  return async <T>(method: 'POST' | 'PATCH', url: string, data: unknown): Promise<T> => {
    const res = await request.fetch(url, { method, headers: { Origin: origin, 'Content-Type': 'application/json' }, data });
    if (![200, 201].includes(res.status())) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

test('a participant takes a survey through the static host', async ({ page, playwright, baseURL }) => {
  const origin = baseURL ?? '';
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const member = await createAccount('participant', 'Pat', 'Member');
  const adminRequest = await playwright.request.newContext({ baseURL: origin });
  await signInThroughApi(adminRequest, origin, admin);
  const call = adminApi(adminRequest, origin);
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Static ${tag}`, client: 'Acme Foods', status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `Tea ${tag}`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `Tea ${tag}`,
      pages: [{ id: 'tea', title: 'Your tea', elements: [{ id: 'drink', type: 'short_text', title: 'What do you drink first?', required: true }] }],
    },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const title = `Morning drinks ${tag}`;
  const survey = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/surveys`, {
    title,
    description: 'Tell us how your day starts.',
    kind: 'native',
    formId: form.id,
    points: 30,
    estimatedMinutes: 2,
    closesAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  await adminRequest.dispose();

  await signIn(page, origin, member);
  await page.goto('/');
  await page.getByRole('article', { name: title }).getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/surveys/${survey.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.getByRole('textbox', { name: /What do you drink first/ }).fill('Green tea');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  // A full load of the survey's own address (the shell nginx serves for /surveys/{id}) keeps the answer.
  await page.reload();
  await expect(page.getByRole('textbox', { name: /What do you drink first/ })).toHaveValue('Green tea');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you — your answers are in' })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('region', { name: /^Done, 1 item$/ }).getByRole('article', { name: title })).toBeVisible();
  // What the member sees from the static host, on a phone and a desktop.
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/static-host-home-${size.width}.png`, fullPage: true });
  }
});
