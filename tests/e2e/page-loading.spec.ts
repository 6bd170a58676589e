/**
 * How pages load: a page the server has decided shows before the JavaScript and the
 * current-user call; a new participant's empty home shows before the JavaScript too; every
 * request a page starts ends; a mission asks for itself from the <head>; the sign-in card does not
 * move while its page arrives in parts, nor its footer when the cookie banner's room comes; the
 * account pages call GET /api/account once and do not move as they load.
 * (Lighthouse's figures — LCP, performance — are in `npm run bench`, not here.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from '@playwright/test';
import { EARLY_MAX_AGE_MS } from '../../src/platform/early.ts';
import { createAccount, signedInAdmin, signIn, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { liveMission } from './page-helpers.ts';

const ACCOUNT_PAGES = ['/account', '/account/edit', '/account/edit/profile', '/account/edit/address', '/account/edit/preferences'] as const;

/** Sums the page's layout shifts (those not caused by input), as CLS counts them. */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const store = window as unknown as { __shifts: number };
    store.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) store.__shifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: number }).__shifts);

let account: Account;
test.beforeAll(async () => {
  account = await createAccount('participant', 'Lena', 'Moreau');
});

test('a signed-in page the server served shows its content before GET /api/auth answers', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', account);
  let answer = (): void => {};
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route('**/api/auth', async (route) => {
    await held;
    await route.fallback();
  });
  await page.goto('/account/edit', { waitUntil: 'commit' });
  // The heading and the settings links are part of the page: visible while the call is held.
  await expect(page.getByRole('heading', { level: 1, name: 'Edit your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Profile/ })).toBeVisible();
  answer();
  await expect(page.getByLabel('New email address')).toBeEditable();
});

test('a guest page shows at once; a signed-in visitor is still sent away from it by the server', async ({ page, baseURL }) => {
  await page.route('**/api/auth', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.fallback();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 2000 });
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  await signIn(page, baseURL ?? '', account);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

/**
 * A proxy to the app that sends one page's HTML in two parts (the first ending after
 * `splitAfter`; the rest when the test calls `release`), and everything else as it comes: the
 * browser paints the first part alone, as a slow phone paints a page still arriving.
 */
async function startSplittingProxy(
  target: string,
  pathname: string,
  splitAfter: string,
): Promise<{ url: string; release: () => void; close: () => Promise<void> }> {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', target);
    const upstream = http.request(url, { method: request.method, headers: { ...request.headers, host: url.host, 'accept-encoding': 'identity' } }, (answer) => {
      if (url.pathname !== pathname) {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const html = Buffer.concat(chunks).toString('utf8');
        // Not found: the whole page in the first part (the test's wait for a hidden form then fails).
        const found = html.indexOf(splitAfter);
        const cut = found < 0 ? html.length : found + splitAfter.length;
        const { 'content-length': _length, ...headers } = answer.headers;
        response.writeHead(answer.statusCode ?? 502, headers);
        response.write(html.slice(0, cut));
        void released.then(() => response.end(html.slice(cut)));
      });
    });
    // The page closed, or the app refused: the browser's request ends too, nothing is thrown here.
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      release();
      server.close(() => resolve());
      // The page's open requests (the build watcher's, a keep-alive connection) would hold it open.
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}`, release, close };
}

test('the sign-in card keeps still while its page arrives in parts', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await watchLayoutShifts(page);
  // The first part ends with the card's heading; the form below it comes once the heading is
  // painted. A card centred on the screen moved up by half of what came (CLS 0.12–0.17 in
  // Lighthouse on /login).
  const proxy = await startSplittingProxy(baseURL ?? '', '/login', '</h1>');
  try {
    await page.goto(`${proxy.url}/login`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeHidden();
    // Two frames, so the first part's layout is what the shifts are measured from.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    proxy.release();
    await expect(page.getByLabel('Email')).toBeVisible();
    await page.waitForLoadState('load');
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  } finally {
    await proxy.close();
  }
});

test('the footer keeps still when the cookie banner’s room comes after it was painted', async ({ page }) => {
  // Chromium does not always measure the banner before it paints the footer: the room then comes
  // a frame later. A short page's footer sits at the bottom of the screen; the room is added below
  // it (global.css), so it does not move up (0.007 of layout shift on /login in most Lighthouse runs).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  const banner = page.locator('[data-cookie-banner]');
  await expect(banner).toBeVisible();
  const footer = page.getByRole('contentinfo');
  const bannerHeight = (await banner.boundingBox())?.height ?? 0;
  expect(bannerHeight).toBeGreaterThan(0);
  // The frame before the room, then the room (the banner's height and 16 px, as the scripts make it).
  await page.evaluate(() => document.body.style.removeProperty('padding-bottom'));
  const before = await footer.boundingBox();
  await page.evaluate(
    (room) => {
      document.body.style.paddingBottom = `${room}px`;
    },
    Math.round(bannerHeight) + 16,
  );
  const after = await footer.boundingBox();
  expect(before && after && after.y - before.y).toBe(0);
  // The room is below the footer: scrolled to the end, the footer is above the banner.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(async () => {
      const [shown, end] = await Promise.all([banner.boundingBox(), footer.boundingBox()]);
      return shown && end ? shown.y - (end.y + end.height) : Number.NaN;
    })
    .toBeGreaterThanOrEqual(0);
});

/** The requests of the page that have not ended (answered and read, failed or cancelled). */
function openRequests(page: Page): () => string[] {
  const open = new Set<Request>();
  page.on('request', (request) => open.add(request));
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return () => [...open].filter((request) => request.frame().page() === page).map((request) => new URL(request.url()).pathname);
}

test('every early answer of the <head> is read: pages whose JavaScript comes late and the not-found page reach network idle', async ({
  page,
  baseURL,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 404/);
  // The page's JavaScript held until the answers its <head> asked for are past their freshness
  // (a slow phone): the shell asks the API again, and the early answers are read all the same.
  await page.clock.install();
  const lateJavaScript = async (path: string, ready: () => Promise<void>) => {
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/_astro\/BaseLayout\.astro_astro_type_script[^/]*\.js$/, async (route) => {
      await held;
      await route.fallback();
    });
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/auth');
    await page.goto(path, { waitUntil: 'commit' });
    await asked;
    await page.clock.fastForward(EARLY_MAX_AGE_MS + 1000);
    release();
    await ready();
    await page.waitForLoadState('networkidle');
    await page.unrouteAll({ behavior: 'wait' });
  };
  await lateJavaScript('/login', () => expect(page.getByLabel('Email')).toBeVisible());
  await signIn(page, baseURL ?? '', account);
  await lateJavaScript('/account', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  // A malformed id: the not-found page, where the guard needs no maintenance flag.
  await page.goto('/surveys/not-an-id', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
});

test('a mission asks for itself from the <head>, before its JavaScript has come, and once', async ({ page, baseURL, playwright }) => {
  const origin = baseURL ?? '';
  const { adminRequest } = await signedInAdmin(playwright.request, origin);
  // A member of their own: the file's participant stays new (no project) for the empty home below.
  const member = await createAccount('participant', 'Mara', 'Field');
  const { missionId, title } = await liveMission(adminRequest, origin, member, [{ id: 'note', type: 'short_text', title: 'What stood out?' }]);
  await adminRequest.dispose();
  await signIn(page, origin, member);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/api/missions/${missionId}`) asked.push(request.url());
  });
  let release = (): void => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/BaseLayout\.astro_astro_type_script[^/]*\.js$/, async (route) => {
    await held;
    await route.fallback();
  });
  await page.goto(`/missions/${missionId}`, { waitUntil: 'commit' });
  await expect.poll(() => asked.length).toBe(1);
  release();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asked).toHaveLength(1);
});

