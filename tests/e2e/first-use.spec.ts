/**
 * First use (issue 17), on a phone (390×844) and a desktop (1280×800): a diary stays under "To do"
 * after an approved entry, saying what today allows, its count and its points in the words of its
 * own screen; a survey opens each page at its top with the page's heading focused, shows the
 * survey's title and not the form's, and keeps the option that has focus above the sticky
 * Back/Next bar; the thank-you opens with its icon and heading in view. axe with its best-practice
 * rules on each of these screens. Screenshots go to /tmp/shots/first-use-*.png.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, SHOTS, saveCookieChoice, seriousViolations } from './page-helpers.ts';

type Call = ReturnType<typeof jsonApi>;

/** A live project holding `member`, made by an admin through the API. */
async function liveProject(call: Call, member: Account, name: string, make: (projectId: number) => Promise<void>): Promise<number> {
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name, status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  await make(project.id);
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return project.id;
}

/** A published form; returns its id. */
async function publishedForm(call: Call, title: string, pages: unknown[]): Promise<number> {
  const form = await call<{ id: number }>('POST', '/api/admin/forms', { title, definition: { schema: 'fieldwork.form/1', title, pages } });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  return form.id;
}

async function shot(page: Page, name: string, size: { width: number; height: number }, fullPage = true): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/first-use-${name}-${size.width}.png`, fullPage });
}

async function signedInRequest(
  playwright: { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } },
  origin: string,
  who: Account,
) {
  const request = await playwright.request.newContext({ baseURL: origin });
  await signInThroughApi(request, origin, who);
  return request;
}

test.describe('first use', () => {
  test('a diary with one approved entry stays under To do, saying what today allows, in one wording on home and its screen', async ({
    page,
    baseURL,
    playwright,
  }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Dora', 'Diarist');
    const adminRequest = await signedInRequest(playwright, origin, admin);
    const memberRequest = await signedInRequest(playwright, origin, member);
    const call = jsonApi(adminRequest, origin);
    const tag = Date.now().toString(36);
    const title = `Breakfast diary ${tag}`;
    let missionId = 0;
    await liveProject(call, member, `Mornings ${tag}`, async (projectId) => {
      const formId = await publishedForm(call, `Diary form ${tag}`, [
        { id: 'day', title: '', elements: [{ id: 'ate', type: 'short_text', title: 'What did you eat?', required: true }] },
      ]);
      const mission = await call<{ id: number }>('POST', `/api/admin/projects/${projectId}/missions`, {
        title,
        instructions: 'Once a day, tell us about breakfast.',
        formId,
        points: 100,
        review: 'manual',
        entries: { min: 1, max: 7, perDay: 1 },
        status: 'live',
      });
      missionId = mission.id;
    });
    // The member's first entry, submitted, then approved.
    const asMember = jsonApi(memberRequest, origin);
    const entry = await asMember<{ id: number }>('POST', `/api/missions/${missionId}/entries`, { timeZone: 'UTC' });
    await asMember('POST', `/api/missions/${missionId}/entries/${entry.id}/submit`, { answers: { ate: 'Porridge' } });
    await call('POST', `/api/admin/submissions/${entry.id}/review`, { decision: 'approve' });
    await adminRequest.dispose();
    await memberRequest.dispose();

    await saveCookieChoice(page);
    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    await page.goto('/');
    const todo = page.getByRole('region', { name: /^To do, / });
    const card = todo.getByRole('article', { name: title });
    await expect(card).toBeVisible();
    await expect(todo).not.toContainText('You are all caught up');
    await expect(page.getByRole('region', { name: /^Done, / })).toHaveCount(0);
    await expect(card).toContainText('1 of 7 entries');
    await expect(card).toContainText('Come back tomorrow for entry 2 of 7');
    await expect(card).toContainText('100 points an entry');
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    await shot(page, 'home-diary', PHONE);
    await shot(page, 'home-diary', DESKTOP);

    // Its screen counts the same way: "1 of 7 entries", not "1 of 1 entry" beside "You can add up to 7".
    await page.setViewportSize(PHONE);
    await card.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const entries = page.getByRole('region', { name: 'Your entries' });
    await expect(entries).toContainText('1 of 7 entries');
    await expect(entries).not.toContainText('of 1 entry');
    await expect(entries).not.toContainText('You can add up to');
    await expect(page.locator('#add-entry-blocked')).toHaveText('You have made today’s entry. Come back tomorrow for entry 2 of 7.');
    await expect(page.getByRole('list').filter({ hasText: '100 points an entry' }).first()).toBeVisible();
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    await shot(page, 'mission-diary', PHONE);
    await shot(page, 'mission-diary', DESKTOP);
  });

  test('a survey on a phone: each page opens at its top with its heading focused, the survey’s title only, options above the sticky bar, the thank-you in view', async ({
    page,
    baseURL,
    playwright,
  }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Sam', 'Scroller');
    const adminRequest = await signedInRequest(playwright, origin, admin);
    const call = jsonApi(adminRequest, origin);
    const tag = Date.now().toString(36);
    const surveyTitle = `Breakfast check-in ${tag}`;
    const formTitle = `Breakfast habits ${tag}`;
    let surveyId = 0;
    const options = ['Toast', 'Porridge', 'Eggs', 'Fruit', 'Yoghurt', 'Cereal', 'Nothing at all'].map((label, n) => ({ id: `o${n}`, label }));
    await liveProject(call, member, `Check-ins ${tag}`, async (projectId) => {
      const formId = await publishedForm(call, formTitle, [
        {
          id: 'first',
          title: '',
          elements: [
            { id: 'why', type: 'long_text', title: 'Tell us about your mornings' },
            { id: 'what', type: 'single_choice', title: 'What do you eat most often?', required: true, options },
          ],
        },
        { id: 'second', title: '', elements: [{ id: 'when', type: 'short_text', title: 'When do you eat it?', required: true }] },
      ]);
      const survey = await call<{ id: number }>('POST', `/api/admin/projects/${projectId}/surveys`, {
        title: surveyTitle,
        kind: 'native',
        formId,
        points: 50,
        status: 'live',
      });
      surveyId = survey.id;
    });
    await adminRequest.dispose();

    await saveCookieChoice(page);
    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    await page.goto(`/surveys/${surveyId}`);
    await expect(page.getByRole('heading', { level: 1, name: surveyTitle })).toBeVisible();
    // One name for one thing: the survey's title; the form's own title is for staff.
    await expect(page.getByText(formTitle)).toHaveCount(0);
    const group = page.getByRole('radiogroup', { name: /What do you eat most often/ });
    await expect(group).toBeVisible();

    // The last option half under the sticky Back/Next bar (the page scrolled so), the keyboard
    // moves to it from the one above: it is brought up above the bar.
    const bar = page.getByRole('button', { name: 'Next' });
    const last = page.getByRole('radio', { name: 'Nothing at all' });
    const tile = page.locator('label').filter({ has: last });
    const covered = async () => {
      const [tileBox, barBox] = await Promise.all([tile.boundingBox(), bar.boundingBox()]);
      if (!tileBox || !barBox) throw new Error('no box');
      return tileBox.y + tileBox.height - barBox.y;
    };
    await page.evaluate(() => window.scrollTo(0, 0));
    const overlap = await covered();
    await page.evaluate((by) => window.scrollTo(0, by), overlap - 20);
    expect(await covered(), 'set up: the last option is partly under the bar').toBeGreaterThan(0);
    await page.getByRole('radio', { name: 'Cereal' }).focus({ timeout: 2000 });
    await page.keyboard.press('ArrowDown');
    await expect(last).toBeChecked();
    await expect(last).toBeFocused();
    await expect.poll(covered, { message: 'the focused option ends above the Back/Next bar' }).toBeLessThanOrEqual(0);
    // Scrolled to the end, every option is above the bar too.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await covered(), 'at the end of the page the last option is above the bar').toBeLessThanOrEqual(0);
    await shot(page, 'survey-last-option', PHONE, false);
    await page.setViewportSize(PHONE);

    // Next, from far down the page: page 2 opens at the top, its heading focused.
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await bar.click();
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    const heading = page.locator('form h2[tabindex="-1"]');
    await expect(heading).toBeFocused();
    await expect(heading).toHaveText(surveyTitle);
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);

    // Back, from further down: page 1 at its top, its heading focused.
    await page.mouse.wheel(0, 2000);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(heading).toBeFocused();
    await bar.click();
    await page.getByRole('textbox', { name: /When do you eat it/ }).fill('At seven');

    // Submit: the thank-you opens at the top, icon and heading in view, the heading focused.
    await page.mouse.wheel(0, 2000);
    await page.getByRole('button', { name: 'Submit' }).click();
    const thanks = page.getByRole('heading', { name: 'Thank you — your answers are in' });
    await expect(thanks).toBeFocused();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(thanks).toBeInViewport({ ratio: 1 });
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    await shot(page, 'survey-thanks', PHONE, false);
    await shot(page, 'survey-thanks', DESKTOP, false);
  });

  test('admin: a live mission of a draft project says members don’t see it and offers to put the project live; an empty queue shows no stray "None"; the new-survey form choice names match their words', async ({
    page,
    baseURL,
    playwright,
  }) => {
    // Three screens at two sizes with screenshots: near the default 30 s on a slow machine.
    test.slow();
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const adminRequest = await signedInRequest(playwright, origin, admin);
    const call = jsonApi(adminRequest, origin);
    const tag = Date.now().toString(36);
    const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Drafty ${tag}`, status: 'draft' });
    const formTitle = `Breakfast habits ${tag}`;
    const formId = await publishedForm(call, formTitle, [{ id: 'p', title: '', elements: [{ id: 'q', type: 'short_text', title: 'Anything?' }] }]);
    const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, { title: `Pantry ${tag}`, formId, status: 'live' });
    // An entry waiting for review somewhere: the sidebar's Review link shows its count badge.
    const member = await createAccount('participant', 'Wes', 'Waiting');
    let liveMission = 0;
    await liveProject(call, member, `Waiting ${tag}`, async (projectId) => {
      liveMission = (await call<{ id: number }>('POST', `/api/admin/projects/${projectId}/missions`, { title: `Shelf ${tag}`, formId, status: 'live' })).id;
    });
    const memberRequest = await signedInRequest(playwright, origin, member);
    const asMember = jsonApi(memberRequest, origin);
    const entry = await asMember<{ id: number }>('POST', `/api/missions/${liveMission}/entries`, {});
    await asMember('POST', `/api/missions/${liveMission}/entries/${entry.id}/submit`, { answers: { q: 'Jam' } });
    await memberRequest.dispose();
    await adminRequest.dispose();

    await saveCookieChoice(page);
    await page.setViewportSize(PHONE);
    await signIn(page, origin, admin);
    await page.goto(`/admin/projects/${project.id}/missions/${mission.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Pantry ${tag}` })).toBeVisible();
    await expect(page.getByText('— the project is a draft, members don’t see it yet').first()).toBeVisible();
    const alert = page.getByRole('status').filter({ hasText: 'Members don’t see this mission yet' });
    await expect(alert).toBeVisible();
    // The empty review queue says so once: no stray "None".
    await expect(page.getByText('Nothing waits for review.', { exact: false }).first()).toBeVisible();
    await expect(page.getByText('None', { exact: true })).toHaveCount(0);
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    await shot(page, 'admin-live-in-draft', PHONE);
    await shot(page, 'admin-live-in-draft', DESKTOP);

    await page.getByRole('button', { name: 'Put the project live' }).click();
    await expect(page.getByText('Members don’t see this mission yet')).toHaveCount(0);
    await expect(page.getByText('the project is a draft')).toHaveCount(0);
    // And the project's list says it too, now without the note.
    await page.goto(`/admin/projects/${project.id}`);
    await expect(page.getByRole('list', { name: 'Missions' }).getByRole('link', { name: `Pantry ${tag}`, exact: true })).toBeVisible();
    await expect(page.getByText('the project is a draft')).toHaveCount(0);

    // The new-survey screen: "Use this form" is named by its words first (voice control).
    await page.goto(`/admin/projects/${project.id}/surveys/new`);
    const use = page.getByRole('button', { name: `Use this form “${formTitle}”` });
    await expect(use).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Review, \d+\+? waiting$/ })).toHaveCount(1);
    // axe's label-content-name-mismatch (experimental) checks the visible words start the name.
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    await shot(page, 'admin-new-survey', PHONE);
  });

  test('the form builder’s header starts with the logo, like every other layout', async ({ page, baseURL, playwright }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const adminRequest = await signedInRequest(playwright, origin, admin);
    const call = jsonApi(adminRequest, origin);
    const form = await call<{ id: number }>('POST', '/api/admin/forms', {
      title: `Logo form ${Date.now().toString(36)}`,
      definition: { schema: 'fieldwork.form/1', title: 'Logo form', pages: [{ id: 'p', title: '', elements: [] }] },
    });
    await adminRequest.dispose();
    await saveCookieChoice(page);
    await page.setViewportSize(DESKTOP);
    await signIn(page, origin, admin);
    await page.goto(`/admin/forms/${form.id}`);
    const logo = page.locator('header [data-builder-logo]');
    const back = page.getByRole('banner').getByRole('link', { name: /^Back/ });
    await expect(logo).toBeVisible();
    await expect(back).toBeVisible();
    const [logoBox, backBox] = await Promise.all([logo.boundingBox(), back.boundingBox()]);
    expect(logoBox && backBox && logoBox.x < backBox.x, 'the logo comes before the back link').toBe(true);
    expect(logoBox?.x ?? 999).toBeLessThan(40);
    await shot(page, 'form-builder-header', DESKTOP, false);
  });

  test('the cookie banner on a phone: "Allow Selection" only with the choices; the saved toast covers no part of the header', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/terms');
    const banner = page.locator('[data-cookie-banner]');
    // Before its island loads, the page keeps room for it (BANNER_ROOM_INLINE_SCRIPT): scrolled to
    // the end, the footer's last link shows above the banner, not behind it.
    await expect(banner).toBeVisible();
    await expect(banner).not.toHaveAttribute('data-hydrated', '');
    const lastFooterLink = page.getByRole('contentinfo').getByRole('link').last();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => {
        const [link, shown] = await Promise.all([lastFooterLink.boundingBox(), banner.boundingBox()]);
        return link && shown ? shown.y - (link.y + link.height) : Number.NaN;
      }, 'the room between the footer and the banner')
      .toBeGreaterThanOrEqual(0);
    // Its island loads when the visitor reaches for it.
    await banner.hover();
    await expect(banner).toHaveAttribute('data-hydrated', '');
    await expect(banner.getByRole('button', { name: 'Allow Selection' })).toHaveCount(0);
    await shot(page, 'cookie-banner', PHONE, false);
    await page.setViewportSize(PHONE);
    await banner.getByRole('button', { name: 'Customise' }).click();
    await expect(banner.getByRole('button', { name: 'Allow Selection' })).toBeVisible();
    await shot(page, 'cookie-banner-customise', PHONE, false);
    await page.setViewportSize(PHONE);
    await banner.getByRole('button', { name: 'Allow Selection' }).click();
    const toast = page.locator('ol > li').filter({ hasText: 'Cookie choices saved' });
    await expect(toast).toBeVisible();
    const [toastBox, headerBox] = await Promise.all([toast.boundingBox(), page.getByRole('banner').first().boundingBox()]);
    if (!toastBox || !headerBox) throw new Error('no box');
    expect(toastBox.y, 'the toast starts below the header').toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
    await shot(page, 'cookie-toast', PHONE, false);
  });

  test('the notifications menu open on a phone passes axe with its best-practice rules', async ({ page, baseURL }) => {
    const member = await createAccount('participant', 'Nell', 'Notified');
    await saveCookieChoice(page);
    await page.setViewportSize(PHONE);
    await signIn(page, baseURL ?? '', member);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await page.getByRole('button', { name: /Notifications/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByRole('menu')).toContainText('Nothing yet');
    expect(await seriousViolations(page, { bestPractice: true })).toEqual([]);
    await shot(page, 'notifications-open', PHONE, false);
  });
});
