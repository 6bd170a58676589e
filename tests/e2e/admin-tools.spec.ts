import type { APIRequestContext } from '@playwright/test';
import { PASSWORD, createAccount, signIn, uniqueEmail } from './accounts.ts';
import { expect, test } from './fixtures.ts';

let ipCounter = 0;
/** A distinct client address for API calls made on the side (the e2e server trusts X-Forwarded-For). */
const nextIp = () => `198.51.100.${(process.pid + ++ipCounter) % 250}`;

function jsonHeaders(baseURL: string): Record<string, string> {
  return { Origin: baseURL, 'Content-Type': 'application/json', 'X-Forwarded-For': nextIp() };
}

async function bannerFlag(request: APIRequestContext): Promise<unknown> {
  const res = await request.get('/api/feature-flags?feature=banner');
  expect(res.status()).toBe(200);
  return res.json();
}

// The banner shows on every page of every test while it is set: run with the other site-wide
// switches, after the rest (playwright.config.ts, project `global-switches`).
test('an admin sets the banner text and clears it; the public flag follows', { tag: '@site-wide' }, async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('admin', 'Ada', 'Admin'));
  await page.goto('/admin/tools');
  const switches = page.getByRole('region', { name: 'Site switches' });
  await expect(switches).toBeVisible({ timeout: 15_000 });

  // The field is required.
  await switches.getByLabel('Banner text').fill('   ');
  await switches.getByRole('button', { name: 'Save banner' }).click();
  await expect(switches.getByText('Required')).toBeVisible();

  const text = `Site visit on Friday ${Date.now().toString(36)}`;
  await switches.getByLabel('Banner text').fill(text);
  await switches.getByRole('button', { name: 'Save banner' }).click();
  await expect(switches.getByText('The banner is shown.')).toBeVisible();
  await expect.poll(() => bannerFlag(page.request)).toBe(text);

  await switches.getByRole('button', { name: 'Clear banner' }).click();
  await expect(switches.getByText('The banner is cleared.')).toBeVisible();
  await expect.poll(() => bannerFlag(page.request)).toBeNull();
  await expect(switches.getByLabel('Banner text')).toHaveValue('');
});

test('turning maintenance on asks first; cancelling leaves it off', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('admin'));
  await page.goto('/admin/tools');
  const switches = page.getByRole('region', { name: 'Site switches' });
  await switches.getByRole('button', { name: 'Turn maintenance on' }).click();
  await expect(switches.getByText('Every visitor will see the maintenance page. Continue?')).toBeVisible();
  await switches.getByRole('button', { name: 'Cancel' }).click();
  await expect(switches.getByRole('button', { name: 'Turn maintenance on' })).toBeVisible();
  const res = await page.request.get('/api/feature-flags?feature=maintenance');
  expect(await res.json()).toBeNull();
});

test('an admin finds a reported client error in the list, with search', async ({ page, baseURL }) => {
  const marker = `Boom-${Date.now().toString(36)}`;
  const res = await page.request.post('/api/reports', {
    headers: jsonHeaders(baseURL ?? ''),
    data: {
      reports: [
        {
          url: '/surveys/12',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
          data: {
            type: 'uncaught',
            stacktrace: `TypeError: ${marker} is not a function\n    at render (/_astro/survey.js:1:2)`,
            data: { kind: 'misc', data: { label: 'exception' } },
          },
        },
      ],
    },
  });
  expect(res.status()).toBe(204);

  await signIn(page, baseURL ?? '', await createAccount('admin'));
  await page.goto('/admin/tools');
  const section = page.getByRole('region', { name: 'Client errors', exact: true });
  await section.getByRole('searchbox', { name: 'Search client errors' }).fill(marker);
  await section.getByRole('button', { name: 'Search' }).click();
  const row = section.getByRole('row').filter({ hasText: marker });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('/surveys/12');
  await expect(row).toContainText('Uncaught');
  await expect(row).toContainText(`TypeError: ${marker} is not a function`);
  await expect(row).toContainText('Not signed in');
  await expect(section.getByText('Showing 1–1 of 1')).toBeVisible();

  await section.getByRole('searchbox', { name: 'Search client errors' }).fill(`${marker}-nothing-like-it`);
  await section.getByRole('button', { name: 'Search' }).click();
  await expect(section.getByText(/No client errors match/)).toBeVisible();
  await section.getByRole('button', { name: 'Clear' }).click();
  await expect(section.getByRole('row').first()).toBeVisible();
});

