/**
 * Taking part, on a phone (390×844): an admin sets up a live project through the API (a member,
 * a published two-page form, a live native survey, a live photo mission); the member sees both
 * on home, half-fills the survey (an offline spell included: nothing typed is lost), finishes it
 * on a second browser context where they stopped (the browser's Back and Forward move between its
 * pages), takes a photo in the mission (which survives a reload; a text file named .jpg is refused
 * with its reason) and submits; home then shows the survey done and the mission submitted. An unknown
 * survey is the not-found page. Screenshots at 390×844 and 1280×800 go to /tmp/shots/.
 */
import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';

const SHOTS = '/tmp/shots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });

/** JSON calls as an admin (same-origin Origin, JSON body), failing loudly on an unexpected status. */
function adminApi(request: APIRequestContext, baseURL: string) {
  return async <T>(method: 'POST' | 'PATCH', path: string, data: unknown, expected = method === 'POST' ? [200, 201] : [200]): Promise<T> => {
    const res = await request.fetch(path, { method, headers: { Origin: baseURL, 'Content-Type': 'application/json' }, data });
    if (!expected.includes(res.status())) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

interface Setup {
  surveyId: number;
  missionId: number;
  surveyTitle: string;
  missionTitle: string;
}

/** The admin's part, through the API. */
async function setUp(request: APIRequestContext, baseURL: string, member: Account): Promise<Setup> {
  const call = adminApi(request, baseURL);
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Mornings ${tag}`, client: 'Acme Foods', status: 'draft' });
  const members = await call<{ added: string[] }>('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  expect(members.added).toEqual([member.email]);

  const surveyForm = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `Breakfast ${tag}`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `Breakfast ${tag}`,
      pages: [
        {
          id: 'mornings',
          title: 'Your mornings',
          elements: [
            { id: 'drink', type: 'short_text', title: 'What do you drink first?', required: true },
            {
              id: 'often',
              type: 'single_choice',
              title: 'How often do you eat breakfast?',
              required: true,
              options: [
                { id: 'daily', label: 'Every day' },
                { id: 'some', label: 'Some days' },
                { id: 'never', label: 'Never' },
              ],
            },
          ],
        },
        { id: 'food', title: 'Your breakfast', elements: [{ id: 'meal', type: 'long_text', title: 'What did you eat this morning?', required: true }] },
      ],
    },
  });
  await call('POST', `/api/admin/forms/${surveyForm.id}/publish`, {});

  const photoForm = await call<{ id: number }>('POST', '/api/admin/forms', {
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
  await call('POST', `/api/admin/forms/${photoForm.id}/publish`, {});

  const closesAt = new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString();
  const surveyTitle = `Breakfast habits ${tag}`;
  const survey = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/surveys`, {
    title: surveyTitle,
    description: 'Tell us how your day starts.',
    kind: 'native',
    formId: surveyForm.id,
    points: 50,
    estimatedMinutes: 5,
    closesAt,
    status: 'live',
  });
  const missionTitle = `Fridge photo ${tag}`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title: missionTitle,
    instructions: 'Open your fridge and take **one clear photo** of it, door wide open.\n\n- Good light helps\n- No people in the picture',
    formId: photoForm.id,
    points: 80,
    closesAt,
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { surveyId: survey.id, missionId: mission.id, surveyTitle, missionTitle };
}

/** A screenshot at a size; `fullPage: false` for forms (their Next/Submit bar sticks to the viewport's bottom). */
async function shot(page: Page, name: string, size = PHONE, { fullPage = true } = {}): Promise<void> {
  await page.setViewportSize(size);
  // Let layout settle at the new size (cards reflow).
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage });
}

const region = (page: Page, name: RegExp) => page.getByRole('region', { name });
const saved = (page: Page) => page.getByText('Saved', { exact: true });

test.beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
});

