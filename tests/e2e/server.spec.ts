import { expect, test } from '@playwright/test';

test('GET /api/health reports the database', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok', db: 'ok' });
});

test('an unknown /api path is a JSON 404', async ({ request }) => {
  const res = await request.get('/api/no-such-thing');
  expect(res.status()).toBe(404);
  expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
});

test('pages are revalidated, hashed assets cached for a year, with a strict CSP', async ({ request, page }) => {
  const html = await request.get('/login');
  expect(html.headers()['cache-control']).toBe('no-cache');
  const csp = html.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(html.headers()['x-content-type-options']).toBe('nosniff');

  const assets: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/_astro/')) assets.push(response.url());
  });
  await page.goto('/login');
  expect(assets.length).toBeGreaterThan(0);
  const asset = await request.get(assets[0] as string);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

  const latest = await request.get('/builds/latest.json');
  expect(latest.headers()['cache-control']).toBe('no-store');
  const { id } = (await latest.json()) as { id: string };
  const meta = await request.get(`/builds/meta/${id}.json`);
  expect(meta.status()).toBe(200);
  expect(meta.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('pages holding a link token send no referrer', async ({ request }) => {
  const res = await request.get('/reset-password/Tk3n-abcdefghijklmnopqrstuvwxyz0123456789AB');
  expect(res.status()).toBe(200);
  expect(res.headers()['referrer-policy']).toBe('no-referrer');
});

test('the build writes a rewrite file so a static host serves the same URLs', async ({ request }) => {
  // `_redirects` is for static hosts; the Node server keeps it private.
  const res = await request.get('/_redirects');
  expect(res.status()).toBe(404);
});
