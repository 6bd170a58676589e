/**
 * Missions offline (issue 33 §2; docs/decisions/038-field-capture.md "Missions offline"): the
 * participants' service worker. A member opens home and a mission online; offline, a reload still
 * shows both, with their content (the pages from the worker's precache, the API answers from the
 * member's own copies). A staff page offline is not served from any cache: the small offline page
 * (503) in its place. The worker's script is served with no-cache. Every other spec runs with
 * service workers blocked (playwright.config.ts); this one allows them.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';

test.use({ serviceWorkers: 'allow' });

const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });

test.beforeEach(async ({ page }) => {
  await page.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
});

/** A live project with the member in it and a live mission (a one-question form). */
async function setUp(request: APIRequestContext, baseURL: string, member: Account): Promise<{ missionId: number; missionTitle: string }> {
  const call = async <T>(method: 'POST' | 'PATCH', path: string, data: unknown): Promise<T> => {
    const res = await request.fetch(path, { method, headers: { Origin: baseURL, 'Content-Type': 'application/json' }, data });
    if (![200, 201].includes(res.status())) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Offline ${tag}`, client: 'Acme Foods', status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `Shelf ${tag}`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `Shelf ${tag}`,
      pages: [{ id: 'shelf', title: 'The shelf', elements: [{ id: 'note', type: 'short_text', title: 'What is on the top shelf?', required: true }] }],
    },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const missionTitle = `Shop shelf ${tag}`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title: missionTitle,
    instructions: 'Look at the **top shelf** of the shop.',
    formId: form.id,
    points: 40,
    closesAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { missionId: mission.id, missionTitle };
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
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const member = await createAccount('participant', 'Pat', 'Member');
  const adminRequest = await playwright.request.newContext({ baseURL: origin });
  await signInThroughApi(adminRequest, origin, admin);
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
