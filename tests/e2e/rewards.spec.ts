/**
 * Rewards (issue 30), set up through the API: an admin prices EUR (100 points = 1 EUR), puts a
 * book voucher delivered by hand (5 or 10 EUR) and a donation in the catalogue, and credits a
 * participant 1,200 points. On a phone the participant sees the balance, the voucher's cost and why
 * 10 EUR is out of reach, requests 5 EUR, confirms, and finds the request waiting for a check, its
 * points held. The admin approves it and marks it delivered with a code in the fulfilment queue;
 * the participant finds it sent, with the code, which the admin's screens never show. axe on the
 * three screens; screenshots at 390×844 and 1280×800 into /tmp/shots/.
 *
 * A provider reward: the e2e server orders from a local Tremendous stand-in whose orders wait for
 * approval (playwright.config.ts). A request that needs no review is ordered by the job at once
 * and shows "being sent"; the test approves the order at the stand-in and sends its signed
 * webhook, and the participant finds the reward sent with its link.
 */
import { signedWebhook } from '../support/tremendous-standin.ts';
import { createAccount, signIn, signInThroughApi } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, saveCookieChoice, screenshotsAtBothSizes, seriousViolations } from './page-helpers.ts';

test('a participant redeems points on a phone; an admin approves and delivers by hand; the code is theirs alone', async ({ page, browser, baseURL }) => {
  // A long journey (two people, seven screens, each checked with axe and photographed at two sizes): a loaded CI machine took over a minute.
  test.setTimeout(150_000);
  const origin = baseURL ?? '';
  const tag = Date.now().toString(36);
  const code = `BOOK-${tag.toUpperCase()}-7Q2X`;
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const member = await createAccount('participant', 'Pat', 'Rivera');
  const adminPage = await (await browser.newContext({ baseURL: origin, viewport: DESKTOP })).newPage();
  await saveCookieChoice(adminPage);
  await signInThroughApi(adminPage.context().request, origin, admin);
  const asAdmin = jsonApi(adminPage.context().request, origin);
  await asAdmin('PUT', '/api/admin/rewards/settings', {
    pointsPerUnit: { EUR: 100 },
    minimumPoints: 500,
    oneOpenRequest: true,
    reviewFirstRedemption: true,
    taxForm: null,
    approvalAbove: null,
  });
  const title = `Book voucher ${tag}`;
  await asAdmin('POST', '/api/admin/rewards', {
    title,
    description: 'A voucher for any bookshop.',
    kind: 'gift_card',
    fulfilment: 'manual',
    currency: 'EUR',
    denominations: [5, 10, 20],
  });
  await asAdmin('POST', '/api/admin/rewards', {
    title: `Plant a tree ${tag}`,
    kind: 'donation',
    fulfilment: 'manual',
    currency: 'EUR',
    range: { min: 5, max: 50, step: 5 },
  });
  await saveCookieChoice(page);
  await signIn(page, origin, member);
  const me = await jsonApi(page.context().request, origin)<{ id: number }>('GET', '/api/auth');
  await asAdmin('POST', `/api/admin/users/${me.id}/points`, { points: 1200, reason: 'Welcome bonus' });

  // The participant, on a phone.
  await page.setViewportSize(PHONE);
  await page.goto('/account/rewards');
  await expect(page.getByRole('heading', { level: 1, name: 'Rewards' })).toBeVisible();
  const balance = page.getByRole('region', { name: 'Your points' });
  await expect(balance.getByText('1,200 points')).toBeVisible();
  const voucher = page.getByRole('article', { name: title });
  await voucher.getByRole('radio', { name: '€20' }).click();
  await expect(voucher.getByText('You need 800 more points')).toBeVisible();
  await expect(voucher.getByRole('button', { name: `Choose ${title}` })).toBeDisabled();
  await voucher.getByRole('radio', { name: '€5' }).click();
  await expect(voucher.getByText('Costs 500 points')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await screenshotsAtBothSizes(page, 'rewards-participant');
  await page.setViewportSize(PHONE);
  await voucher.getByRole('button', { name: `Choose ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: `Request ${title}?` });
  await expect(confirm.getByText(member.email)).toBeVisible();
  await screenshotsAtBothSizes(page, 'rewards-confirm');
  await page.setViewportSize(PHONE);
  await confirm.getByRole('button', { name: 'Request for 500 points' }).click();
  await expect(confirm).toBeHidden();
  const request = page.locator('[data-redemption]').first();
  await expect(request.getByText('Waits for a check, usually within 2 working days')).toBeVisible();
  await expect(balance.getByText('700 points')).toBeVisible();
  await expect(balance.getByText('500 points')).toBeVisible();

  // The admin approves it, then marks it delivered with the code.
  await adminPage.goto('/admin/rewards/redemptions');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Reward requests' })).toBeVisible();
  const row = adminPage.getByRole('row', { name: new RegExp(member.email) });
  await row.getByRole('button', { name: /^Approve the request of/ }).click();
  await adminPage.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(adminPage.getByText(`Approved: ${title} (5 EUR) for Pat Rivera`, { exact: true })).toBeVisible();
  await adminPage.goto('/admin/rewards/redemptions?status=approved');
  const approvedRow = adminPage.getByRole('row', { name: new RegExp(member.email) });
  await approvedRow.getByRole('button', { name: /^Mark delivered for/ }).click();
  const deliver = adminPage.getByRole('dialog', { name: 'Mark delivered' });
  await deliver.getByLabel('Code').fill(code);
  expect(await seriousViolations(adminPage)).toEqual([]);
  await screenshotsAtBothSizes(adminPage, 'rewards-deliver-dialog');
  await deliver.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(deliver).toBeHidden();
  await adminPage.goto('/admin/rewards/redemptions?status=delivered');
  await expect(adminPage.getByRole('row', { name: new RegExp(member.email) })).toBeVisible();
  await expect(adminPage.getByText(code)).toHaveCount(0);
  expect(await seriousViolations(adminPage)).toEqual([]);
  await screenshotsAtBothSizes(adminPage, 'rewards-queue');
  await adminPage.goto('/admin/rewards');
  await expect(adminPage.getByRole('cell', { name: title, exact: true })).toBeVisible();
  expect(await seriousViolations(adminPage)).toEqual([]);
  await screenshotsAtBothSizes(adminPage, 'rewards-catalogue');

  // The participant finds it sent, with the code.
  await page.setViewportSize(PHONE);
  await page.reload();
  const sent = page.locator('[data-redemption]').first();
  await expect(sent.getByText(code)).toBeVisible();
  await expect(sent.getByRole('button', { name: 'Copy code' })).toBeVisible();
  await expect(balance.getByText('700 points')).toBeVisible();
  await screenshotsAtBothSizes(page, 'rewards-sent');
  await adminPage.context().close();
});

test('a provider reward is ordered at once and delivered by the provider’s signed webhook', async ({ page, browser, baseURL }) => {
  const origin = baseURL ?? '';
  const tag = Date.now().toString(36);
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const member = await createAccount('participant', 'Sam', 'Okafor');
  const adminContext = await browser.newContext({ baseURL: origin });
  await signInThroughApi(adminContext.request, origin, admin);
  const asAdmin = jsonApi(adminContext.request, origin);
  await asAdmin('PUT', '/api/admin/rewards/settings', {
    pointsPerUnit: { EUR: 100, USD: 90 },
    minimumPoints: 500,
    oneOpenRequest: false,
    reviewFirstRedemption: false,
    taxForm: null,
    approvalAbove: null,
  });
  const title = `Visa prepaid ${tag}`;
  await asAdmin('POST', '/api/admin/rewards', {
    title,
    kind: 'gift_card',
    fulfilment: 'provider',
    providerProductId: 'OKMHM2X2OHYV',
    currency: 'USD',
    denominations: [10],
  });
  await saveCookieChoice(page);
  await signIn(page, origin, member);
  const asMember = jsonApi(page.context().request, origin);
  const me = await asMember<{ id: number }>('GET', '/api/auth');
  await asAdmin('POST', `/api/admin/users/${me.id}/points`, { points: 2000, reason: 'Diary study' });
  await adminContext.close();

  await page.setViewportSize(DESKTOP);
  await page.goto('/account/rewards');
  await page.getByRole('button', { name: `Choose ${title}` }).click();
  await page
    .getByRole('dialog', { name: `Request ${title}?` })
    .getByRole('button', { name: 'Request for 900 points' })
    .click();
  const request = page.locator('[data-redemption]').first();
  const id = Number(await request.getAttribute('data-redemption'));
  // The job orders it (the stand-in holds the order for approval): "being sent".
  await expect.poll(async () => (await asMember<{ status: string }>('GET', `/api/redemptions/${id}`)).status, { timeout: 15_000 }).toBe('ordering');

  // At the provider: the order approved, then its signed webhook.
  const provider = process.env.TREMENDOUS_BASE_URL ?? '';
  const auth = { Authorization: `Bearer ${process.env.TREMENDOUS_API_KEY ?? ''}` };
  // `ordering` is committed before the provider is asked: the order may reach the stand-in a moment later.
  const orderAt = () => fetch(`${provider}/api/v2/orders/redemption:${id}`, { headers: auth });
  await expect.poll(async () => (await orderAt()).status, { timeout: 15_000 }).toBe(200);
  const order = (await (await orderAt()).json()) as { order: { id: string; rewards: { id: string }[] } };
  expect((await fetch(`${provider}/api/v2/order_approvals/${order.order.id}/approve`, { method: 'POST', headers: auth })).status).toBe(200);
  const forged = signedWebhook('not-the-secret', 'REWARDS.DELIVERY.SUCCEEDED', { id: order.order.rewards[0]?.id ?? '', type: 'rewards' });
  expect((await fetch(`${origin}/api/webhooks/rewards/tremendous`, { method: 'POST', headers: forged.headers, body: forged.body })).status).toBe(401);
  const hook = signedWebhook(process.env.TREMENDOUS_WEBHOOK_SECRET ?? '', 'REWARDS.DELIVERY.SUCCEEDED', {
    id: order.order.rewards[0]?.id ?? '',
    type: 'rewards',
  });
  expect((await fetch(`${origin}/api/webhooks/rewards/tremendous`, { method: 'POST', headers: hook.headers, body: hook.body })).status).toBe(200);
  await expect.poll(async () => (await asMember<{ status: string }>('GET', `/api/redemptions/${id}`)).status, { timeout: 15_000 }).toBe('delivered');

  await page.reload();
  const sent = page.locator(`[data-redemption="${id}"]`);
  await expect(sent.getByRole('link', { name: /Open your reward/ })).toHaveAttribute('href', /^https:\/\/testflight\.tremendous\.com\/rewards\/payout\//);
  await expect(sent.getByText('Sent', { exact: true })).toBeVisible();
  await screenshotsAtBothSizes(page, 'rewards-provider-sent');
});
