/**
 * Issue 32 on screen: an admin adds a webhook endpoint (a refused address is told on its field; the
 * signing secret is shown once), sends a test event and sees its delivery succeed — the local
 * receiver got it, signed as Standard Webhooks says; makes an API token (shown once), calls the
 * token API with it, revokes it (401 after); reads the API reference. Each page axe-clean (the
 * reference in routes.spec); screenshots at 1280×800 and 390×844 into
 * /tmp/shots/integrations-*.png, and the webhooks page in Arabic. The e2e server runs with
 * WEBHOOKS_ALLOW_LOOPBACK=1 (playwright.config.ts), so the receiver may listen on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, openDialogWith, PHONE, saveCookieChoice, seriousViolations, SHOTS } from './page-helpers.ts';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on 127.0.0.1 that answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end('received, thank you');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/fieldwork`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Screenshots at both sizes; `fullPage` unless the page is too long to look at whole. */
async function shots(page: Page, name: string, fullPage = true): Promise<void> {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}/integrations-${name}-${size.width}.png`, fullPage });
  }
  await page.setViewportSize(DESKTOP);
}

test('an admin adds a webhook endpoint and sees its test delivery, makes, uses and revokes an API token, and reads the API reference', async ({
  page,
  baseURL,
  playwright,
}) => {
  // Five screens, checked with axe and photographed at two sizes: a loaded CI machine took over two minutes.
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  const admin = await createAccount('admin', 'Ines', 'Integrator');
  await saveCookieChoice(page);
  await signIn(page, baseURL ?? '', admin);
  await page.setViewportSize(DESKTOP);

  // Webhooks: a refused address is said on its field, then the receiver's is taken and its secret shown once.
  await page.goto('/admin/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Integrations' }).getByRole('link', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Integrations' })).toHaveAttribute('aria-current', 'page');
  const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await openDialogWith(() => page.getByRole('button', { name: 'Add endpoint' }).click(), add);
  await add.getByLabel('Address (URL)').fill('http://10.20.30.40/hooks');
  await add.getByLabel('Description').fill('Acme CRM');
  await add.getByRole('checkbox', { name: 'survey_response.submitted' }).check();
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(add.getByText('This address is not reachable from the internet')).toBeVisible();
  await add.getByLabel('Address (URL)').fill(receiver.url);
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  const once = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
  await expect(once.getByText('You will not see this again')).toBeVisible();
  const secret = await once.getByLabel('Signing secret').inputValue();
  await page.screenshot({ path: `${SHOTS}/integrations-secret-1280.png` });
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await once.getByRole('button', { name: 'Done' }).click();
  await expect(once).toBeHidden();

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: receiver.url }) });
  await expect(card.getByText('Acme CRM')).toBeVisible();
  await card.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event sent', { exact: true })).toBeVisible();
  // The deliveries open and ask again until the delivery is done.
  const deliveries = card.getByRole('table', { name: /Deliveries/ });
  await expect(deliveries.getByText('Succeeded')).toBeVisible({ timeout: 30_000 });
  await expect(deliveries.getByText('received, thank you')).toBeVisible();
  await expect(card.getByRole('definition').filter({ hasText: 'Succeeded' })).toBeVisible();

  expect(receiver.received).toHaveLength(1);
  const [delivery] = receiver.received;
  const verified = new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers ?? {}) as { type: string; data: { endpointId: number } };
  expect(verified.type).toBe('webhook.test');
  expect(verified.data.endpointId).toBeGreaterThan(0);

  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await expect(page.getByText('Test event sent', { exact: true })).toBeHidden({ timeout: 15_000 });
  await shots(page, 'webhooks');

  // API tokens: made, shown once, used from outside the browser, revoked.
  await page.getByRole('navigation', { name: 'Integrations' }).getByRole('link', { name: 'API tokens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  const make = page.getByRole('dialog', { name: 'New API token' });
  await openDialogWith(() => page.getByRole('button', { name: 'New token' }).click(), make);
  await make.getByLabel('Name').fill('Acme dashboard');
  await make.getByRole('checkbox', { name: 'responses:read' }).check();
  await expect(make.getByLabel('Expires after (days)')).toHaveValue('90');
  await make.getByRole('button', { name: 'Make token' }).click();
  const shown = page.getByRole('dialog', { name: 'Token “Acme dashboard” made' });
  await expect(shown.getByText('You will not see this again')).toBeVisible();
  const token = await shown.getByLabel('API token').inputValue();
  expect(token).toMatch(/^fw_[0-9A-Za-z]{36}$/);
  await expect(shown.getByText(`Authorization: Bearer ${token}`)).toBeVisible();
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Acme dashboard' });
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByText(`${token.slice(0, 10)}…`)).toBeVisible();

  const integration = await playwright.request.newContext({ baseURL });
  const projects = await integration.get('/api/v1/projects', { headers: { Authorization: `Bearer ${token}` } });
  expect(projects.status()).toBe(200);

  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await shots(page, 'tokens');

  await row.getByRole('button', { name: /^Revoke/ }).click();
  await row.getByRole('button', { name: 'Revoke token' }).click();
  await expect(row.getByText('Revoked')).toBeVisible();
  const after = await integration.get('/api/v1/projects', { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
  await integration.dispose();

  // The API reference, read from /api/openapi.json.
  await page.getByRole('navigation', { name: 'Integrations' }).getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  const responses = page.getByRole('article').filter({ has: page.getByRole('heading', { name: /\/api\/v1\/surveys\/\{id\}\/responses$/ }) });
  // The reference is a lazily loaded screen reading a large document: on a loaded CI machine it took over 10 s.
  await expect(responses.getByText('responses:read').first()).toBeVisible({ timeout: 30_000 });
  await expect(responses.getByRole('table', { name: /Answer 200/ }).getByText('items[].answers')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'survey_response.submitted' })).toBeVisible();
  // Axe-checked as it shows, best practices included, in routes.spec (over 20 s on this long page: once is enough).
  await shots(page, 'docs', false);
  for (const [anchor, name] of [
    ['creditParticipantPoints', 'operation'],
    ['event-points-credited', 'webhooks'],
  ] as const) {
    await page.locator(`#${anchor}`).evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/integrations-docs-${name}-1280.png` });
  }

  // The webhooks page in Arabic, right to left.
  await jsonApi(page.context().request, baseURL ?? '')('PUT', '/api/account/language', { language: 'ar' });
  await page.goto('/ar/admin/integrations');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'التكاملات' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: receiver.url }).getByText('نجحت').first()).toBeVisible();
  expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${SHOTS}/integrations-webhooks-ar-390.png`, fullPage: true });
  const addArabic = page.getByRole('dialog', { name: 'إضافة نقطة استقبال لخطافات الويب' });
  await openDialogWith(() => page.getByRole('button', { name: 'إضافة نقطة استقبال' }).click(), addArabic);
  await page.screenshot({ path: `${SHOTS}/integrations-add-ar-390.png` });

  await receiver.close();
});
