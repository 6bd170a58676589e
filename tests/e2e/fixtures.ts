import { test as base, expect, type Page } from '@playwright/test';

export { expect };

const allowedErrors = new WeakMap<Page, RegExp[]>();

/**
 * `page` fails its test on any console error or uncaught page error that the test did not
 * announce first with `allowConsoleError(pattern)`, and on any CSP violation a document reports
 * (`securitypolicyviolation`), caught or not.
 */
export const test = base.extend<{ allowConsoleError: (pattern: RegExp) => void }>({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    allowedErrors.set(page, []);
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs every 4xx answer to fetch() itself. From the API these are answers the
      // app handles (401 from GET /api/auth without a session, 400 field errors, 404 for a dead
      // link, 429), not errors; anything else still fails the test.
      const from = message.location().url;
      if (/status of 4\d\d/.test(message.text()) && from && new URL(from).pathname.startsWith('/api/')) return;
      errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    // CSP violations that a page catches (zod's eval probe did) print nothing to the console:
    // every document reports them here.
    await page.exposeFunction('__fwCspViolation', (text: string) => errors.push(`CSP violation: ${text}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __fwCspViolation?: (text: string) => void }).__fwCspViolation;
        report?.(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile || location.pathname}:${event.lineNumber}`);
      });
    });
    await use(page);
    const allowed = allowedErrors.get(page) ?? [];
    const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
    expect(unexpected, 'unexpected console errors').toEqual([]);
  },
  allowConsoleError: async ({ page }, use) => {
    await use((pattern) => allowedErrors.get(page)?.push(pattern));
  },
});
