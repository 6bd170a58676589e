/**
 * The admin users screens (docs/product.md §2.5): an admin finds a participant by part of their
 * email, opens them, disables them (the participant's open session is refused at once), enables
 * them again and adjusts their points. Screenshots of both screens at desktop and phone sizes go
 * to /tmp/shots/users-*.png.
 */
import fs from 'node:fs';
import { createAccount, signIn, signInThroughApi } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { saveCookieChoice, seriousViolations } from './page-helpers.ts';

const SHOTS = '/tmp/shots';

test('an admin finds a participant by part of their email, disables and enables them, and adjusts their points', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const base = baseURL ?? '';
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const someone = await createAccount('participant', 'Pia', 'Quist');
  // The participant's own browser, signed in.
  const theirs = await browser.newContext({ baseURL: base });
  await signInThroughApi(theirs.request, base, someone);
  expect((await theirs.request.get('/api/auth')).status()).toBe(200);

  await saveCookieChoice(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, base, admin);
  await page.goto('/admin/users');
  const people = page.getByRole('region', { name: 'People', exact: true });
  await expect(people.getByRole('table')).toBeVisible({ timeout: 15_000 });

  // Part of the address: the middle of it, in another case (its unique tail included: other workers make participant-<pid>-2x addresses).
  const part = (someone.email.split('@')[0] ?? '').slice(3).toUpperCase();
  await people.getByRole('searchbox', { name: 'Search people' }).fill(part);
  await people.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  const link = people.getByRole('link', { name: 'Pia Quist' });
  await expect(link).toBeVisible();
  await expect(people.getByRole('row')).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/users-list-1280.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pia Quist' })).toBeVisible({ timeout: 15_000 });
  const access = page.getByRole('region', { name: 'Access', exact: true });
  await access.getByRole('button', { name: 'Disable account' }).click();
  await access.getByRole('button', { name: 'Disable', exact: true }).click();
  await expect(page.getByText('Pia Quist is disabled', { exact: true })).toBeVisible();
  await expect(access.getByRole('button', { name: 'Enable account' })).toBeVisible();
  // Their open session is refused at once.
  expect((await theirs.request.get('/api/auth')).status()).toBe(401);
  await expect(page.getByRole('region', { name: 'Sessions', exact: true }).getByText('Not signed in anywhere.')).toBeVisible();

  await access.getByRole('button', { name: 'Enable account' }).click();
  await access.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(access.getByRole('button', { name: 'Disable account' })).toBeVisible();
  await signInThroughApi(theirs.request, base, someone);
  expect((await theirs.request.get('/api/auth')).status()).toBe(200);

  const points = page.getByRole('region', { name: 'Points', exact: true });
  await points.getByRole('button', { name: 'Adjust points' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adjust points' });
  await dialog.getByLabel('Points').fill('25');
  await dialog.getByRole('button', { name: 'Save adjustment' }).click();
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Thanks for the extra photos');
  await dialog.getByRole('button', { name: 'Save adjustment' }).click();
  await expect(dialog).toBeHidden();
  await expect(points.getByRole('cell', { name: '+25' })).toBeVisible();
  await expect(points.getByText('Adjustment: Thanks for the extra photos')).toBeVisible();
  const audit = page.getByRole('region', { name: 'Audit trail', exact: true });
  await expect(audit.getByRole('cell', { name: 'Points adjusted' })).toBeVisible();
  await expect(audit.getByRole('cell', { name: 'Disabled', exact: true })).toBeVisible();
  await expect(audit.getByRole('cell', { name: 'Enabled', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/users-detail-1280.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Nobody disables themself: the 409 is said plainly.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/users?role=admin&status=active');
  await expect(page.getByRole('region', { name: 'People', exact: true }).getByRole('table')).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/users-list-390.png`, fullPage: true });
  // The table scrolls in its own box: the page itself never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const me = (await (await page.request.get('/api/auth')).json()) as { id: number };
  await page.goto(`/admin/users/${me.id}`);
  await page.getByRole('region', { name: 'Access', exact: true }).getByRole('button', { name: 'Disable account' }).click();
  await page.getByRole('region', { name: 'Access', exact: true }).getByRole('button', { name: 'Disable', exact: true }).click();
  await expect(page.getByText('You cannot change your own role or disable your own account: another admin must.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/users-detail-390.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await theirs.close();
});

test('a moderator sees the person but not the admin-only actions, and the list opens filtered from a link', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  await saveCookieChoice(page);
  const moderator = await createAccount('moderator', 'Mo', 'Derator');
  const someone = await createAccount('participant', 'Lee', 'Filter');
  await signIn(page, base, moderator);
  await page.goto('/admin/users?role=moderator');
  const people = page.getByRole('region', { name: 'People', exact: true });
  await expect(people.getByRole('table')).toBeVisible({ timeout: 15_000 });
  await expect(people.getByText(someone.email)).toHaveCount(0);
  await expect(people.getByText(moderator.email)).toBeVisible();
  await expect(people.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/admin/users.csv?role=moderator');

  const res = await page.request.get(`/api/admin/users?q=${encodeURIComponent(someone.email)}`);
  const { items } = (await res.json()) as { items: { id: number }[] };
  await page.goto(`/admin/users/${items[0]?.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Lee Filter' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Access', exact: true }).getByRole('button', { name: 'Disable account' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Points', exact: true }).getByRole('button', { name: 'Adjust points' })).toBeDisabled();
  await expect(page.getByText('Only admins can do this.').first()).toBeVisible();
  // The header says the signed-in role: a moderator is no "Admin" (issue 28 §10).
  await expect(page.getByRole('banner').getByText('Moderator', { exact: true })).toBeVisible();
});

test('an admin invites one person, then previews a CSV of people and sends the valid rows', async ({ page, baseURL }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await saveCookieChoice(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, baseURL ?? '', await createAccount('admin', 'Ada', 'Admin'));
  await page.goto('/admin/users');
  const people = page.getByRole('region', { name: 'People', exact: true });
  await expect(people.getByRole('table')).toBeVisible({ timeout: 15_000 });

  const tag = `${process.pid}-${Date.now().toString(36)}`;
  await people.getByRole('button', { name: 'Invite', exact: true }).click();
  const invite = page.getByRole('dialog', { name: 'Invite someone' });
  await invite.getByLabel('Email').fill(`one-${tag}@example.org`);
  await invite.getByLabel('First name').fill('Uno');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toBeHidden();
  await expect(page.getByText(`Invitation sent to one-${tag}@example.org`, { exact: true })).toBeVisible();

  await people.getByRole('button', { name: 'Invite from a CSV' }).click();
  const bulk = page.getByRole('dialog', { name: 'Invite from a CSV' });
  const csv = `email,first name,last name\ntwo-${tag}@example.org,Dos,Person\nnot-an-email,Bad,Row\n`;
  await bulk.locator('input[type=file]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(bulk.getByText('2 rows read: 1 person can be invited, 1 problem.')).toBeVisible();
  await expect(bulk.getByRole('row', { name: /3 email Invalid email/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/users-bulk-preview-1280.png` });
  await bulk.getByRole('button', { name: 'Send 1 invitation' }).click();
  await expect(bulk.getByText('1 invitation sent. 1 problem left out.')).toBeVisible();
  await bulk.getByRole('button', { name: 'Done' }).click();

  await people.getByRole('searchbox', { name: 'Search people' }).fill(tag);
  await people.getByRole('button', { name: 'Search' }).click();
  await expect(people.getByRole('row')).toHaveCount(3);
  await expect(people.getByRole('cell', { name: 'Invited', exact: true })).toHaveCount(2);
});
