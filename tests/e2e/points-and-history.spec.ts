/**
 * Where a participant stands (points, mission history, the header's bell): set up through the API — an admin makes a
 * live project with a live manual-review photo mission, the participant (a member) submits an
 * entry with a photo, a moderator asks for changes. In the browser the participant sees the unread
 * count on the header's bell, opens the notification, lands on the mission's history with the
 * reviewer's reason, edits and resubmits from the mission page; the moderator approves (twice,
 * through the API); the balance on home and /account rises once and the history says why. axe on
 * /account and the history page; screenshots at 390×844 and 1280×800 into /tmp/shots/.
 */
import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { readOutbox } from '../support/outbox.ts';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { seriousViolations } from './page-helpers.ts';

const SHOTS = '/tmp/shots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });
const REASON = 'The photo is too dark to see the shelves. Please take it again with the fridge door wide open.';

/** JSON calls (same-origin Origin, JSON body), failing loudly on an unexpected status. */
function apiAs(request: APIRequestContext, baseURL: string) {
  return async <T>(method: 'POST' | 'PATCH', path: string, data: unknown, expected: number[] = method === 'POST' ? [200, 201] : [200]): Promise<T> => {
    const res = await request.fetch(path, { method, headers: { Origin: baseURL, 'Content-Type': 'application/json' }, data });
    if (!expected.includes(res.status())) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** A screenshot at a size. */
async function shot(page: Page, name: string, size = PHONE, { fullPage = true } = {}): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage });
}

interface Setup {
  missionId: number;
  entryId: number;
  title: string;
}

