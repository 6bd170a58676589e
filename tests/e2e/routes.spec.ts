import { ROUTES, buildPath, type RouteDef, type RoutePattern } from '../../src/shared/routes.ts';
import { expect, test } from './fixtures.ts';

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

test.describe('every route of SPEC.md §2 answers at its exact URL', () => {
  for (const route of ROUTES as readonly RouteDef[]) {
    const { url, values } = sampleUrl(route);
    test(`${url} (${route.layout} layout)`, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(`${route.title} · Fieldwork`);
      await expect(page.getByRole('heading', { level: 1, name: route.title })).toBeVisible();
      for (const [name, value] of Object.entries(values)) {
        const term = page.getByRole('term').filter({ hasText: name });
        await expect(term).toBeVisible();
        // Ids are shown; link tokens never are.
        const definition = page.getByRole('definition').filter({ hasText: route.params?.[name] === 'token' ? 'received' : value });
        await expect(definition).toBeVisible();
        if (route.params?.[name] === 'token') await expect(page.getByText(value)).toHaveCount(0);
      }
    });
  }
});

test('an unknown URL shows the 404 page with status 404 and the path', async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
  await page.getByRole('link', { name: /home page/i }).click();
  await expect(page).toHaveURL(/\/$/);
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

test('route parameters come from the address, whatever the shell', async ({ page }) => {
  await page.goto('/surveys/12');
  await expect(page.getByRole('definition').filter({ hasText: '12' })).toBeVisible();
  await page.goto('/surveys/34');
  await expect(page.getByRole('definition').filter({ hasText: '34' })).toBeVisible();
});
