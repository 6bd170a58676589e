import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { pressBeforeHydration, seriousViolations } from './page-helpers.ts';

// Every route as it first shows is checked by routes.spec.ts (axe with its best-practice rules too);
// here, screens in the states a first load does not show.
test.describe('no serious or critical axe violations', () => {
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
});