/** The admin's, the participant's and the moderator's parts, through the API. */
async function setUp(origin: string, admin: APIRequestContext, member: Account, participant: APIRequestContext, moderator: APIRequestContext): Promise<Setup> {
  const asAdmin = apiAs(admin, origin);
  const tag = Date.now().toString(36);
  const project = await asAdmin<{ id: number }>('POST', '/api/admin/projects', { name: `Kitchens ${tag}`, status: 'draft' });
  await asAdmin('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await asAdmin<{ id: number }>('POST', '/api/admin/forms', {
    title: `Fridge ${tag}`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `Fridge ${tag}`,
      pages: [
        {
          id: 'fridge',
          title: 'Your fridge',
          elements: [
            { id: 'shelf', type: 'photo', title: 'A photo of your fridge', required: true, maxFiles: 3 },
            { id: 'note', type: 'short_text', title: 'What is on the top shelf?' },
          ],
        },
      ],
    },
  });
  await asAdmin('POST', `/api/admin/forms/${form.id}/publish`, {});
  const title = `Fridge check ${tag}`;
  const mission = await asAdmin<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title,
    instructions: 'Open your fridge and take **one clear photo** of it, door wide open.',
    formId: form.id,
    points: 80,
    closesAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    review: 'manual',
    status: 'live',
  });
  await asAdmin('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });

  // The participant: an entry with a photo, submitted.
  const asMember = apiAs(participant, origin);
  const entry = await asMember<{ id: number }>('POST', `/api/missions/${mission.id}/entries`, { timeZone: 'UTC' });
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 40, b: 60 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const upload = await participant.post('/api/media', {
    headers: { Origin: origin },
    multipart: { file: { name: 'fridge.jpg', mimeType: 'image/jpeg', buffer: jpeg } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const media = (await upload.json()) as { id: string };
  const submitted = await asMember<{ status: string }>('POST', `/api/missions/${mission.id}/entries/${entry.id}/submit`, {
    answers: { shelf: [media.id], note: 'Milk' },
  });
  expect(submitted.status).toBe('submitted');

  // The moderator asks for changes.
  const review = await apiAs(moderator, origin)<{ status: string }>('POST', `/api/admin/submissions/${entry.id}/review`, {
    decision: 'request_changes',
    reason: REASON,
  });
  expect(review.status).toBe('changes_requested');
  return { missionId: mission.id, entryId: entry.id, title };
}

test.beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
});

test('a participant follows a review from the bell to the history, resubmits, and the balance rises once with the reason', async ({
  page,
  baseURL,
  playwright,
}) => {
  test.setTimeout(270_000);
  const origin = baseURL ?? '';
  const member = await createAccount('participant', 'Pat', 'Member');
  const contexts = await Promise.all([0, 1, 2].map(() => playwright.request.newContext({ baseURL: origin })));
  const [adminRequest, memberRequest, moderatorRequest] = contexts as [APIRequestContext, APIRequestContext, APIRequestContext];
  await signInThroughApi(adminRequest, origin, await createAccount('admin', 'Ada', 'Admin'));
  await signInThroughApi(memberRequest, origin, member);
  await signInThroughApi(moderatorRequest, origin, await createAccount('moderator', 'Mo', 'Moderator'));
  const setup = await setUp(origin, adminRequest, member, memberRequest, moderatorRequest);
  const historyPath = `/account/mission-history/${setup.missionId}`;

  // The mail about it (sent by the job queue within a minute) links to the history.
  let mailed: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await readOutbox(process.env.E2E_DATA_DIR ?? '')).filter((mail) => mail.to === member.email);
        mailed = mails.flatMap((mail) => mail.links).find((link) => link.endsWith(historyPath));
        return mailed;
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBeTruthy();
  // The mission going live told the member of new work (a job, issue 28 §15): read here, so the
  // bell below counts the review's notification alone.
  let newWork: number | undefined;
  await expect
    .poll(
      async () => {
        const res = await memberRequest.get('/api/account/notifications');
        const body = (await res.json()) as { items: { id: number; kind: string; link: string }[] };
        newWork = body.items.find((n) => n.kind === 'new_work' && n.link === `/missions/${setup.missionId}`)?.id;
        return newWork;
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBeTruthy();
  expect((await memberRequest.post('/api/account/notifications/read', { data: { ids: [newWork] }, headers: { Origin: origin } })).status()).toBe(200);
  await page.setViewportSize(PHONE);
  await signIn(page, origin, member);
  await page.goto(new URL(mailed ?? '').pathname);
  await expect(page.getByRole('heading', { level: 1, name: setup.title })).toBeVisible();
  await expect(page.getByText(REASON).first()).toBeVisible();

  // Home: the bell counts the notification; the points are pending.
  await page.goto('/');
  const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();
  const balance = page.getByRole('link', { name: /^Your balance:/ });
  await expect(balance).toHaveText(/0 points\s*·\s*80 pending/);
  await expect(balance).toHaveAttribute('href', '/account#points');
  await shot(page, 'ph-home-pending');
  await shot(page, 'ph-home-pending', DESKTOP);

  // The menu: the notification, unread, with the reason; opening it goes to the history.
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  const menu = page.getByRole('menu');
  const item = menu.getByRole('menuitem', { name: new RegExp(`Unread: Changes were asked for your entry to “${setup.title}”`) });
  await expect(item).toBeVisible();
  await expect(item).toContainText(REASON.slice(0, 30));
  await expect(menu.getByRole('menuitem', { name: 'Mark all as read' })).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/ph-bell-menu-${DESKTOP.width}.png` });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/ph-bell-menu-${PHONE.width}.png` });
  await item.click();
  await expect(page).toHaveURL(new RegExp(`${historyPath}$`));

  // The history: the state, the reviewer's reason beside it, the photo, "Edit and resubmit".
  await expect(page.getByRole('heading', { level: 1, name: setup.title })).toBeVisible();
  // Opened, the notification is read.
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  const entry = page.getByRole('article', { name: 'Entry 1' });
  await expect(entry.getByText('Changes requested')).toBeVisible();
  await expect(entry.getByText(REASON)).toBeVisible();
  await expect(entry.getByText('pending until the entry is approved')).toBeVisible();
  await expect(entry.getByText('Milk', { exact: true })).toBeVisible();
  const thumb = entry.getByRole('img', { name: 'Photo 1 of 1' });
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'ph-history-changes');
  await shot(page, 'ph-history-changes', DESKTOP);
  await page.setViewportSize(PHONE);
  // The photo opens in the lightbox.
  await thumb.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Edit and resubmit, on the mission page, with the reason beside the form.
  await entry.getByRole('link', { name: 'Edit and resubmit' }).click();
  await expect(page).toHaveURL(new RegExp(`/missions/${setup.missionId}\\?entry=${setup.entryId}$`));
  await expect(page.getByText(REASON)).toBeVisible();
  const note = page.getByRole('textbox', { name: /What is on the top shelf/ });
  await expect(note).toHaveValue('Milk');
  await note.fill('Milk, butter and a lemon');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible({ timeout: 10_000 });
  await shot(page, 'ph-mission-resubmit', PHONE, { fullPage: false });
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you — your mission is in' })).toBeVisible();

  // Waiting for review again: still pending, nothing available yet.
  await page.goto(historyPath);
  await expect(page.getByRole('article', { name: 'Entry 1' }).getByText('Waiting for review')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Entry 1' }).getByText('Sent again')).toBeVisible();

  // The moderator approves — twice: the second changes nothing.
  const asModerator = apiAs(moderatorRequest, origin);
  for (let i = 0; i < 2; i++)
    expect((await asModerator<{ status: string }>('POST', `/api/admin/submissions/${setup.entryId}/review`, { decision: 'approve' })).status).toBe('approved');

  // Home: the balance rose once, nothing pending.
  await page.goto('/');
  await expect(page.getByRole('link', { name: /^Your balance:/ })).toHaveText(/^Your balance: 80 points$/);
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await shot(page, 'ph-home-approved');
  await shot(page, 'ph-home-approved', DESKTOP);
  await page.setViewportSize(PHONE);

  // /account: the balance, the history with why (one credit), the mission with its counts.
  await page.getByRole('link', { name: /^Your balance:/ }).click();
  await expect(page).toHaveURL(/\/account#points$/);
  const points = page.getByRole('region', { name: 'Points' });
  await expect(points.getByRole('definition').first()).toHaveText('80 points');
  await expect(points.getByRole('definition').nth(1)).toHaveText('0 points');
  await expect(points.getByText('Pending points become available when your entry is approved.')).toBeVisible();
  const rows = points.locator('[data-points-entry]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Mission “${setup.title}”: entry of`);
  await expect(rows.first()).toContainText('+80');
  const missions = page.getByRole('region', { name: 'Your missions' });
  const row = missions.getByRole('listitem', { name: setup.title });
  await expect(row).toContainText('1 approved');
  await expect(row.getByRole('link', { name: setup.title })).toHaveAttribute('href', historyPath);
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'ph-account');
  await shot(page, 'ph-account', DESKTOP);
  await page.setViewportSize(PHONE);

  // The route with no screen of its own goes to the list.
  await page.goto('/account/mission-history');
  await expect(page).toHaveURL(/\/account#mission-history$/);
  await expect(page.getByRole('region', { name: 'Your missions' })).toBeVisible();

  // The history after approval.
  await page.goto(historyPath);
  const approved = page.getByRole('article', { name: 'Entry 1' });
  await expect(approved.getByText('Approved')).toBeVisible();
  await expect(approved.getByText(REASON)).toHaveCount(0);
  await expect(approved.getByText('Milk, butter and a lemon')).toBeVisible();
  await expect(approved.getByText('available in your balance')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'ph-history-approved');
  await shot(page, 'ph-history-approved', DESKTOP);

  // With points, missions and notifications to load, /account still asks GET /api/account (and the
  // points) once and keeps still while loading (the account call slowed; points and missions sit below it).
  await page.addInitScript(() => {
    const store = window as unknown as { __shifts: number };
    store.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) store.__shifts += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    const calls: string[] = [];
    const pointsCalls: string[] = [];
    const onRequest = (request: { url(): string; method(): string }) => {
      if (request.method() !== 'GET') return;
      const { pathname } = new URL(request.url());
      if (pathname === '/api/account') calls.push(request.url());
      if (pathname === '/api/account/points') pointsCalls.push(request.url());
    };
    page.on('request', onRequest);
    await page.route('**/api/account', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.fallback();
    });
    await page.goto('/account');
    await expect(page.locator('main [aria-busy="true"], main [role="status"]').first()).toBeHidden({ timeout: 10_000 });
    await expect(page.getByRole('region', { name: 'Points' }).locator('[data-points-entry]')).toHaveCount(1);
    await page.waitForLoadState('networkidle');
    expect(calls, `GET /api/account calls at ${size.width}`).toHaveLength(1);
    // The balance pill and the points section share the first page.
    expect(pointsCalls, `GET /api/account/points calls at ${size.width}`).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts), `layout shift at ${size.width}`).toBeLessThanOrEqual(0.02);
    page.off('request', onRequest);
    await page.unrouteAll({ behavior: 'wait' });
  }

  await Promise.all(contexts.map((context) => context.dispose()));
});

