import { ROUTES, buildPath, type RouteDef, type RoutePattern } from '../../src/shared/routes.ts';
import type { Cookie } from '@playwright/test';
import { createAccount, sessionCookies, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { jsonApi, seriousViolations } from './page-helpers.ts';

const SAMPLE_TOKEN = 'Tk3n-abcdefghijklmnopqrstuvwxyz0123456789AB';

/** A concrete URL for a route: ids 7, 9, 11…, tokens a well-formed sample. */
function sampleUrl(route: RouteDef): { url: string; values: Record<string, string> } {
  const values: Record<string, string> = {};
  let next = 7;
  for (const [name, kind] of Object.entries(route.params ?? {})) {
    values[name] = kind === 'token' ? SAMPLE_TOKEN : String(next);
    next += 2;
  }
  return { url: buildPath(route.pattern as RoutePattern, values), values };
}

/** Routes a route rule sends elsewhere (astro.config.mjs; docs/product.md: no screen of their own) → where, and the title there. */
const REDIRECTED: Readonly<Partial<Record<string, { to: string; title: string }>>> = {
  '/account/mission-history': { to: '/account#mission-history', title: 'Your account' },
};

test.describe('every route of docs/product.md §2 answers at its exact URL', () => {
  let adminCookies: Cookie[] = [];
  test.beforeAll(async ({ browser, baseURL }) => {
    adminCookies = await sessionCookies(browser, baseURL ?? '', await createAccount('admin'));
  });

  for (const route of (ROUTES as readonly RouteDef[]).filter((r) => r.access !== 'maintenance')) {
    const { url } = sampleUrl(route);
    test(`${url} (${route.layout} layout, ${route.access})`, async ({ page }) => {
      // Guest pages are seen without a session; the others by an admin, who may see them all.
      if (route.access === 'auth' || route.access === 'admin') await page.context().addCookies(adminCookies);
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      const redirect = REDIRECTED[route.pattern];
      if (redirect) {
        // The server's 302 comes before any page; the browser lands on the target.
        expect((await response?.request().redirectedFrom()?.response())?.status()).toBe(302);
        await expect(page).toHaveURL((current) => `${current.pathname}${current.hash}` === redirect.to);
        await expect(page).toHaveTitle(`${redirect.title} · Fieldwork`);
        await expect(page.getByRole('heading', { level: 1, name: redirect.title })).toBeVisible();
        return;
      }
      // The route's layout and title (a screen may put what it shows in front: "Undo things · Form builder").
      const escaped = route.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // A made-up id may turn out not to exist: the screen then becomes the not-found page, named so in the tab.
      const madeUpId = route.params !== undefined && !Object.values(route.params).includes('token');
      await expect(page).toHaveTitle(new RegExp(`(^|· )(${escaped}${madeUpId ? '|Page Not Found' : ''}) · Fieldwork$`));
      // A built screen shows its heading: the route's title, the object's name, or the not-found page for an id that
      // does not exist (the sample ids are made up; what each screen shows is tested in its own spec).
      await expect(page.getByText('This screen is being built')).toHaveCount(0);
      if (!route.params || Object.values(route.params).includes('token')) {
        await expect(page.getByRole('heading', { level: 1, name: route.title })).toBeVisible();
      } else {
        await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
      }
      if (route.params && Object.values(route.params).includes('token')) await expect(page.getByText(SAMPLE_TOKEN)).toHaveCount(0);
      // Every screen, as it first shows, passes axe with its best-practice and experimental rules too
      // (moderate findings included): what each screen's own spec checks in its other states.
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    });
  }
});

test('an unknown URL shows the 404 page with status 404 and the path', async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
  // Home needs a session: a visitor without one is asked to sign in (plain /login, from /).
  await page.getByRole('link', { name: /home page/i }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('/maintenance goes home while maintenance is off', async ({ page }) => {
  await page.goto('/maintenance');
  await expect(page).toHaveURL(/\/login$/);
});

test('a malformed id is a 404, not the page', async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  const response = await page.goto('/admin/projects/seven/missions/9/edit');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
});

test('client-side navigation moves between pages without a full load', async ({ page }) => {
  await page.goto('/terms');
  await page.evaluate(() => {
    (window as unknown as { marker: string }).marker = 'still here';
  });
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still here');
});

test('route parameters come from the address, whatever the shell', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  await signIn(page, base, await createAccount('admin'));
  const call = jsonApi(page.request, base);
  const people = await call<{ items: { id: number; firstName: string; lastName: string }[] }>('GET', '/api/admin/users?sort=created&pageSize=2');
  const [first, second] = people.items;
  if (!first || !second) throw new Error('two people expected');
  // One prerendered shell serves every /admin/users/{userId}: the screen reads the id from the address.
  await page.goto(`/admin/users/${first.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${first.firstName} ${first.lastName}`.trim() })).toBeVisible();
  await page.goto(`/admin/users/${second.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${second.firstName} ${second.lastName}`.trim() })).toBeVisible();
  await page.goto('/admin/users/2147483000');
  await expect(page.getByRole('heading', { name: 'No such person' })).toBeVisible();
});
