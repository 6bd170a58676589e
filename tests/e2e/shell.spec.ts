/**
 * The application shell as a visitor meets it: the cookie banner, analytics gated by
 * consent, maintenance, the banner flag, client error reports, the build watcher, toasts and the
 * colour mode.
 */
import type { Page, Route } from '@playwright/test';
import { cli } from './accounts.ts';
import { expect, test } from './fixtures.ts';

const CONSENT_KEY = 'fieldwork-cookie-consent';
const GA_ID = 'G-E2ETEST123';

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies on Fieldwork' });
const footer = (page: Page) => page.getByRole('contentinfo');

async function storedConsent(page: Page): Promise<unknown> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown, CONSENT_KEY);
}

/** Marks the window; a full page load forgets it, a client-side navigation keeps it. */
async function mark(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { shellMarker?: string }).shellMarker = 'kept';
  });
}
const marked = (page: Page) => page.evaluate(() => (window as unknown as { shellMarker?: string }).shellMarker === 'kept');

test.describe('cookie banner (docs/product.md §3, §4)', () => {
  test('stays open until a choice is saved: Escape and outside clicks do not close it', async ({ page }) => {
    await page.goto('/terms');
    await expect(banner(page)).toBeVisible();
    // Nothing saved: the settings panel with its four switches is open, necessary locked on.
    await expect(banner(page).getByRole('switch')).toHaveCount(4);
    await expect(banner(page).getByRole('switch', { name: 'Necessary' })).toBeChecked();
    await expect(banner(page).getByRole('switch', { name: 'Necessary' })).toBeDisabled();
    for (const name of ['Preferences', 'Statistics', 'Marketing']) {
      await expect(banner(page).getByRole('switch', { name })).not.toBeChecked();
    }
    const privacy = banner(page).getByRole('link', { name: /privacy policy/i });
    await expect(privacy).toHaveAttribute('href', '/privacy');
    await expect(privacy).toHaveAttribute('target', '_blank');
    await expect(privacy).toHaveAttribute('rel', /noopener/);

    await banner(page).getByRole('switch', { name: 'Statistics' }).focus();
    await page.keyboard.press('Escape');
    await expect(banner(page)).toBeVisible();
    await page.getByRole('heading', { level: 1 }).click();
    await page.mouse.click(900, 150);
    await expect(banner(page)).toBeVisible();
    expect(await storedConsent(page)).toBeNull();
  });

  const choices = [
    { button: 'Deny', expected: { necessary: true, preferences: false, statistics: false, marketing: false } },
    { button: 'Allow Selection', expected: { necessary: true, preferences: true, statistics: false, marketing: false } },
    { button: 'Allow All', expected: { necessary: true, preferences: true, statistics: true, marketing: true } },
  ] as const;

  for (const { button, expected } of choices) {
    test(`${button} is saved and persists across a reload`, async ({ page }) => {
      await page.goto('/privacy');
      if (button === 'Allow Selection') {
        // The switches work once the banner's island has loaded: it loads when the visitor reaches for it.
        await banner(page).hover();
        await expect(banner(page)).toHaveAttribute('data-hydrated', '');
        await banner(page).getByRole('switch', { name: 'Preferences' }).click();
      }
      await banner(page).getByRole('button', { name: button, exact: true }).click();
      await expect(banner(page)).toBeHidden();
      expect(await storedConsent(page)).toEqual(expected);

      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(banner(page)).toBeHidden();
      expect(await storedConsent(page)).toEqual(expected);

      // "Cookie settings" in the footer reopens it with the saved choice.
      await footer(page).getByRole('link', { name: 'Cookie settings' }).click();
      await expect(banner(page)).toBeVisible();
      await expect(page).toHaveURL(/\/privacy$/);
      for (const name of ['Preferences', 'Statistics', 'Marketing'] as const) {
        const on = expected[name.toLowerCase() as 'preferences' | 'statistics' | 'marketing'];
        await expect(banner(page).getByRole('switch', { name })).toHaveAttribute('aria-checked', String(on));
      }
    });
  }

  test('is a region that Tab enters and leaves in document order: every banner control and the sign-in form are reached, no stop is invisible', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(banner(page)).toBeVisible();
    const stops: { name: string; inBanner: boolean; visible: boolean }[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const rect = el.getBoundingClientRect();
        const labelled = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
        return {
          name: (el.getAttribute('aria-label') ?? labelled ?? el.textContent ?? '').replace(/\s+/g, ' ').trim(),
          inBanner: el.closest('[data-cookie-banner]') !== null,
          visible: rect.width >= 1 && rect.height >= 1 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }),
        };
      });
      if (!stop) continue;
      stops.push(stop);
      if (stop.name === 'Email') break;
    }
    expect(stops.filter((stop) => !stop.visible)).toEqual([]);
    const names = stops.map((stop) => stop.name);
    for (const control of [
      'privacy policy (opens in a new tab)',
      'Customise',
      'Preferences',
      'Statistics',
      'Marketing',
      'Deny',
      'Allow Selection',
      'Allow All',
    ]) {
      expect(names).toContain(control);
    }
    // The banner's controls in one run, then the page: Tab left the banner and reached the form.
    const inBanner = stops.map((stop) => stop.inBanner);
    expect(inBanner.lastIndexOf(true) - inBanner.indexOf(true) + 1).toBe(inBanner.filter(Boolean).length);
    expect(names.at(-1)).toBe('Email');
    expect(stops.at(-1)?.inBanner).toBe(false);
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('on a phone it is compact: the switches wait behind Customise and the sign-in button stays clear', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/login');
    await expect(banner(page)).toBeVisible();
    const box = await banner(page).boundingBox();
    expect(box?.height ?? 844).toBeLessThan(844 * 0.25);
    await expect(banner(page).getByRole('switch')).toHaveCount(0);
    // "Allow Selection" only with the choices it saves.
    await expect(banner(page).getByRole('button', { name: 'Allow Selection' })).toHaveCount(0);
    await expect(banner(page).getByRole('button', { name: 'Deny' })).toBeVisible();
    const signIn = await page.getByRole('button', { name: 'Sign in', exact: true }).boundingBox();
    expect((signIn?.y ?? 0) + (signIn?.height ?? 0)).toBeLessThanOrEqual(box?.y ?? 0);

    await banner(page).getByRole('button', { name: 'Customise' }).click();
    await expect(banner(page).getByRole('button', { name: 'Customise' })).toHaveAttribute('aria-expanded', 'true');
    await expect(banner(page).getByRole('switch')).toHaveCount(4);
    await expect(banner(page).getByRole('button', { name: 'Allow Selection' })).toBeVisible();
    await banner(page).getByRole('switch', { name: 'Statistics' }).click();
    await banner(page).getByRole('button', { name: 'Allow Selection' }).click();
    await expect(banner(page)).toBeHidden();
    expect(await storedConsent(page)).toEqual({ necessary: true, preferences: false, statistics: true, marketing: false });
  });

  test('Deny deletes a _ga cookie left by someone else, even with no analytics configured', async ({ page, baseURL }) => {
    const host = new URL(baseURL ?? '').hostname;
    await page.context().addCookies([
      { name: '_ga', value: 'GA1.1.111.222', domain: host, path: '/' },
      { name: '_ga_OLDSITE1', value: 'GS1.1.1', domain: host, path: '/' },
    ]);
    await page.goto('/terms');
    await banner(page).getByRole('button', { name: 'Deny' }).click();
    await expect(banner(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('_ga')).map((c) => c.name)).toEqual([]);
  });

  test('is shown and answered before its JavaScript has loaded, and the choice is confirmed once it has', async ({ page }) => {
    // Hold every script until the visitor has answered.
    let releaseScripts = (): void => {};
    const held = new Promise<void>((resolve) => {
      releaseScripts = resolve;
    });
    await page.route('**/_astro/*.js', async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto('/terms', { waitUntil: 'commit' });
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).not.toHaveAttribute('data-hydrated', '');
    await banner(page).getByRole('button', { name: 'Allow All' }).click();
    await expect(banner(page)).toBeHidden();
    expect(await storedConsent(page)).toEqual({ necessary: true, preferences: true, statistics: true, marketing: true });
    releaseScripts();
    // Once loaded, the shell knows the choice and confirms it as the banner would (an early tap is
    // not left without an answer); the banner stays closed, and stays closed after a reload.
    await expect(page.getByRole('status').filter({ hasText: 'Cookie choices saved' })).toBeVisible();
    await expect(page.locator('[data-cookie-banner]')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner(page)).toBeHidden();
  });

  test('a corrupt saved value counts as no choice', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, '{broken'), CONSENT_KEY);
    await page.goto('/terms');
    await expect(banner(page)).toBeVisible();
  });
});

