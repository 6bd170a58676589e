/**
 * The admin dashboard (/admin) and the ways staff learn that work waits.
 *
 * A participant submits an entry to a live mission (set up through the API). An admin signs in
 * through the form and lands on /admin (not the participant home); the entries waiting for review
 * are counted and the count links to /admin/review; the oldest waiting entries open their mission's
 * review screen; the two charts render as SVGs with accessible names, with their numbers in a table
 * for screen readers; axe finds nothing serious; nothing sticks out sideways on a phone. The bell
 * speaks to staff, and home shows them the staff card. The client errors screen lists errors, the
 * actions (page loads) behind its "Show" filter. Screenshots at 1280×800 and 390×844 go to
 * /tmp/shots/dashboard-*.png.
 */
import fs from 'node:fs';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { saveCookieChoice, seriousViolations, sideways } from './page-helpers.ts';

const SHOTS = '/tmp/shots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test.use({ viewport: DESKTOP });

test.beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.beforeEach(({ page }) => saveCookieChoice(page));

/** JSON calls (same-origin Origin), failing loudly on an unexpected status. */
function jsonApi(request: APIRequestContext, baseURL: string) {
  return async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(path, {
      method,
      headers: { Origin: baseURL, 'Content-Type': 'application/json' },
      data: method === 'GET' ? undefined : (data ?? {}),
    });
    if (res.status() < 200 || res.status() > 299) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** A live project with a live text mission and `member` in it; the member submits one entry. Made by `staff` through the API. */
async function somethingWaits(
  baseURL: string,
  staff: Account,
  member: Account,
): Promise<{ projectId: number; missionId: number; entryId: number; missionTitle: string }> {
  const staffRequest = await playwrightRequest.newContext({ baseURL });
  const memberRequest = await playwrightRequest.newContext({ baseURL });
  try {
    await signInThroughApi(staffRequest, baseURL, staff);
    const call = jsonApi(staffRequest, baseURL);
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Breakfasts ${tag}`, client: 'Acme Foods', status: 'draft' });
    await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
    const form = await call<{ id: number }>('POST', '/api/admin/forms', {
      title: `Toast ${tag}`,
      definition: {
        schema: 'fieldwork.form/1',
        title: `Toast ${tag}`,
        pages: [{ id: 'p1', title: 'Toast', elements: [{ id: 'spread', type: 'short_text', title: 'What do you spread on toast?', required: true }] }],
      },
    });
    await call('POST', `/api/admin/forms/${form.id}/publish`, {});
    const missionTitle = `Toast diary ${tag}`;
    const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
      title: missionTitle,
      instructions: 'Tell us what you spread on your toast.',
      formId: form.id,
      points: 20,
      review: 'manual',
      status: 'live',
    });
    await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });

    await signInThroughApi(memberRequest, baseURL, member);
    const mine = jsonApi(memberRequest, baseURL);
    const { id } = await mine<{ id: number }>('POST', `/api/missions/${mission.id}/entries`, { timeZone: 'UTC' });
    await mine('PUT', `/api/missions/${mission.id}/entries/${id}`, { answers: { spread: 'Marmalade' } });
    const done = await mine<{ status: string }>('POST', `/api/missions/${mission.id}/entries/${id}/submit`, {});
    expect(done.status).toBe('submitted');
    return { projectId: project.id, missionId: mission.id, entryId: id, missionTitle };
  } finally {
    await staffRequest.dispose();
    await memberRequest.dispose();
  }
}

test.describe('the admin dashboard', () => {
  test.describe.configure({ timeout: 120_000 });

  test('an admin signs in, lands on /admin, sees what waits for review with its link, and the charts', async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Grace', 'Member');
    const waiting = await somethingWaits(origin, admin, member);

    // Signing in without `r`: staff land on the dashboard, not the participant home. (From an
    // address of its own: the per-address sign-in limit stays out of this test.)
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${(Date.now() % 200) + 20}` });
    await page.goto('/login');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${origin}/admin`);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The waiting count, a link to the queue across projects.
    const numbers = page.getByRole('region', { name: 'At a glance' });
    const count = numbers.getByRole('link', { name: /^\d[\d,]* (entry waits|entries wait) for review$/ });
    await expect(count).toHaveAttribute('href', '/admin/review');
    // The counts are at most 10 s old (one count per process shared by every admin): another test's
    // visit may have counted before this test's entry waited, so look again until it is counted.
    await expect
      .poll(
        async () => {
          const waiting = Number((await count.innerText()).replace(/[^\d]/g, ''));
          if (waiting < 1) await page.reload();
          return waiting;
        },
        { timeout: 25_000, intervals: [3_000] },
      )
      .toBeGreaterThanOrEqual(1);
    await expect(numbers.getByRole('link', { name: /participants?$/ })).toHaveAttribute('href', '/admin/users?role=participant');
    await expect(numbers.getByRole('link', { name: /new this week$/ })).toHaveAttribute('href', /^\/admin\/users\?role=participant&from=\d{4}-\d{2}-\d{2}$/);

    // The oldest waiting entries open their mission's review screen (when ours is among them).
    const review = page.getByRole('region', { name: 'Waiting for review' });
    await expect(review.getByRole('link', { name: 'Open the review queue' })).toHaveAttribute('href', '/admin/review');
    const oldest = review.getByRole('list', { name: 'Oldest entries waiting for review' }).getByRole('link');
    await expect(oldest.first()).toHaveAttribute('href', /^\/admin\/projects\/\d+\/missions\/\d+\?submission=\d+$/);
    const ours = review.getByRole('link', { name: `${waiting.missionTitle} · Grace Member` });
    if ((await ours.count()) > 0) {
      await expect(ours).toHaveAttribute('href', `/admin/projects/${waiting.projectId}/missions/${waiting.missionId}?submission=${waiting.entryId}`);
    }

    // Completion of the live projects (the 20 most recently updated: other specs make projects too), each linking to it.
    const completion = page.getByRole('region', { name: 'Completion in live projects' });
    await expect(completion.getByRole('link').first()).toHaveAttribute('href', /^\/admin\/projects\/\d+$/);

    // The charts (loaded on demand): SVGs with accessible names, and their numbers in a table.
    const activity = page.getByRole('region', { name: 'Activity' });
    await expect(activity.getByRole('application', { name: 'Sign-ups per week' })).toBeVisible();
    await expect(activity.getByRole('application', { name: 'Submissions per day' })).toBeVisible();
    expect(await activity.locator('svg[role="application"]').count()).toBe(2);
    await expect(activity.getByRole('table', { name: 'Submissions per day' }).getByRole('row')).toHaveCount(31);
    await expect(activity.getByRole('figure', { name: 'Sign-ups per week' })).toBeVisible();

    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-desktop.png`, fullPage: true });

    // The bell speaks to staff.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await expect(page.getByText('Nothing for you here yet. Entries waiting for review are in the admin area.')).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Entries waiting for review' })).toHaveAttribute('href', '/admin/review');
    await page.keyboard.press('Escape');

    // A phone: nothing sticks out sideways.
    await page.setViewportSize(PHONE);
    await page.goto('/admin');
    await expect(page.getByRole('application', { name: 'Submissions per day' })).toBeVisible();
    const phone = await sideways(page, { withoutHeader: true });
    expect(phone.overflow, phone.past.join('\n')).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-phone.png`, fullPage: true });

    // Dark: the charts take the theme's colours.
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/admin');
    await expect(page.getByRole('application', { name: 'Sign-ups per week' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/dashboard-dark.png` });
  });

  test('the client errors screen shows errors; actions such as page loads only when asked', async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const marker = `kinds-${Date.now().toString(36)}`;
    const res = await page.request.post('/api/reports', {
      headers: { Origin: origin, 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77' },
      data: {
        reports: [
          { url: `/${marker}/loaded`, userAgent: null, data: { type: 'action', action: { name: 'page_load', data: null } } },
          { url: `/${marker}/broken`, userAgent: null, data: { type: 'uncaught', stacktrace: `TypeError: ${marker}`, data: { kind: 'misc', data: null } } },
        ],
      },
    });
    expect(res.status()).toBe(204);
    await signIn(page, origin, await createAccount('moderator'));
    await page.goto('/admin/tools/client-errors');
    const section = page.getByRole('region', { name: 'Client errors', exact: true });
    await section.getByRole('searchbox', { name: 'Search client errors' }).fill(marker);
    await section.getByRole('button', { name: 'Search' }).click();
    await expect(section.getByRole('row').filter({ hasText: `/${marker}/broken` })).toHaveCount(1);
    await expect(section.getByRole('row').filter({ hasText: `/${marker}/loaded` })).toHaveCount(0);

    await section.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'Actions (page loads…)' }).click();
    await expect(section.getByRole('row').filter({ hasText: `/${marker}/loaded` })).toHaveCount(1);
    await expect(section.getByRole('row').filter({ hasText: `/${marker}/broken` })).toHaveCount(0);

    await section.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'Errors and actions' }).click();
    await expect(section.getByRole('row').filter({ hasText: marker })).toHaveCount(2);
    await page.screenshot({ path: `${SHOTS}/dashboard-client-errors.png` });
  });

  test('an explicit r still wins for staff; home shows them the staff card', async ({ page, baseURL }) => {
    const moderator = await createAccount('moderator', 'Mona', 'Moderator');
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${(Date.now() % 200) + 21}` });
    await page.goto('/login?r=/account');
    await page.getByLabel('Email').fill(moderator.email);
    await page.getByLabel('Password', { exact: true }).fill(moderator.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${baseURL ?? ''}/account`);

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    const card = page.getByRole('region', { name: 'For staff' });
    await expect(card.getByRole('link', { name: /^(No entries wait|1 entry waits|\d[\d,]* entries wait) for review$/ })).toHaveAttribute(
      'href',
      '/admin/review',
    );
    await expect(card.getByRole('link', { name: 'Open the admin area' })).toHaveAttribute('href', '/admin');
    await page.screenshot({ path: `${SHOTS}/dashboard-home-staff.png` });

    // A participant's home has no such card.
    const participant = await createAccount('participant');
    await page.context().clearCookies();
    await signIn(page, baseURL ?? '', participant);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Nothing to do yet|To do/ }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'For staff' })).toHaveCount(0);
  });
});
