/**
 * Missions offline (issue 33 §2; docs/decisions/038-field-capture.md "Missions offline"): the
 * participants' service worker. A member opens home and a mission online; offline, a reload still
 * shows both, with their content (the pages from the worker's precache, the API answers from the
 * member's own copies). A staff page offline is not served from any cache: the small offline page
 * (503) in its place. The worker's script is served with no-cache. Every other spec runs with
 * service workers blocked (playwright.config.ts); this one allows them.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createAccount, signedInAdmin, signIn, signInWithForm, signOutWithMenu, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { liveMission } from './page-helpers.ts';

test.use({ serviceWorkers: 'allow' });

const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });

test.beforeEach(async ({ page }) => {
  await page.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
});

/** A live project with the member in it and a live mission (a one-question form). */
async function setUp(request: APIRequestContext, baseURL: string, member: Account): Promise<{ missionId: number; missionTitle: string }> {
  const { missionId, title } = await liveMission(
    request,
    baseURL,
    member,
    [{ id: 'note', type: 'short_text', title: 'What is on the top shelf?', required: true }],
    {
      project: 'Offline',
      mission: 'Shop shelf',
      page: 'The shelf',
      instructions: 'Look at the **top shelf** of the shop.',
    },
  );
  return { missionId, missionTitle: title };
}

/** Waits until the service worker controls the page (its first install claims the open pages). */
async function controlled(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js\?lang=en$/);
}

test('a member’s home and mission open offline once opened online; a staff page offline is not served from a cache', async ({
  page,
  context,
  baseURL,
  playwright,
  allowConsoleError,
}) => {
  test.setTimeout(180_000);
  const origin = baseURL ?? '';
  const member = await createAccount('participant', 'Pat', 'Member');
  const { adminRequest } = await signedInAdmin(playwright.request, origin);
  const { missionId, missionTitle } = await setUp(adminRequest, origin, member);
  await adminRequest.dispose();

  // Online: home registers the worker; home and the mission are opened under it.
  await signIn(page, origin, member);
  await page.goto('/');
  await expect(page.getByRole('article', { name: missionTitle })).toBeVisible();
  await controlled(page);
  await page.goto(`/missions/${missionId}`);
  await expect(page.getByRole('heading', { level: 1, name: missionTitle })).toBeVisible();
  await expect(page.getByText('What is on the top shelf?')).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('article', { name: missionTitle })).toBeVisible();

  // Offline: what fails to load is the network's doing, and expected here.
  allowConsoleError(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch|FetchEvent|status of 503|network/i);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('article', { name: missionTitle })).toBeVisible();
  await page.goto(`/missions/${missionId}`);
  await expect(page.getByRole('heading', { level: 1, name: missionTitle })).toBeVisible();
  await expect(page.getByText('What is on the top shelf?')).toBeVisible();

  // A staff page is never kept: offline it is the offline page, with status 503.
  const admin503 = await page.goto('/admin');
  expect(admin503?.status()).toBe(503);
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Try again' })).toBeVisible();
  await context.setOffline(false);
});