test.describe('analytics (docs/product.md §4)', () => {
  // The e2e build has no PUBLIC_GA_ID: these tests serve the pages as a build with an id would
  // (the measurement id meta written into the page) and stand in for Google's host.
  test.use({ bypassCSP: true });

  async function withAnalytics(page: Page): Promise<{ requests: string[] }> {
    const requests: string[] = [];
    await page.route('https://www.googletagmanager.com/**', (route) => {
      requests.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: '/* gtag stand-in */' });
    });
    await page.route(
      (url) => url.pathname === '/terms' || url.pathname === '/privacy',
      async (route: Route) => {
        if (route.request().resourceType() !== 'document') return route.fallback();
        const response = await route.fetch();
        const html = (await response.text()).replace('</head>', `<meta name="fieldwork-ga-id" content="${GA_ID}"></head>`);
        return route.fulfill({ response, body: html });
      },
    );
    return { requests };
  }

  test('not one request to the analytics host before consent, gtag.js once after Allow All', async ({ page }) => {
    const { requests } = await withAnalytics(page);
    await page.goto('/terms');
    await expect(banner(page)).toBeVisible();
    await page.waitForTimeout(1000);
    expect(requests).toEqual([]);

    await banner(page).getByRole('button', { name: 'Allow All' }).click();
    await expect.poll(() => requests.length).toBe(1);
    expect(requests[0]).toBe(`https://www.googletagmanager.com/gtag/js?id=${GA_ID}`);
    expect(await page.evaluate((id) => (window as unknown as Record<string, unknown>)[`ga-disable-${id}`], GA_ID)).toBe(false);

    // A client-side navigation sends a page view, without loading the script again.
    await footer(page).getByRole('link', { name: 'Privacy policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect
      .poll(() =>
        page.evaluate(
          () => ((window as unknown as { dataLayer?: IArguments[] }).dataLayer ?? []).filter((args) => args[0] === 'event' && args[1] === 'page_view').length,
        ),
      )
      .toBe(2);
    expect(requests).toHaveLength(1);
  });

  test('Deny disables analytics and deletes the _ga cookies', async ({ page, baseURL }) => {
    await withAnalytics(page);
    await page.goto('/terms');
    await banner(page).getByRole('button', { name: 'Allow All' }).click();
    const host = new URL(baseURL ?? '').hostname;
    await page.context().addCookies([
      { name: '_ga', value: 'GA1.1.123.456', domain: host, path: '/' },
      { name: `_ga_${GA_ID.slice(2)}`, value: 'GS1.1.1', domain: host, path: '/' },
    ]);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect((await page.context().cookies()).map((c) => c.name)).toContain('_ga');

    await footer(page).getByRole('link', { name: 'Cookie settings' }).click();
    await banner(page).getByRole('button', { name: 'Deny' }).click();
    await expect.poll(async () => (await page.context().cookies()).filter((c) => c.name.startsWith('_ga')).map((c) => c.name)).toEqual([]);
    expect(await page.evaluate((id) => (window as unknown as Record<string, unknown>)[`ga-disable-${id}`], GA_ID)).toBe(true);
  });
});

