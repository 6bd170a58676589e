/**
 * The review inbox (/admin/review): the queue across every project.
 *
 * A moderator sets up two live projects with a text mission each through the API; three
 * participants submit entries (two in the first project, one in the second). On the dashboard the
 * sidebar's "Review" link carries the waiting count (its name "Review, N waiting", N the API's
 * total). Following it opens the inbox, oldest first across projects; the moderator filters by the
 * first project (the address follows), moves with j and k, approves with a — the next entry opens,
 * the count in the sidebar drops by one, the API says the entry is approved. "Projects" in the
 * sidebar opens the projects' list and is the current section on a project's page. The phone
 * layout: the menu lists "Review" with its count. Screenshots at 1280×800 and 390×844 go to
 * /tmp/shots/review-*.png.
 *
 * A second test pages: 22 entries show 20 at a time; j past the 20th loads the rest and opens the
 * 21st, and "Load more" does the same from a fresh load.
 */
import { request as playwrightRequest, type Page, type Request } from '@playwright/test';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS } from './page-helpers.ts';

/** What the Review link's badge shows, and so its name holds: the count, "99+" beyond 99 (`reviewBadgeText`). */
const shown = (waiting: number) => (waiting > 99 ? '99+' : String(waiting));

test.use({ viewport: DESKTOP });

test.beforeEach(({ page }) => saveCookieChoice(page));

