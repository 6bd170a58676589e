import { readOutbox } from '../support/outbox.ts';
import { createAccount, signIn, uniqueEmail } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { pressBeforeHydration } from './page-helpers.ts';

const dataDir = () => process.env.E2E_DATA_DIR ?? '';
/** The e2e server runs with the default support address unless the environment sets one. */
const SUPPORT_EMAIL = process.env.SUPPORT_EMAIL ?? 'support@fieldwork.localhost';

const PUBLIC_PAGES = [
  { path: '/terms', title: 'Terms of use', text: /Points and rewards/ },
  { path: '/privacy', title: 'Privacy policy', text: /Google Analytics is only loaded after you allow statistics/ },
  { path: '/contact', title: 'Contact us', text: /Send us a message/ },
  { path: '/data-deletion', title: 'Data deletion', text: /What we keep, and why/ },
] as const;

/** Waits for the newest mail to an address that has a link containing `part`; returns the link's path and query. */
async function linkFromMail(to: string, part: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readOutbox(dataDir())).filter((m) => m.to === to);
        link = mails.at(-1)?.links.find((l) => l.includes(part));
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  const url = new URL(link ?? '');
  return `${url.pathname}${url.search}`;
}

test.describe('public pages open to everyone, without a redirect', () => {
  for (const { path, title, text } of PUBLIC_PAGES) {
    test(`${path} without a session and with one`, async ({ page, baseURL }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText(text).first()).toBeVisible();

      await signIn(page, baseURL ?? '', await createAccount('participant'));
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText(text).first()).toBeVisible();
    });
  }

  test('terms and privacy show when they were last updated; privacy explains the four cookie categories', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.getByText(/Last updated/)).toBeVisible();
    for (const category of ['Necessary', 'Preferences', 'Statistics', 'Marketing']) {
      await expect(page.getByRole('listitem').filter({ hasText: new RegExp(`^${category}`) })).toBeVisible();
    }
    await page.goto('/terms');
    await expect(page.getByText(/Last updated/)).toBeVisible();
  });
});

test('the contact form checks its fields, sends the message and mails it to support', async ({ page }) => {
  await page.goto('/contact');
  await pressBeforeHydration(page.getByRole('button', { name: 'Send message' }));
  await expect(page.getByText('Required')).toHaveCount(3);

  const email = uniqueEmail('contact');
  await page.getByLabel('Your name').fill('Rosalind Franklin');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('textbox', { name: 'Message' }).fill('Too short');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await expect(page.getByText('Write at least 10 characters')).toBeVisible();

  const marker = `marker-${Date.now().toString(36)}`;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Message' }).fill(`My points for last week's mission are missing. ${marker}`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { name: /your message is on its way/i })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  await expect.poll(async () => (await readOutbox(dataDir())).some((m) => m.to === SUPPORT_EMAIL && m.raw.includes(marker)), { timeout: 10_000 }).toBe(true);

  // Another message starts from an empty message field.
  await page.getByRole('button', { name: 'Send another message' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
});

test('the contact form says when to try again after too many messages', async ({ page }) => {
  await page.route('**/api/contact', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'Retry-After': '1800', 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }),
    }),
  );
  await page.goto('/contact');
  await page.getByLabel('Your name').fill('Rosalind Franklin');
  await page.getByLabel('Email').fill(uniqueEmail('limited'));
  await page.getByRole('textbox', { name: 'Message' }).fill('A message that will not get through.');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('alert')).toContainText('Too many attempts. Try again in 30 minutes.');
});

test('signed out: a deletion request by email, confirmed from the mailed link', async ({ page }) => {
  const account = await createAccount('participant', 'Marie', 'Curie');
  await page.goto('/data-deletion');
  await pressBeforeHydration(page.getByRole('button', { name: 'Send confirmation link' }));
  await expect(page.getByText('Required')).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel(/Reason/).fill('I am moving on to other studies.');
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByText(/If an account exists for that address/)).toBeVisible();

  const link = await linkFromMail(account.email, '/data-deletion?token=');
  await page.goto(link);
  await expect(page.getByText(account.email)).toBeVisible();
  await page.getByRole('button', { name: 'Confirm deletion request' }).click();
  await expect(page.getByRole('heading', { name: 'Your request is confirmed' })).toBeVisible();
  await expect(page).toHaveURL(/\/data-deletion$/);

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeVisible();
  await page.getByRole('button', { name: 'Ask for a new link' }).click();
  await expect(page.getByRole('button', { name: 'Send confirmation link' })).toBeVisible();
});

test('an unknown address gets the same answer, and a made-up link is refused clearly', async ({ page }) => {
  await page.goto('/data-deletion');
  await page.getByLabel('Email').fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

  await page.goto('/data-deletion?token=Tk3n-abcdefghijklmnopqrstuvwxyz0123456789AB');
  await expect(page.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeVisible();
});

test('signed in: the request is confirmed with the current password', async ({ page, baseURL }) => {
  const account = await createAccount('participant', 'Alan', 'Turing');
  await signIn(page, baseURL ?? '', account);
  await page.goto('/data-deletion');
  await expect(page.getByText(`You are signed in as ${account.email}`)).toBeVisible();
  await page.getByLabel('Current password').fill('Wrong-passw0rd!');
  await page.getByRole('button', { name: 'Delete my account and data' }).click();
  await expect(page.getByText('Incorrect password')).toBeVisible();
  await page.getByLabel('Current password').fill(account.password);
  await page.getByRole('button', { name: 'Delete my account and data' }).click();
  await expect(page.getByRole('heading', { name: 'Your request is confirmed' })).toBeVisible();
});
