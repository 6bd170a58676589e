import { test as base, expect, type Page } from '@playwright/test';

export { expect };

const allowedErrors = new WeakMap<Page, RegExp[]>();

/**
 * `page` fails its test on any console error or uncaught page error that the test did not
 * announce first with `allowConsoleError(pattern)`. CSP violations show up here too.
 */
export const test = base.extend<{ allowConsoleError: (pattern: RegExp) => void }>({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    allowedErrors.set(page, []);
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    await use(page);
    const allowed = allowedErrors.get(page) ?? [];
    const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
    expect(unexpected, 'unexpected console errors').toEqual([]);
  },
  allowConsoleError: async ({ page }, use) => {
    await use((pattern) => allowedErrors.get(page)?.push(pattern));
  },
});