test('the worker’s script is served with no-cache and a CSP that lets it fetch, for every language', async ({ request }) => {
  for (const language of ['en', 'de']) {
    const response = await request.get(`/sw.js?lang=${language}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('no-cache');
    expect(response.headers()['content-type']).toMatch(/javascript/);
    // Its own CSP lets it fetch from this origin (the API's `default-src 'none'` would stop every fetch).
    expect(response.headers()['content-security-policy']).toContain("default-src 'self'");
  }
});

test('after a real sign-out, the next person on the phone meets none of the previous person’s kept pages offline', async ({
  page,
  context,
  baseURL,
  playwright,
  allowConsoleError,
}) => {
  test.setTimeout(180_000);
  const origin = baseURL ?? '';
  const member = await createAccount('participant', 'Pia', 'Previous');
  const next = await createAccount('participant', 'Noa', 'Next');
  const { adminRequest } = await signedInAdmin(playwright.request, origin);
  const { missionId, missionTitle } = await setUp(adminRequest, origin, member);
  await adminRequest.dispose();

  // The first person opens home and the mission online, under the worker, then signs out.
  await signInWithForm(page, member);
  await expect(page.getByRole('article', { name: missionTitle })).toBeVisible();
  await controlled(page);
  await page.goto(`/missions/${missionId}`);
  await expect(page.getByRole('heading', { level: 1, name: missionTitle })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('article', { name: missionTitle })).toBeVisible();
  await signOutWithMenu(page, member);

  // The next person signs in (no projects yet), and the connection goes at once.
  await signInWithForm(page, next);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  allowConsoleError(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch|FetchEvent|status of 503|network/i);
  await context.setOffline(true);
  // Each page once its calls have been answered (by a kept copy) or have failed.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(missionTitle)).toHaveCount(0);
  await page.goto(`/missions/${missionId}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(missionTitle)).toHaveCount(0);
  await expect(page.getByText('What is on the top shelf?')).toHaveCount(0);
  await context.setOffline(false);
});

test('a new worker waits while a video is recorded, then takes over and reloads a page of an older build, once', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? '';
  const member = await createAccount('participant', 'Uma', 'Update');
  // The first worker's script differs from the server's by a line. The browser's later update checks
  // are not routed (Chromium): they get the server's script, a new worker.
  await context.route('**/sw.js?lang=*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\n// the e2e test's first worker\n` });
  });
  await signIn(page, origin, member);
  await page.goto('/');
  await controlled(page);
  const registration = () =>
    page.evaluate(async () => {
      const found = await navigator.serviceWorker.getRegistration();
      return { waiting: found?.waiting?.state ?? null, installing: found?.installing?.state ?? null };
    });
  // This page's life: a reload would lose it; a change of worker is counted.
  await page.evaluate(() => {
    const win = window as unknown as { e2eChanges: number; e2eRelease?: () => void };
    win.e2eChanges = 0;
    navigator.serviceWorker.addEventListener('controllerchange', () => (win.e2eChanges += 1));
    // A recording in progress holds its lock (as the video control does).
    void navigator.locks.request('fieldwork-recording', () => new Promise<void>((resolve) => (win.e2eRelease = resolve)));
  });
  const changes = () => page.evaluate(() => (window as unknown as { e2eChanges?: number }).e2eChanges ?? 'reloaded').catch(() => 'navigating');

  // A newer build is out: the build watcher hears of it (this page runs an older build).
  let served = 0;
  await context.route('**/builds/latest.json*', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ id: `e2e-newer-${++served}`, timestamp: Date.now() }) }),
  );
  await context.route('**/builds/meta/*.json', (route) => {
    const id = new URL(route.request().url()).pathname.split('/').pop()?.replace('.json', '') ?? '';
    return route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ id, timestamp: 1, matcher: { static: {}, wildcard: {}, dynamic: {} }, prerendered: [] }),
    });
  });
  await expect
    .poll(async () => {
      await page.evaluate(() => window.dispatchEvent(new Event('chunk-error')));
      return served;
    })
    .toBeGreaterThan(0);
  // Its worker installs and waits while the recording runs (the page looks again every 2 s).
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((found) => found?.update()));
  await expect.poll(registration, { timeout: 30_000 }).toEqual({ waiting: 'installed', installing: null });
  await page.waitForTimeout(5_000);
  expect(await registration()).toEqual({ waiting: 'installed', installing: null });
  expect(await changes()).toBe(0);

  // The recording ends: the new worker takes over, and the outdated page reloads.
  await page.evaluate(() => (window as unknown as { e2eRelease: () => void }).e2eRelease());
  await expect.poll(changes, { timeout: 30_000 }).toBe('reloaded');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await registration()).toEqual({ waiting: null, installing: null });
  // Once: the reloaded page stays (its build is still older than the newest, but its worker is the newest).
  await page.evaluate(() => ((window as unknown as { e2eStayed: boolean }).e2eStayed = true));
  await page.waitForTimeout(4_000);
  expect(await page.evaluate(() => (window as unknown as { e2eStayed?: boolean }).e2eStayed)).toBe(true);
});
