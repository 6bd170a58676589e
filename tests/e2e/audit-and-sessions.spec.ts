/**
 * Issue 29 §5 and §7 on screen: an admin reads the audit log (a filter, a row opened to its state
 * before and after, the CSV link with the same filter), and a participant sees where they are
 * signed in ("This device", the other device in words) and signs one out. Both screens axe-clean;
 * screenshots at 390×844 and 1280×800 go to /tmp/shots/.
 */
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { seriousViolations } from './page-helpers.ts';

const SHOTS = '/tmp/shots';
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function shots(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage: true });
  }
}

test.beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.beforeEach(async ({ context }) => {
  await context.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
});

test('an admin filters the audit log, opens a row to its before and after, and exports what it shows', async ({ page, baseURL }) => {
  const admin = await createAccount('admin', 'Audra', 'Admin');
  // Audited by the CLI: `user.create` of this participant.
  const participant = await createAccount('participant', 'Pia', 'Logged');
  await signIn(page, baseURL ?? '', admin);
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'user.create' }).click();
  await expect(page).toHaveURL(/action=user\.create/);
  // Other tests make accounts meanwhile: this participant's row, by its target id.
  const found = await page.request.get(`/api/admin/users?q=${encodeURIComponent(participant.email)}`);
  const [{ id }] = ((await found.json()) as { items: { id: number }[] }).items as [{ id: number }];
  await page.getByRole('textbox', { name: 'Target ID' }).fill(String(id));
  await expect(page).toHaveURL(new RegExp(`targetId=${id}`));
  const table = page.getByRole('table');
  // One row once the target filter has come back (before, the action alone lists many, and a
  // row opened then is replaced when the filtered page arrives).
  const details = table.getByRole('button', { name: /Details/ });
  await expect(details).toHaveCount(1);
  await expect(table.getByRole('cell', { name: 'user.create' })).toBeVisible();
  await details.click();
  await expect(table.getByText('After', { exact: true })).toBeVisible();
  await expect(table.getByText(participant.email).first()).toBeVisible();
  const csv = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(csv).toBe(`/api/admin/audit/export?action=user.create&targetId=${id}`);
  const exported = await page.request.get(csv ?? '');
  expect(exported.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(await exported.text()).toContain(participant.email);

  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await shots(page, 'audit-log');
});

test('a participant sees where they are signed in and signs another device out', async ({ page, baseURL, playwright }) => {
  const member = await createAccount('participant', 'Sami', 'Sessions');
  await signIn(page, baseURL ?? '', member);
  // Another device: an iPhone signed in through the API.
  const phone = await playwright.request.newContext({ baseURL, userAgent: IPHONE });
  const res = await phone.post('/api/auth/login', {
    headers: { Origin: baseURL ?? '', 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77' },
    data: { email: member.email, password: member.password },
  });
  expect(res.status()).toBe(200);

  await page.goto('/account');
  const devices = page.getByRole('list').filter({ hasText: 'This device' });
  await expect(devices.getByText('This device')).toBeVisible();
  await expect(devices.getByText('Safari on iOS', { exact: true })).toBeVisible();
  await expect(devices.getByText('198.51.100.77')).toBeVisible();
  await page.getByRole('heading', { name: 'Signed-in devices' }).scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await shots(page, 'account-sessions');

  await devices.getByRole('button', { name: 'Sign out of Safari on iOS' }).click();
  await expect(page.getByText('Signed out of Safari on iOS.')).toBeVisible();
  await expect(devices.getByText('Safari on iOS', { exact: true })).toHaveCount(0);
  expect((await phone.get('/api/auth')).status()).toBe(401);
  await phone.dispose();
});