/** A live project with these members and a live manual-review text mission, made through the API. */
async function project(
  page: Page,
  baseURL: string,
  name: string,
  members: Account[],
  entries = { min: 1, max: 1, perDay: null as number | null },
): Promise<{ id: number; missionId: number; missionTitle: string }> {
  const call = jsonApi(page.request, baseURL);
  const created = await call<{ id: number }>('POST', '/api/admin/projects', { name, client: 'Acme Foods', status: 'draft' });
  await call('POST', `/api/admin/projects/${created.id}/members`, { emails: members.map((member) => member.email) });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `${name} form`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `${name} form`,
      pages: [{ id: 'p1', title: 'Your meal', elements: [{ id: 'meal', type: 'short_text', title: 'What did you eat?', required: true }] }],
    },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const missionTitle = `${name} breakfast`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${created.id}/missions`, {
    title: missionTitle,
    instructions: 'Tell us what you ate.',
    formId: form.id,
    points: 10,
    review: 'manual',
    status: 'live',
    entries,
  });
  await call('PATCH', `/api/admin/projects/${created.id}`, { status: 'live' });
  return { id: created.id, missionId: mission.id, missionTitle };
}

/** A participant submits entries (one for each meal) through their own API session; their ids. */
async function submitMany(baseURL: string, account: Account, missionId: number, meals: string[]): Promise<number[]> {
  const request = await playwrightRequest.newContext({ baseURL });
  try {
    await signInThroughApi(request, baseURL, account);
    const call = jsonApi(request, baseURL);
    const ids: number[] = [];
    for (const meal of meals) {
      const { id } = await call<{ id: number }>('POST', `/api/missions/${missionId}/entries`, { timeZone: 'UTC' });
      await call('PUT', `/api/missions/${missionId}/entries/${id}`, { answers: { meal } });
      await call('POST', `/api/missions/${missionId}/entries/${id}/submit`, {});
      ids.push(id);
    }
    return ids;
  } finally {
    await request.dispose();
  }
}

/** A participant submits one entry; its id. */
async function submit(baseURL: string, account: Account, missionId: number, meal: string): Promise<number> {
  const [id] = await submitMany(baseURL, account, missionId, [meal]);
  if (id === undefined) throw new Error('no entry made');
  return id;
}

const waitingTotal = async (page: Page, baseURL: string) =>
  (await jsonApi(page.request, baseURL)<{ total: number }>('GET', '/api/admin/submissions?status=submitted&limit=1')).total;

test.describe('the review inbox', () => {
  test.describe.configure({ timeout: 180_000 });

  // The count is the whole site's: tagged @site-wide, it runs after the other specs, which submit and decide entries (playwright.config.ts).
  test('Review in the sidebar with its count; filter by project, move with j and k, approve with a', { tag: '@site-wide' }, async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const moderator = await createAccount('moderator', 'Mona', 'Reviewer');
    // Last names carry the tag: the whole site's queue holds other specs' entries, older than these.
    const grace = await createAccount('participant', 'Grace', `Early ${tag}`);
    const henry = await createAccount('participant', 'Henry', `Later ${tag}`);
    const ivy = await createAccount('participant', 'Ivy', `Elsewhere ${tag}`);
    await signIn(page, origin, moderator);
    const kitchens = await project(page, origin, `Allotment kitchens ${tag}`, [grace, henry]);
    const gardens = await project(page, origin, `Allotment gardens ${tag}`, [ivy]);
    const graceEntry = await submit(origin, grace, kitchens.missionId, 'Porridge');
    await submit(origin, ivy, gardens.missionId, 'Toast');
    const henryEntry = await submit(origin, henry, kitchens.missionId, 'Eggs');

    // The dashboard: the sidebar's Review link names the waiting count.
    const waiting = await waitingTotal(page, origin);
    expect(waiting).toBeGreaterThanOrEqual(3);
    await page.goto('/admin');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    const reviewLink = nav.getByRole('link', { name: `Review, ${shown(waiting)} waiting` });
    await expect(reviewLink).toBeVisible();
    await expect(reviewLink).toContainText(shown(waiting));
    await expect(nav.getByRole('link', { name: 'Projects', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toHaveAttribute('aria-current', 'page');

    // Follow it: every project, oldest first.
    await reviewLink.click();
    await expect(page).toHaveURL(/\/admin\/review$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Review' })).toBeVisible();
    await expect(nav.getByRole('link', { name: /^Review/ })).toHaveAttribute('aria-current', 'page');
    // This test's three entries among every project's: the participant search (the address keeps it).
    await page.getByRole('searchbox', { name: 'Participant' }).fill(tag);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`));
    const queue = page.getByRole('region', { name: 'Queue' });
    const rows = queue.getByRole('button', { name: /^Open the entry of / });
    await expect(rows).toHaveCount(3);
    await expect(queue.getByRole('button', { name: /^Open the entry of Ivy Elsewhere/ })).toContainText(`Allotment gardens ${tag}`);
    const names = await rows.allInnerTexts();
    const order = ['Grace Early', 'Ivy Elsewhere', 'Henry Later'].map((name) => names.findIndex((text) => text.includes(name)));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    await page.screenshot({ path: `${SHOTS}/review-inbox-1280.png` });

    // Filter by project: the address follows, the other project's entry goes.
    await page.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: `Allotment kitchens ${tag}` }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]projectId=${kitchens.id}(&|$)`));
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Grace Early');
    await expect(rows.nth(1)).toContainText('Henry Later');
    await expect(rows.nth(0)).toContainText(kitchens.missionTitle);
    await expect(page.getByRole('combobox', { name: 'Mission' })).toBeEnabled();

    // The keyboard: j opens the first, j the next, k goes back (keys typed in a field, the project's
    // list included, are the field's: the focus leaves it first).
    await page.getByRole('heading', { level: 1, name: 'Review' }).click();
    const detail = page.getByRole('region', { name: 'Submission' });
    await expect(detail).toContainText('No submission open');
    await page.keyboard.press('j');
    await expect(detail.getByRole('heading', { name: `Grace Early ${tag}`, exact: true })).toBeVisible();
    await expect(detail).toContainText('Porridge');
    await page.keyboard.press('j');
    await expect(detail.getByRole('heading', { name: `Henry Later ${tag}`, exact: true })).toBeVisible();
    await page.keyboard.press('k');
    await expect(detail.getByRole('heading', { name: `Grace Early ${tag}`, exact: true })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]submission=${graceEntry}(&|$)`));
    await page.screenshot({ path: `${SHOTS}/review-inbox-open-1280.png` });

    // a approves and opens the next; the entry leaves the queue and the sidebar's count drops.
    await page.keyboard.press('a');
    await expect(
      page
        .getByRole('region', { name: /Notification/ })
        .getByText('Entry approved', { exact: true })
        .first(),
    ).toBeVisible();
    await expect(detail.getByRole('heading', { name: `Henry Later ${tag}`, exact: true })).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(nav.getByRole('link', { name: `Review, ${shown(waiting - 1)} waiting` })).toBeVisible();
    const approved = await jsonApi(page.request, origin)<{ status: string }>('GET', `/api/admin/submissions/${graceEntry}`);
    expect(approved.status).toBe('approved');
    const stillWaiting = await jsonApi(page.request, origin)<{ status: string }>('GET', `/api/admin/submissions/${henryEntry}`);
    expect(stillWaiting.status).toBe('submitted');
    expect(await seriousViolations(page)).toEqual([]);

    // A reload keeps the filter (the address holds it) and the open entry, loaded once: its row
    // coming after it must not mount it again (a video playing in it stopped, field-capture.spec.ts).
    const entryLoads: string[] = [];
    const countEntry = (request: Request) => {
      if (new URL(request.url()).pathname === `/api/admin/submissions/${henryEntry}`) entryLoads.push(request.method());
    };
    page.on('request', countEntry);
    await page.reload();
    await expect(rows).toHaveCount(1);
    await expect(detail.getByRole('heading', { name: `Henry Later ${tag}`, exact: true })).toBeVisible();
    page.off('request', countEntry);
    expect(entryLoads).toEqual(['GET']);
    await expect(page.getByRole('combobox', { name: 'Project' })).toContainText(`Allotment kitchens ${tag}`);

    // Projects: its list page, and the current section on a project's page.
    await nav.getByRole('link', { name: 'Projects', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/projects$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Allotment kitchens ${tag}` }).first()).toBeVisible();
    await page.goto(`/admin/projects/${kitchens.id}`);
    await expect(nav.getByRole('link', { name: 'Projects', exact: true })).toHaveAttribute('aria-current', 'true');
    await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).not.toHaveAttribute('aria-current', /.+/);

    // The phone: the menu lists Review with its count; the inbox fits the width.
    await page.setViewportSize(PHONE);
    await page.goto(`/admin/review?projectId=${kitchens.id}`);
    await expect(rows).toHaveCount(1);
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await wide()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/review-inbox-390.png`, fullPage: true });
    // On a phone the filters fold behind one button, and no keyboard hints show (issue 28 §12).
    await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Project' })).toBeHidden();
    await page.getByRole('button', { name: 'Filters (1)' }).click();
    await expect(page.getByRole('combobox', { name: 'Project' })).toBeVisible();
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav.getByRole('link', { name: `Review, ${shown(waiting - 1)} waiting` })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/review-menu-390.png` });
    await page.getByRole('button', { name: 'Menu' }).click();
    await rows.first().click();
    await expect(detail.getByRole('heading', { name: `Henry Later ${tag}`, exact: true })).toBeVisible();
    expect(await wide()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/review-inbox-open-390.png` });
  });

  test('20 rows at a time: "Load more" and j past the last row bring the next ones, oldest first', async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const moderator = await createAccount('moderator', 'Mona', 'Reviewer');
    const pat = await createAccount('participant', 'Pat', 'Many');
    await signIn(page, origin, moderator);
    const diary = await project(page, origin, `Diary ${tag}`, [pat], { min: 1, max: 30, perDay: null });
    const meals = Array.from({ length: 22 }, (_, i) => `Meal ${i + 1}`);
    await submitMany(origin, pat, diary.missionId, meals);

    await page.goto(`/admin/review?projectId=${diary.id}`);
    const queue = page.getByRole('region', { name: 'Queue' });
    const rows = queue.getByRole('button', { name: /^Open the entry of Pat Many/ });
    await expect(rows).toHaveCount(20);
    await expect(queue).toContainText('Showing 1–20 of 22');
    await expect(queue.getByRole('button', { name: 'Load more' })).toBeVisible();

    // The 20th row, then j: the next rows load and the 21st opens.
    const detail = page.getByRole('region', { name: 'Submission' });
    await rows.nth(19).click();
    await expect(detail).toContainText('Meal 20');
    await page.keyboard.press('j');
    await expect(rows).toHaveCount(22);
    await expect(detail).toContainText('Meal 21');
    await expect(queue.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    await expect(queue).toContainText('Showing 1–22 of 22');

    // "Load more" itself, from a fresh load.
    await page.goto(`/admin/review?projectId=${diary.id}`);
    await expect(rows).toHaveCount(20);
    await queue.getByRole('button', { name: 'Load more' }).click();
    await expect(rows).toHaveCount(22);
  });
});
