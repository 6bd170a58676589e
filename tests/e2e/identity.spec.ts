import { readOutbox } from '../support/outbox.ts';
import { PASSWORD, createAccount, signIn, uniqueEmail } from './accounts.ts';
import { expect, test } from './fixtures.ts';

const dataDir = () => process.env.E2E_DATA_DIR ?? '';

/** Waits for a mail to an address and returns the link in it that opens `page`. */
async function linkFromMail(to: string, page: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readOutbox(dataDir())).filter((m) => m.to === to);
        link = mails.at(-1)?.links.find((l) => l.includes(`/${page}/`));
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return new URL(link ?? '').pathname;
}

test('a new participant registers, onboards from the mail, signs out and back in, and resets the password', async ({ page }) => {
  // A long journey: several pages, mails and argon2 hashes.
  test.setTimeout(90_000);
  const email = uniqueEmail('newcomer');

  // Register.
  await page.goto('/register');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('checkbox', { name: /terms of use/i }).check();
  await page.getByRole('button', { name: /create account|register|sign up/i }).click();
  await expect(page.getByRole('heading', { name: /check your inbox/i })).toBeVisible();

  // Open the onboarding mail from the outbox and finish.
  await page.goto(await linkFromMail(email, 'onboarding'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: /finish|continue|set up|create|get started/i }).click();

  // Signed in on /, initials in the header.
  await expect(page).toHaveURL(/\/$/);
  const menu = page.getByRole('button', { name: /account menu|Grace Hopper/i });
  await expect(menu).toBeVisible();
  await expect(menu).toContainText('GH');

  // Sign out.
  await menu.click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // A protected page sends us to sign in, then back.
  await page.goto('/account/edit');
  await expect(page).toHaveURL(/\/login\?r=\/account\/edit$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account\/edit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit your account' })).toBeVisible();

  // Forgot password → mail → reset → sign in with the new one.
  await page.getByRole('button', { name: /account menu|Grace Hopper/i }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: /send|reset/i }).click();
  await expect(page.getByRole('heading', { name: /check your inbox/i })).toBeVisible();

  await page.goto(await linkFromMail(email, 'reset-password'));
  const newPassword = 'Br4nd-new-secret';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: /reset|save|change|set/i }).click();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Incorrect email or password')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the sign-in form shows the shared validation messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Required')).toHaveCount(2);
});

test('a signed-in user opening /login lands on /', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('participant'));
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('a participant opening /admin/users lands on /', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('participant'));
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/$/);
});

test('a moderator reaches /admin and sees the admin entry in the menu', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('moderator', 'Mo', 'Derato'));
  await page.goto('/');
  await page.getByRole('button', { name: /account menu|Mo Derato/i }).click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test('following a link to a protected page without a session goes to plain /login', async ({ page }) => {
  await page.goto('/terms');
  await page
    .getByRole('banner')
    .getByRole('link', { name: /fieldwork/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
});