test.describe('taking part', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a member finds a survey and a photo mission on home, finishes the survey on a second device where they stopped, submits a photo', async ({
    page,
    baseURL,
    browser,
    playwright,
    allowConsoleError,
  }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Pat', 'Member');
    const adminRequest = await playwright.request.newContext({ baseURL: origin });
    await signInThroughApi(adminRequest, origin, admin);
    const setup = await setUp(adminRequest, origin, member);

    // Home, on a phone.
    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    await page.goto('/');
    const todo = region(page, /^To do, 2 items$/);
    await expect(todo).toBeVisible();
    const surveyCard = todo.getByRole('article', { name: setup.surveyTitle });
    await expect(surveyCard).toContainText('50 points');
    await expect(surveyCard).toContainText('About 5 minutes');
    await expect(surveyCard).toContainText('Closes in 3 days');
    await expect(todo.getByRole('article', { name: setup.missionTitle })).toContainText('80 points');
    await shot(page, 'home-todo');
    await shot(page, 'home-todo', DESKTOP);
    await page.setViewportSize(PHONE);

    // The survey: page 1, an offline spell, then page 2 half done.
    await surveyCard.getByRole('link', { name: setup.surveyTitle }).click();
    await expect(page).toHaveURL(new RegExp(`/surveys/${setup.surveyId}$`));
    await expect(page.getByRole('heading', { level: 1, name: setup.surveyTitle })).toBeVisible();
    await expect(page.getByText('Your answers are saved as you go')).toBeVisible();
    await shot(page, 'survey-start', PHONE, { fullPage: false });
    await page.getByRole('textbox', { name: /What do you drink first/ }).fill('Green tea');
    await expect(saved(page)).toBeVisible();

    await page.context().setOffline(true);
    await page.getByRole('radio', { name: 'Some days' }).check();
    await expect(page.getByText('Offline — your answers are kept on this device and sent when you are back online')).toBeVisible({ timeout: 10_000 });
    await shot(page, 'survey-offline', PHONE, { fullPage: false });
    await page.setViewportSize(PHONE);
    await page.context().setOffline(false);
    await expect(saved(page)).toBeVisible({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Your breakfast' })).toBeVisible();
    await expect(saved(page)).toBeVisible();
    // Each page is a history entry: the browser's Back goes to page 1 (not out of the survey), Forward and a reload to page 2.
    await expect(page).toHaveURL(new RegExp(`/surveys/${setup.surveyId}\\?page=food$`));
    // …without the ClientRouter fetching and swapping the page (the form's listener keeps its entries).
    const swaps = () => page.evaluate(() => (window as { swaps?: number }).swaps ?? 0);
    await page.evaluate(() => document.addEventListener('astro:before-preparation', () => ((window as { swaps?: number }).swaps = 1)));
    await page.goBack();
    await expect(page.getByRole('textbox', { name: /What do you drink first/ })).toHaveValue('Green tea');
    await expect(page).toHaveURL(new RegExp(`/surveys/${setup.surveyId}$`));
    const pageSaved = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith(`/api/surveys/${setup.surveyId}/response`));
    await page.goForward();
    await expect(page.getByRole('heading', { level: 2, name: 'Your breakfast' })).toBeVisible();
    await pageSaved;
    expect(await swaps()).toBe(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Your breakfast' })).toBeVisible();

    // A second device: the same member, where they stopped (page 2, page 1's answers kept).
    const other = await browser.newContext({ baseURL: origin, viewport: PHONE });
    await other.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
    const second = await other.newPage();
    await signIn(second, origin, member);
    await second.goto(`/surveys/${setup.surveyId}`);
    await expect(second.getByRole('heading', { level: 2, name: 'Your breakfast' })).toBeVisible();
    await expect(second.getByText('Page 2 of 2')).toBeVisible();
    await second.getByRole('button', { name: 'Back' }).click();
    await expect(second.getByRole('textbox', { name: /What do you drink first/ })).toHaveValue('Green tea');
    await expect(second.getByRole('radio', { name: 'Some days' })).toBeChecked();
    await second.getByRole('button', { name: 'Next' }).click();
    // Submit with the last answer missing: the renderer says what is wrong.
    await second.getByRole('button', { name: 'Submit' }).click();
    await expect(second.getByRole('alert').filter({ hasText: 'There is a problem on this page' })).toBeVisible();
    await second.getByRole('textbox', { name: /What did you eat this morning/ }).fill('Porridge with apple');
    await shot(second, 'survey-page2', PHONE, { fullPage: false });
    await second.setViewportSize(PHONE);
    await second.getByRole('button', { name: 'Submit' }).click();
    await expect(second.getByRole('heading', { name: 'Thank you — your answers are in' })).toBeVisible();
    const answers = second.getByRole('region', { name: 'Your answers' });
    await expect(answers).toContainText('Green tea');
    await expect(answers).toContainText('Some days');
    await expect(answers).toContainText('Porridge with apple');
    await shot(second, 'survey-thanks');
    await shot(second, 'survey-thanks', DESKTOP);
    await other.close();

    // The first device learns it is submitted.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank you — your answers are in' })).toBeVisible();

    // The mission: instructions, a photo from a file, a reload, submit.
    await page.goto(`/missions/${setup.missionId}`);
    await expect(page.getByRole('heading', { level: 1, name: setup.missionTitle })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Instructions' })).toContainText('one clear photo');
    // A text file named .jpg: kept on the phone, sent, then refused with the server's reason and only Remove (Try again could never work), no broken picture.
    // (Playwright's trace snapshots fetch a local image that does not decode, which the CSP blocks: the page itself never does.)
    allowConsoleError(/Connecting to 'blob:|connect-src blocked blob/);
    await page
      .getByLabel('Choose from library')
      .setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('a shopping list, not a photo') });
    const refused = page.locator('li[data-photo]', { hasText: 'notes.jpg' });
    await expect(refused).toContainText('Upload a JPEG, PNG, WebP or HEIC photo', { timeout: 30_000 });
    await expect(refused.getByRole('button')).toHaveText(['Remove notes.jpg']);
    await expect(refused.locator('img')).toHaveCount(0);
    await refused.scrollIntoViewIfNeeded();
    await shot(page, 'photo-refused', PHONE, { fullPage: false });
    await shot(page, 'photo-refused', DESKTOP, { fullPage: false });
    await page.setViewportSize(PHONE);
    await refused.getByRole('button', { name: 'Remove notes.jpg' }).click();
    await expect(refused).toHaveCount(0);
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 140, b: 200 } } })
      .jpeg({ quality: 80 })
      .toBuffer();
    await page.getByLabel('Choose from library').setInputFiles({ name: 'fridge.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await expect(page.getByText('Uploaded and ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(saved(page)).toBeVisible({ timeout: 10_000 });
    await page.getByRole('group', { name: /A photo of your fridge/ }).scrollIntoViewIfNeeded();
    await shot(page, 'mission-photo', PHONE, { fullPage: false });
    await page.setViewportSize(PHONE);

    await page.reload();
    const photos = page.getByRole('group', { name: /A photo of your fridge/ });
    await expect(photos.locator('img')).toHaveCount(1);
    await expect.poll(() => photos.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.getByRole('textbox', { name: /What is on the top shelf/ }).fill('Milk and butter');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you — your mission is in' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your answers' }).locator('img')).toHaveCount(1);
    await shot(page, 'mission-thanks');
    await shot(page, 'mission-thanks', DESKTOP);
    await page.setViewportSize(PHONE);

    // Home: the survey is done, the mission waits for review.
    await page.goto('/');
    await expect(region(page, /^Done, 1 item$/).getByRole('article', { name: setup.surveyTitle })).toBeVisible();
    await expect(region(page, /^Submitted, 1 item$/).getByRole('article', { name: setup.missionTitle })).toBeVisible();
    await expect(region(page, /^To do, 0 items$/)).toContainText('You are all caught up');
    await shot(page, 'home-after');
    await shot(page, 'home-after', DESKTOP);

    await adminRequest.dispose();
  });

  test('a diary in an ordered mission group: the group shows what is locked and why, the diary counts entries and allows one a day', async ({
    page,
    baseURL,
    playwright,
    allowConsoleError,
  }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Dee', 'Diarist');
    const adminRequest = await playwright.request.newContext({ baseURL: origin });
    await signInThroughApi(adminRequest, origin, admin);
    const call = adminApi(adminRequest, origin);
    const tag = Date.now().toString(36);
    const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Kitchen ${tag}`, status: 'draft' });
    await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
    const form = await call<{ id: number }>('POST', '/api/admin/forms', {
      title: `Diary ${tag}`,
      definition: {
        schema: 'fieldwork.form/1',
        title: `Diary ${tag}`,
        pages: [{ id: 'day', title: 'Today', elements: [{ id: 'cooked', type: 'long_text', title: 'What did you cook today?', required: true }] }],
      },
    });
    await call('POST', `/api/admin/forms/${form.id}/publish`, {});
    const closesAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const diary = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
      title: `Cooking diary ${tag}`,
      instructions: 'Once a day, tell us what you cooked.',
      formId: form.id,
      points: 30,
      closesAt,
      review: 'automatic',
      entries: { min: 3, max: 3, perDay: 1 },
      status: 'live',
    });
    const wrapUp = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
      title: `Wrap-up ${tag}`,
      formId: form.id,
      points: 20,
      closesAt,
      status: 'live',
    });
    const group = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/mission-groups`, {
      title: `Kitchen week ${tag}`,
      description: 'Two missions, one after the other.',
      missionIds: [diary.id, wrapUp.id],
      unlock: 'in_order',
    });
    await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
    await adminRequest.dispose();

    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    await page.goto('/');
    await region(page, /^To do/)
      .getByRole('link', { name: `Kitchen week ${tag}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/mission-groups/${group.id}$`));
    await expect(page.getByText('0 of 2 missions done')).toBeVisible();
    const missions = page.getByRole('region', { name: 'Missions' }).locator('ol > li');
    await expect(missions).toHaveCount(2);
    await expect(missions.nth(0)).toContainText('Open');
    await expect(missions.nth(1)).toContainText('Locked');
    await expect(missions.nth(1)).toContainText(`Opens when you finish “Cooking diary ${tag}”`);
    await expect(missions.nth(1).getByRole('link')).toHaveCount(0);
    // One wording for points: the diary's are earned by each entry.
    await expect(missions.nth(0)).toContainText('30 points an entry');
    await expect(missions.nth(1)).toContainText('20 points');
    await expect(missions.nth(1)).not.toContainText('an entry');
    await shot(page, 'group');
    await shot(page, 'group', DESKTOP);
    await page.setViewportSize(PHONE);

    await page.getByRole('link', { name: `Start: Cooking diary ${tag}` }).click();
    await expect(page.getByText('0 of 3 entries')).toBeVisible();
    await page.getByRole('button', { name: 'Add today’s entry' }).click();
    await expect(page.getByRole('heading', { level: 2, name: /^Entry 1/ })).toBeVisible();
    await page.getByRole('textbox', { name: /What did you cook today/ }).fill('Lentil soup');
    await expect(saved(page)).toBeVisible({ timeout: 10_000 });
    await shot(page, 'diary-entry', PHONE, { fullPage: false });
    // A submit made offline waits on the phone and says so; back online, it is sent by itself.
    allowConsoleError(/ERR_INTERNET_DISCONNECTED/);
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Will be sent when you are back online' })).toBeVisible();
    await shot(page, 'diary-queued');
    await page.context().setOffline(false);
    // Nothing pressed: once the submit is sent, the screen goes back to the list and says so. (A
    // press on "Your entries" raced the sender: sent first, the button was gone before the press.)
    await expect(page.getByRole('status').filter({ hasText: 'Entry 1 is submitted — thank you!' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText('1 of 3 entries')).toBeVisible();
    const add = page.getByRole('button', { name: 'Add today’s entry' });
    await expect(add).toBeDisabled();
    // What today allows, in the words home uses too.
    await expect(page.locator('#add-entry-blocked')).toHaveText('You have made today’s entry. Come back tomorrow for entry 2 of 3.');
    await page.getByText('Show answers').click();
    await expect(page.getByText('Lentil soup')).toBeVisible();
    await shot(page, 'diary-list');
    await shot(page, 'diary-list', DESKTOP);
  });

  test('home, a survey and a mission keep still while they load, on a phone and a desktop', async ({ page, baseURL, playwright }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Sam', 'Still');
    const adminRequest = await playwright.request.newContext({ baseURL: origin });
    await signInThroughApi(adminRequest, origin, admin);
    const setup = await setUp(adminRequest, origin, member);
    await signIn(page, origin, member);
    // CLS as Lighthouse counts it: the shifts not caused by input, summed from the page's start.
    await page.addInitScript(() => {
      const store = window as unknown as { __shifts: number };
      store.__shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!entry.hadRecentInput) store.__shifts += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // Each screen's call held for a while, so its loading state is on screen first.
    await page.route(/\/api\/(home|surveys\/\d+|missions\/\d+)$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.fallback();
    });
    const screens = [
      { path: '/', loaded: () => region(page, /^To do, 2 items$/) },
      { path: `/surveys/${setup.surveyId}`, loaded: () => page.getByRole('textbox', { name: /What do you drink first/ }) },
      { path: `/missions/${setup.missionId}`, loaded: () => page.getByText('A photo of your fridge') },
    ];
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      for (const screen of screens) {
        await page.goto(screen.path);
        await expect(screen.loaded()).toBeVisible();
        await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
        await page.waitForTimeout(300);
        const shift = await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts);
        expect(shift, `layout shift of ${screen.path} at ${size.width}`).toBeLessThanOrEqual(0.02);
      }
    }
    await adminRequest.dispose();
  });

  test('a survey the member cannot see is the not-found page; home without projects says what to expect', async ({ page, baseURL }) => {
    const member = await createAccount('participant', 'Nia', 'Newcomer');
    await page.setViewportSize(PHONE);
    await signIn(page, baseURL ?? '', member);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Nothing to do yet' })).toBeVisible();
    await shot(page, 'home-empty');
    await page.setViewportSize(PHONE);
    await page.goto('/surveys/987654');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page).toHaveTitle('Page Not Found · Fieldwork');
    await page.goto('/missions/987654');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  });
});
