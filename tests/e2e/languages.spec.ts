/**
 * Languages (issue 31): the interface in English, German, Spanish and Arabic. A visitor switches to
 * German on /login from the footer and signs in there; the guard's redirects keep the prefix; a
 * participant whose account says Arabic finds every page in Arabic, right to left, on any device.
 * axe in German and Arabic; screenshots at 390×844 of the sign-in page in all four languages and
 * of the participant's account in Arabic, into /tmp/shots/.
 */
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS } from './page-helpers.ts';

test('a visitor switches to German on /login and signs in there; redirects keep the language', async ({ page, browser, baseURL }) => {
  const member = await createAccount('participant', 'Greta', 'Weber');
  await saveCookieChoice(page);
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/de\/login\/?$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The choice is remembered on this device: the English address opens in German.
  await page.goto('/terms');
  await expect(page).toHaveURL(/\/de\/terms\/?$/);

  await page.goto('/de/login');
  await page.getByLabel('E-Mail').fill(member.email);
  await page.getByLabel('Passwort', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page).toHaveURL(/\/de\/?$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  // Somewhere else, without a session: the guard's redirect keeps the prefix, and `r` the page.
  const elsewhere = await (await browser.newContext({ baseURL: baseURL ?? '' })).newPage();
  await saveCookieChoice(elsewhere);
  await elsewhere.goto('/de/account');
  await expect(elsewhere).toHaveURL(/\/de\/login\?r=\/de\/account$/);
  await expect(elsewhere.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
  await elsewhere.context().close();
});

test('the sign-in page in four languages, and an account whose language is Arabic: right to left everywhere', async ({ page, baseURL }) => {
  await saveCookieChoice(page);
  await page.setViewportSize(PHONE);
  for (const [language, heading] of [
    ['en', 'Sign in'],
    ['de', 'Anmelden'],
    ['es', 'Iniciar sesión'],
    ['ar', 'تسجيل الدخول'],
  ] as const) {
    await page.goto(language === 'en' ? '/login' : `/${language}/login`);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/login-${language}-390.png`, fullPage: true });
  }
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  expect(await seriousViolations(page)).toEqual([]);

  const member = await createAccount('participant', 'Layla', 'Haddad');
  await signIn(page, baseURL ?? '', member);
  await jsonApi(page.context().request, baseURL ?? '')('PUT', '/api/account/language', { language: 'ar' });
  // The English address of a page opens in the account's language.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/ar\/account\/?$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'حسابك' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/account-ar-390.png`, fullPage: true });
});
