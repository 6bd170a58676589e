import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { pressBeforeHydration, seriousViolations } from './page-helpers.ts';

const PAGES = [
  { path: '/login', ready: 'Sign in' },
  { path: '/register', ready: 'Create your account' },
  { path: '/forgot-password', ready: 'Forgot password' },
  { path: '/terms', ready: 'Terms of use' },
  { path: '/privacy', ready: 'Privacy policy' },
  { path: '/contact', ready: 'Contact us' },
  { path: '/data-deletion', ready: 'Data deletion' },
] as const;

test.describe('no serious or critical axe violations', () => {
  for (const { path, ready } of PAGES) {
    test(path, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: ready })).toBeVisible();
      // Islands hydrated: the page's form (if any) is interactive.
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    });
  }

  test('/contact with its validation messages shown', async ({ page }) => {
    await page.goto('/contact');
    await pressBeforeHydration(page.getByRole('button', { name: 'Send message' }));
    await expect(page.getByText('Required').first()).toBeVisible();
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  });

  test('/data-deletion with an invalid link', async ({ page }) => {
    await page.goto('/data-deletion?token=Tk3n-abcdefghijklmnopqrstuvwxyz0123456789AB');
    await expect(page.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeVisible();
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  });

  test('an onboarding page with an invalid token', async ({ page }) => {
    await page.goto('/onboarding/Tk3n-abcdefghijklmnopqrstuvwxyz0123456789AB');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Fieldwork' })).toBeVisible();
    await expect(page.getByText(/invalid|expired/i).first()).toBeVisible();
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  });

  test('/account/security for a participant', async ({ page, baseURL }) => {
    await signIn(page, baseURL ?? '', await createAccount('participant'));
    await page.goto('/account/security');
    await expect(page.getByRole('heading', { level: 2, name: 'Authenticator app' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  });

  test('/admin/tools for an admin', async ({ page, baseURL }) => {
    await signIn(page, baseURL ?? '', await createAccount('admin'));
    await page.goto('/admin/tools');
    await expect(page.getByRole('heading', { level: 2, name: 'Site switches' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  });
});