test('the bell sits in the default and admin headers on a phone, within the screen', async ({ page, baseURL }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, baseURL ?? '', await createAccount('moderator', 'Mo', 'Moderator'));
  for (const path of ['/account', '/admin']) {
    await page.goto(path);
    const bell = page.getByRole('button', { name: 'Notifications', exact: true });
    await expect(bell).toBeVisible();
    const box = await bell.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, `the bell of ${path} within the screen`).toBe(true);
  }
  // The default header keeps to the screen's width.
  await page.goto('/account');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Notifications', exact: true }).click();
  // A moderator's bell speaks to staff: their work is in the admin area.
  await expect(page.getByRole('menu')).toContainText('Nothing for you here yet. Entries waiting for review are in the admin area.');
  await expect(page.getByRole('menuitem', { name: 'Entries waiting for review' })).toHaveAttribute('href', '/admin/review');
  await page.screenshot({ path: `${SHOTS}/ph-admin-bell-${PHONE.width}.png` });
});

test('mail preferences: five switches under the master switch, off with it', async ({ page, baseURL }) => {
  const member = await createAccount('participant', 'Mai', 'Ling');
  await page.setViewportSize(PHONE);
  await signIn(page, baseURL ?? '', member);
  await page.goto('/account/edit/preferences');
  const labels = [
    'When changes are asked on an entry',
    'When an entry is rejected',
    'When a moderator asks you a question',
    'A daily summary of approved entries',
    'Reminders two days before a mission closes',
  ];
  for (const label of labels) await expect(page.getByRole('switch', { name: label })).toBeChecked();
  await page.getByRole('switch', { name: 'A daily summary of approved entries' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Your preferences are saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'A daily summary of approved entries' })).not.toBeChecked();
  await page.getByRole('switch', { name: 'Email notifications' }).click();
  for (const label of labels) await expect(page.getByRole('switch', { name: label })).toBeDisabled();
  await shot(page, 'ph-preferences-off');
  await page.getByRole('switch', { name: 'Email notifications' }).click();
  await shot(page, 'ph-preferences');
  await shot(page, 'ph-preferences', DESKTOP);
});