test('a data-deletion request appears for admins and can be marked completed', async ({ page, playwright, baseURL }) => {
  const participant = await createAccount('participant', 'Dora', 'Leaving');
  const api = await playwright.request.newContext({ baseURL });
  const login = await api.post('/api/auth/login', { headers: jsonHeaders(baseURL ?? ''), data: { email: participant.email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const asked = await api.post('/api/data-deletion', { headers: jsonHeaders(baseURL ?? ''), data: { currentPassword: PASSWORD, reason: 'Too many surveys' } });
  expect(asked.status()).toBe(201);
  await api.dispose();

  await signIn(page, baseURL ?? '', await createAccount('admin'));
  await page.goto('/admin/tools');
  const section = page.getByRole('region', { name: 'Data-deletion requests' });
  await section.getByRole('searchbox', { name: 'Search requests' }).fill(participant.email);
  await section.getByRole('button', { name: 'Search' }).click();
  const item = section.getByRole('listitem').filter({ hasText: participant.email });
  await expect(item).toContainText('Confirmed');
  await expect(item).toContainText('Too many surveys');

  await item.getByRole('button', { name: 'Mark completed' }).click();
  await expect(item.getByText('Is the data deleted? The person will be emailed.')).toBeVisible();
  await item.getByRole('button', { name: 'Mark completed' }).click();
  await expect(item).toContainText('Completed');
  await expect(item.getByRole('button', { name: 'Mark completed' })).toHaveCount(0);

  // The status filter finds it among the completed ones.
  await section.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Completed' }).click();
  await expect(section.getByRole('listitem').filter({ hasText: participant.email })).toContainText('Completed');
});

test('a contact message can be marked handled', async ({ page, baseURL }) => {
  const email = uniqueEmail('writer');
  const marker = `note-${Date.now().toString(36)}`;
  const sent = await page.request.post('/api/contact', {
    headers: jsonHeaders(baseURL ?? ''),
    data: { name: 'Wanda Writer', email, message: `Where do I find my mission history? ${marker}` },
  });
  expect(sent.status()).toBe(202);

  await signIn(page, baseURL ?? '', await createAccount('moderator'));
  await page.goto('/admin/tools');
  const section = page.getByRole('region', { name: 'Contact messages' });
  await section.getByRole('searchbox', { name: 'Search messages' }).fill(marker);
  await section.getByRole('button', { name: 'Search' }).click();
  const item = section.getByRole('listitem').filter({ hasText: marker });
  await expect(item).toContainText('New');
  await item.getByRole('button', { name: 'Mark handled' }).click();
  await expect(item).toContainText('Handled');
  await expect(item.getByRole('button', { name: 'Reopen' })).toBeVisible();
});

test('a moderator sees Client errors but not the bulk tools, switches and requests (admins only)', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('moderator', 'Mo', 'Derato'));
  await page.goto('/admin/tools');
  await expect(page.getByRole('heading', { level: 2, name: 'Client errors' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 2, name: 'Contact messages' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Points bulk update/ })).toHaveCount(0);
  await expect(page.getByText('The bulk tools (points bulk update, Alchemer export append, review exports) are for admins.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Site switches' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Data-deletion requests' })).toHaveCount(0);
});

test('the dashboard links to the tools, and its client errors count to the client errors', async ({ page, baseURL }) => {
  await signIn(page, baseURL ?? '', await createAccount('admin'));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const admin = page.getByRole('navigation', { name: 'Admin screens' });
  await expect(admin.getByRole('link', { name: /^Users/ })).toHaveAttribute('href', '/admin/users');
  await expect(admin.getByRole('link', { name: /^Tools/ })).toHaveAttribute('href', '/admin/tools');
  await page
    .getByRole('main')
    .getByRole('link', { name: /^\d+ client errors?$/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/tools\/client-errors$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Client errors' })).toBeVisible();
});