test('a client-side navigation asks only for what the new page reads: every request ends', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', account);
  await page.goto('/account');
  await page.waitForLoadState('networkidle');
  const open = openRequests(page);
  await page.getByRole('link', { name: 'Fieldwork' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect.poll(open).toEqual([]);
});

test('a new participant’s home shows its empty state before its JavaScript runs, where React then renders it', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', account);
  await page.setViewportSize({ width: 390, height: 844 });
  await watchLayoutShifts(page);
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/[^/]+\.js$/, async (route) => {
    await held;
    await route.fallback();
  });
  await page.goto('/', { waitUntil: 'commit' });
  const empty = page.getByRole('heading', { level: 2, name: 'Nothing to do yet' });
  await expect(empty).toBeVisible();
  const early = await empty.boundingBox();
  release();
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  await expect(empty).toBeVisible();
  expect(await empty.boundingBox()).toEqual(early);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
  await page.unrouteAll({ behavior: 'wait' });
});

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`account pages call GET /api/account once and keep still while loading (${viewport.name})`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(page, baseURL ?? '', account);
    await watchLayoutShifts(page);
    for (const path of ACCOUNT_PAGES) {
      const calls: string[] = [];
      const onRequest = (request: { url(): string; method(): string }) => {
        if (new URL(request.url()).pathname === '/api/account' && request.method() === 'GET') calls.push(request.url());
      };
      page.on('request', onRequest);
      // Slow the account call, so the loading state is on screen for a while.
      await page.route('**/api/account', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await route.fallback();
      });
      await page.goto(path);
      await expect(page.locator('main [aria-busy="true"], main [role="status"]').first()).toBeHidden({ timeout: 10_000 });
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(calls, `GET /api/account calls on ${path}`).toHaveLength(1);
      expect(await layoutShift(page), `layout shift on ${path}`).toBeLessThanOrEqual(0.02);
      page.off('request', onRequest);
      await page.unrouteAll({ behavior: 'wait' });
    }
  });
}