test.describe('flags switched from the CLI while the server runs', () => {
  test.describe.configure({ mode: 'serial' });

  test('maintenance on sends every page to /maintenance; off brings them back', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
    try {
      cli(['maintenance', 'on']);
      // The open page goes there at its next navigation (the flag is read for every navigation).
      await expect(async () => {
        await footer(page).getByRole('link', { name: 'Terms of use' }).click();
        await expect(page).toHaveURL(/\/maintenance$/, { timeout: 2000 });
      }).toPass({ timeout: 10_000 });
      await expect(page.getByRole('heading', { level: 1, name: 'Down for maintenance' })).toBeVisible();
      await page.goto('/contact');
      await expect(page).toHaveURL(/\/maintenance$/);
    } finally {
      cli(['maintenance', 'off']);
    }
    await expect(async () => {
      await page.goto('/terms');
      await expect(page).toHaveURL(/\/terms$/, { timeout: 2000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
  });

  test('the banner flag shows a site-wide banner and hides it again', async ({ page }) => {
    const text = 'Site visit on Friday: uploads pause at noon';
    const announcement = page.getByRole('status', { name: 'Site announcement' });
    try {
      cli(['flag:set', 'banner', JSON.stringify(text)]);
      await expect(async () => {
        await page.goto('/terms');
        await expect(announcement).toHaveText(text, { timeout: 2000 });
      }).toPass({ timeout: 10_000 });
    } finally {
      cli(['flag:unset', 'banner']);
    }
    await expect(async () => {
      await page.reload();
      await expect(announcement).toHaveText('', { timeout: 2000 });
    }).toPass({ timeout: 10_000 });
  });
});

test('an error thrown twice in a page reaches /api/reports once; a page_load only with statistics consent', async ({ page, allowConsoleError }) => {
  allowConsoleError(/shell-e2e-boom/);
  const reports: { url: string; data: { type: string; stacktrace?: string | null } }[] = [];
  await page.route('**/api/reports', async (route) => {
    const body = route.request().postDataJSON() as { reports: typeof reports };
    reports.push(...body.reports);
    await route.fulfill({ status: 204 });
  });
  // No choice saved: errors are reported, the page load is not (issue 28 §13).
  await page.goto('/terms');
  await expect(banner(page)).toBeVisible();
  await page.evaluate(() => {
    for (let i = 0; i < 2; i++) {
      setTimeout(() => {
        throw new Error('shell-e2e-boom');
      }, i * 50);
    }
  });
  await expect.poll(() => reports.filter((r) => r.data.type === 'uncaught').length).toBe(1);
  await page.waitForTimeout(2500);
  const errors = reports.filter((r) => r.data.type === 'uncaught');
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ url: '/terms', data: { type: 'uncaught', stacktrace: expect.stringContaining('shell-e2e-boom') } });
  expect(reports.filter((r) => r.data.type === 'action')).toEqual([]);
  // Statistics allowed on this page: its page load is reported, once.
  await banner(page).getByRole('button', { name: 'Allow All' }).click();
  await expect.poll(() => reports.filter((r) => r.data.type === 'action').length).toBe(1);
});

test('a new build reloads the page at the next navigation, once per path within 10 s', async ({ page }) => {
  test.setTimeout(60_000);
  let served = 0;
  await page.route('**/builds/latest.json*', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ id: `e2e-${++served}`, timestamp: Date.now() }) }),
  );
  await page.route('**/builds/meta/*.json', (route) => {
    const id = new URL(route.request().url()).pathname.split('/').pop()?.replace('.json', '') ?? '';
    return route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ id, timestamp: 1, matcher: { static: {}, wildcard: {}, dynamic: {} }, prerendered: [] }),
    });
  });
  // The page's clock stands still (its timers run): "within 10 s" must not depend on how fast a busy machine loads the pages below.
  await page.clock.setFixedTime(Date.now());
  const newBuildOut = async () => {
    const before = served;
    // A chunk that fails to load raises chunk-error, which checks latest.json again. Raised until heard: after a
    // full load the page's <head> asks for latest.json before the watcher that listens for it has started.
    await expect
      .poll(async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('chunk-error')));
        return served;
      })
      .toBeGreaterThan(before);
  };

  await page.goto('/terms');
  await expect.poll(() => served).toBe(1);
  await mark(page);
  // Without a new build, navigation stays client-side.
  await footer(page).getByRole('link', { name: 'Contact us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  expect(await marked(page)).toBe(true);

  await newBuildOut();
  let beforeLoad = served;
  await footer(page).getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect.poll(() => marked(page)).toBe(false); // a full page load
  // The reloaded page learns its running build first; only then is a newer one news.
  await expect.poll(() => served).toBeGreaterThan(beforeLoad);

  // Still outdated right away: /privacy was reloaded less than 10 s ago, so it is not reloaded again.
  await mark(page);
  await newBuildOut();
  beforeLoad = served;
  await footer(page).getByRole('link', { name: 'Terms of use' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect.poll(() => marked(page)).toBe(false); // /terms had not been reloaded yet
  await expect.poll(() => served).toBeGreaterThan(beforeLoad);
  await mark(page);
  await newBuildOut();
  await footer(page).getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
  expect(await marked(page)).toBe(true);
});

test('toasts answer F8 and Escape', async ({ page }) => {
  await page.goto('/terms');
  await banner(page).getByRole('button', { name: 'Deny' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Cookie choices saved' });
  await expect(toast).toBeVisible();
  const viewport = page.getByRole('region', { name: /Notification/ });
  await expect(viewport).toHaveAccessibleName('Notification (F8)');
  await page.keyboard.press('F8');
  await expect(viewport.getByRole('list')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toast).toBeHidden();
});

test('the colour mode is switched in the header and kept', async ({ page }) => {
  // The switch's code comes late, as on a busy phone: the press made before it hydrated opens the menu once it has.
  let releaseSwitch = (): void => {};
  const switchHeld = new Promise<void>((resolve) => (releaseSwitch = resolve));
  await page.route(/\/_astro\/ColorModeSwitch\.[^/]*\.js$/, async (route) => {
    await switchHeld;
    await route.continue();
  });
  await page.goto('/terms');
  await banner(page).getByRole('button', { name: 'Deny' }).click();
  await page.getByRole('button', { name: 'Colour mode' }).click();
  releaseSwitch();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await footer(page).getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.getByRole('button', { name: 'Colour mode' }).click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
});

test('a malformed id shows the not-found page with its path; an unknown URL says "Page not found" and the path', async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  await page.goto('/surveys/not-a-number');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found', exact: true })).toBeVisible();
  await expect(page.getByText('/surveys/not-a-number')).toBeVisible();
  const response = await page.goto('/nowhere/at-all');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found: /nowhere/at-all' })).toBeVisible();
});
