/**
 * The programme's admin screens: an admin creates a project from the dashboard, adds members by
 * pasting addresses (an unknown one is listed and invited, a typo is listed as not an address),
 * reads a CSV of addresses, edits the details in place, creates a native survey from a published
 * form, an Alchemer survey (its return URLs) and a photo mission (both forms made and published
 * through the API first), sees them listed with their counts, groups the mission, opens
 * the survey's preview and makes the project live. A member then answers both through the API (a
 * photo too), and the admin sees the results chart, the response and the submission with its photo
 * in the lightbox. axe finds nothing serious on the project and survey pages; screenshots at
 * 1280×800 and 390×844 go to /tmp/shots.
 */
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, signIn, signInThroughApi, uniqueEmail, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { saveCookieChoice, seriousViolations, sideways } from './page-helpers.ts';

const SHOTS = '/tmp/shots';

test.beforeEach(({ page }) => saveCookieChoice(page));

/** Creates and publishes a form through the API; returns its id. */
async function publishedForm(page: Page, baseURL: string, title: string, elements: unknown[]): Promise<number> {
  const headers = { Origin: baseURL, 'Content-Type': 'application/json' };
  const definition = { schema: 'fieldwork.form/1', title, pages: [{ id: 'page_1', title: '', elements }] };
  const created = await page.request.post('/api/admin/forms', { headers, data: { title, definition } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const published = await page.request.post(`/api/admin/forms/${id}/publish`, { headers, data: {} });
  expect(published.status(), await published.text()).toBe(201);
  return id;
}

/** A member's answers through the participant API: the survey submitted, a mission entry with a photo submitted. */
async function memberTakesPart(baseURL: string, member: Account, surveyId: number, missionId: number): Promise<void> {
  const api: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  try {
    await signInThroughApi(api, baseURL, member);
    const json = { Origin: baseURL, 'Content-Type': 'application/json' };
    const submitted = await api.post(`/api/surveys/${surveyId}/response/submit`, { headers: json, data: { answers: { cook: 'yes', enjoy: 4 } } });
    expect(submitted.status(), await submitted.text()).toBe(200);
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    const uploaded = await api.post('/api/media', {
      headers: { Origin: baseURL },
      multipart: { file: { name: 'fridge.jpg', mimeType: 'image/jpeg', buffer: jpeg } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const media = (await uploaded.json()) as { id: string };
    const entry = await api.post(`/api/missions/${missionId}/entries`, { headers: json, data: { timeZone: 'UTC' } });
    expect(entry.status(), await entry.text()).toBe(201);
    const { id: entryId } = (await entry.json()) as { id: number };
    const saved = await api.put(`/api/missions/${missionId}/entries/${entryId}`, { headers: json, data: { answers: { fridge: [media.id] } } });
    expect(saved.status(), await saved.text()).toBe(200);
    const done = await api.post(`/api/missions/${missionId}/entries/${entryId}/submit`, { headers: json, data: {} });
    expect(done.status(), await done.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

const idOf = (url: string) => Number(/\/(\d+)$/.exec(new URL(url).pathname)?.[1]);

test.describe('projects, surveys and missions for admins', () => {
  test.describe.configure({ timeout: 180_000 });

  test('an admin creates a project, adds and invites members, creates a native survey and a photo mission, and sees them counted', async ({
    page,
    baseURL,
  }) => {
    const origin = baseURL ?? '';
    const tag = Date.now().toString(36);
    const year = new Date().getUTCFullYear() + 1;
    await signIn(page, origin, await createAccount('admin', 'Ada', 'Admin'));
    const member = await createAccount('participant', 'Grace', 'Member');
    const stranger = uniqueEmail('stranger');
    const surveyForm = `Cooking habits ${tag}`;
    const photoForm = `Fridge photo ${tag}`;
    await publishedForm(page, origin, surveyForm, [
      {
        id: 'cook',
        type: 'single_choice',
        title: 'Do you cook at home?',
        required: true,
        options: [
          { id: 'yes', label: 'Yes' },
          { id: 'no', label: 'No' },
        ],
      },
      { id: 'enjoy', type: 'rating', title: 'How much do you enjoy it?', max: 5 },
    ]);
    await publishedForm(page, origin, photoForm, [{ id: 'fridge', type: 'photo', title: 'A photo of your fridge', required: true, maxFiles: 3 }]);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin');

    // The dashboard's Projects section: "New project" checks the name, then opens the project.
    const projects = page.getByRole('region', { name: 'Projects', exact: true });
    await expect(projects.getByRole('heading', { level: 2, name: 'Projects' })).toBeVisible();
    await projects.getByRole('button', { name: 'New project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(dialog.getByText('Required')).toBeVisible();
    const projectName = `Kitchen study ${tag}`;
    await dialog.getByLabel('Name').fill(projectName);
    await dialog.getByLabel('Client').fill('Acme Foods');
    await dialog.getByLabel('Start date').fill(`${year}-09-01`);
    await dialog.getByLabel('End date').fill(`${year}-08-01`);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(dialog.getByText('Must be on or after the start date')).toBeVisible();
    await dialog.getByLabel('End date').fill(`${year}-10-31`);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(page).toHaveURL(/\/admin\/projects\/\d+$/);
    const projectUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name: projectName })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('Acme Foods');

    // Members: one known address, one unknown, one typo — nothing dropped silently.
    const members = page.getByRole('region', { name: 'Members' });
    await expect(members.getByText('No members yet')).toBeVisible();
    await members.getByLabel('Add members by email').fill(`Grace Member <${member.email}>, ${stranger}\nnot-an-address`);
    await members.getByRole('button', { name: 'Add 3 members' }).click();
    const result = members.getByRole('region', { name: 'Result of adding members' });
    await expect(result.getByRole('region', { name: /^Added/ })).toContainText(member.email);
    await expect(result.getByRole('region', { name: /^No account yet/ })).toContainText(stranger);
    await expect(result.getByRole('region', { name: /^Not email addresses/ })).toContainText('not-an-address');
    await result.getByRole('button', { name: 'Invite this person' }).click();
    await expect(result.getByRole('region', { name: /^Invited and added/ })).toContainText(stranger);
    await expect(result.getByRole('region', { name: /^No account yet/ })).toHaveCount(0);
    const list = members.getByRole('list', { name: 'Members' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list).toContainText(member.email);
    await expect(list).toContainText(stranger);

    // A CSV file fills the box with the addresses of its email column, for a check before adding.
    await members.locator('input[type="file"]').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Name;E-mail address\nAlan;Alan@Example.org\nKatherine;katherine@example.org\n'),
    });
    await expect(members.getByText('2 addresses read from “people.csv” (column “E-mail address”)')).toBeVisible();
    await expect(members.getByLabel('Add members by email')).toHaveValue('alan@example.org\nkatherine@example.org');
    await members.getByLabel('Add members by email').fill('');

    // Details are edited in place.
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByRole('button', { name: 'Edit details' }).click();
    await expect(details.getByLabel('Name')).toBeFocused();
    await details.getByLabel('Description').fill('How families cook on weekdays.');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect(details.getByText('How families cook on weekdays.')).toBeVisible();
    await expect(details.getByRole('button', { name: 'Edit details' })).toBeFocused();

    // A native survey from the published form.
    await page.getByRole('link', { name: 'New survey' }).first().click();
    await expect(page).toHaveURL(/\/surveys\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New survey' })).toBeVisible();
    await page.getByRole('button', { name: 'Create survey' }).click();
    // Every problem at once: the title and the form.
    await expect(page.getByText('Required').first()).toBeVisible();
    await expect(page.getByText('Choose a form')).toBeVisible();
    const surveyTitle = `How we cook ${tag}`;
    await page.getByLabel('Title', { exact: true }).fill(surveyTitle);
    await page.getByRole('searchbox', { name: 'Search published forms' }).fill(surveyForm);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Use this form “${surveyForm}”` }).click();
    await expect(page.getByRole('link', { name: surveyForm })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Version' })).toContainText('Version 1 (latest)');
    await page.getByLabel('Points').fill('25');
    await page.getByLabel('Estimated minutes').fill('5');
    await page.getByRole('group', { name: 'Closes at' }).getByLabel('Date').fill(`${year}-10-31`);
    await expect(page.getByRole('group', { name: 'Closes at' }).getByLabel('Time')).toHaveValue('23:59');
    await page.getByRole('radio', { name: 'Live' }).click();
    await page.screenshot({ path: `${SHOTS}/admin-survey-form-1280.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create survey' }).click();
    await expect(page).toHaveURL(/\/surveys\/\d+$/);
    const surveyUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name: surveyTitle })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Counts' })).toContainText('0 of 2 members submitted');
    await expect(page.getByText('No submitted responses yet')).toBeVisible();
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('radio', { name: 'Yes' })).toBeVisible();
    await page.getByRole('tab', { name: 'Responses' }).click();
    await expect(page.getByText('No responses yet')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', /responses\.csv\?status=all$/);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);

    // An Alchemer survey: the page gives the return URLs to paste into Alchemer.
    await page.goto(`${projectUrl}/surveys/new`);
    await page.getByLabel('Title', { exact: true }).fill(`Alchemer follow-up ${tag}`);
    await page.getByRole('radio', { name: 'An Alchemer survey' }).click();
    await page.getByLabel('Alchemer survey link').fill('http://survey.alchemer.com/s3/123/follow-up');
    await page.getByRole('button', { name: 'Create survey' }).click();
    await expect(page.getByText('Enter the survey’s https:// link')).toBeVisible();
    await page.getByLabel('Alchemer survey link').fill('https://survey.alchemer.com/s3/123/follow-up');
    await page.getByRole('switch', { name: 'Trust returns' }).click();
    await page.getByRole('button', { name: 'Create survey' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Alchemer follow-up ${tag}` })).toBeVisible();
    const alchemer = page.getByRole('region', { name: 'Alchemer setup' });
    await expect(alchemer.getByRole('textbox', { name: 'Return URL: Screened out' })).toHaveValue(
      /\/api\/surveys\/return\?status=screened_out&k=[A-Za-z0-9_-]{22}&pid=\[url\("pid"\)\]$/,
    );
    await expect(alchemer.getByRole('textbox', { name: 'Return URL: Finished (end of survey)' })).toHaveValue(/status=complete&k=/);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/admin-survey-external-1280.png`, fullPage: true });

    // A photo mission from the other form.
    await page.goto(projectUrl);
    await page.getByRole('link', { name: 'New mission' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'New mission' })).toBeVisible();
    const missionTitle = `Show us your fridge ${tag}`;
    await page.getByLabel('Title', { exact: true }).fill(missionTitle);
    await page.getByRole('textbox', { name: 'Instructions' }).fill('Open your fridge and take **one** photo.');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Preview' }).locator('strong')).toHaveText('one');
    await page.getByRole('tab', { name: 'Write' }).click();
    await page.getByRole('searchbox', { name: 'Search published forms' }).fill(photoForm);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Use this form “${photoForm}”` }).click();
    await page.getByLabel('Points').fill('40');
    await page.getByLabel('At most', { exact: true }).fill('3');
    await page.getByRole('switch', { name: 'Limit entries per day' }).click();
    await expect(page.getByLabel('At most this many a day')).toHaveValue('1');
    await page.getByRole('radio', { name: 'Live' }).click();
    await page.screenshot({ path: `${SHOTS}/admin-mission-form-1280.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create mission' }).click();
    await expect(page).toHaveURL(/\/missions\/\d+$/);
    const missionUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name: missionTitle })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('1–3 entries, at most 1 a day');
    await expect(page.getByText(/^Nothing waits for review./)).toBeVisible();

    // Both are listed on the project with their counts; a group orders the mission.
    await page.goto(projectUrl);
    const surveys = page.getByRole('region', { name: 'Surveys' });
    await expect(surveys.getByRole('link', { name: surveyTitle, exact: true })).toBeVisible();
    await expect(surveys).toContainText('0 of 2 members submitted');
    await expect(surveys).toContainText('25 points');
    const missions = page.getByRole('region', { name: 'Missions' });
    await expect(missions.getByRole('link', { name: missionTitle, exact: true })).toBeVisible();
    await expect(missions).toContainText('0 of 2 members submitted');
    const groups = page.getByRole('region', { name: 'Mission groups' });
    await groups.getByRole('button', { name: 'New mission group' }).first().click();
    const groupDialog = page.getByRole('dialog', { name: 'New mission group' });
    await groupDialog.getByLabel('Title').fill('Week one');
    await groupDialog.getByRole('combobox', { name: 'Add a mission' }).click();
    await page.getByRole('option', { name: missionTitle }).click();
    await groupDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await groupDialog.getByRole('radio', { name: 'In order' }).click();
    await groupDialog.getByRole('button', { name: 'Create group' }).click();
    await expect(groupDialog).toHaveCount(0);
    await expect(groups.getByRole('list', { name: 'Missions of “Week one”' })).toContainText(missionTitle);
    await expect(groups).toContainText('In order: each opens once the one before it is submitted');

    // The project goes live.
    await page.getByRole('region', { name: 'Details' }).getByRole('button', { name: 'Go live' }).click();
    await page.getByRole('group', { name: 'Confirm' }).getByRole('button', { name: 'Go live' }).click();
    await expect(page.getByRole('region', { name: 'Details' }).getByText('Members see its live surveys and missions.')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/admin-project-1280.png`, fullPage: true });

    // A member answers; the admin sees it in the results, the responses and the submissions.
    await memberTakesPart(origin, member, idOf(surveyUrl), idOf(missionUrl));
    await page.goto(surveyUrl);
    await expect(page.getByRole('region', { name: 'Counts' })).toContainText('1 of 2 members submitted');
    const question = page.getByRole('region', { name: /Do you cook at home\?/ });
    await expect(question.getByRole('table')).toContainText('Yes1100%');
    await expect(question.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(page.getByRole('region', { name: /How much do you enjoy it\?/ })).toContainText('Average4');
    await page.getByRole('tab', { name: 'Responses' }).click();
    await page.getByRole('button', { name: /^View the response of Grace Member/ }).click();
    const response = page.getByRole('dialog', { name: 'Grace Member' });
    await expect(response).toContainText('Do you cook at home?');
    await expect(response).toContainText('Yes');
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Results' }).click();
    // The results of one language: the member answered in English, so German has none.
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    await expect(page.getByText('No submitted responses in this language.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await expect(question.getByRole('table')).toContainText('Yes1100%');
    await page.screenshot({ path: `${SHOTS}/admin-survey-results-1280.png`, fullPage: true });

    await page.goto(missionUrl);
    await expect(page.getByRole('region', { name: 'Counts' })).toContainText('1 of 2 members submitted');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Submitted' }).click();
    await page.getByLabel('Participant').fill('grace');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByRole('region', { name: 'Queue' })).toContainText(member.email);
    await page.getByRole('button', { name: /^Open the entry of Grace Member/ }).click();
    const submission = page.getByRole('region', { name: 'Submission' });
    await expect(submission.getByRole('heading', { name: 'Grace Member', exact: true })).toBeVisible();
    await expect(submission).toContainText('A photo of your fridge');
    await expect(page).toHaveURL(/[?&]submission=\d+/);
    await submission.getByRole('button', { name: 'Photo 1 of 1' }).click();
    await expect(page.getByRole('dialog', { name: /Photo 1 of 1/ })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/admin-submission-lightbox-1280.png` });
    await page.keyboard.press('Escape');
    await expect(submission).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/admin-submission-1280.png` });

    // The dashboard lists the project with its counts.
    await page.goto('/admin');
    const row = page.getByRole('list', { name: 'Projects' }).getByRole('listitem').filter({ hasText: projectName });
    await expect(row).toContainText('Live');
    await expect(row).toContainText(`Sep 1, ${year} – Oct 31, ${year}`);
    await page.screenshot({ path: `${SHOTS}/admin-dashboard-1280.png`, fullPage: true });

    // The survey (its preview) and the mission, loaded afresh (no page transition in the picture).
    await page.goto(`${surveyUrl}#preview`);
    await expect(page.getByRole('region', { name: 'Preview' }).getByRole('radio', { name: 'Yes' })).toBeVisible();
    await expect(page.getByRole('link', { name: `${surveyForm}, version 1` })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/admin-survey-1280.png`, fullPage: true });
    await page.goto(missionUrl);
    await expect(page.getByRole('link', { name: `${photoForm}, version 1` })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/admin-mission-1280.png`, fullPage: true });

    // Phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin');
    await expect(page.getByRole('list', { name: 'Projects' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/admin-dashboard-390.png`, fullPage: true });
    for (const [name, url, heading] of [
      ['project', projectUrl, projectName],
      ['survey', surveyUrl, surveyTitle],
      ['mission', missionUrl, missionTitle],
      ['survey-edit', `${surveyUrl}/edit`, 'Edit survey'],
    ] as const) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      const { overflow, past } = await sideways(page);
      expect(overflow, `${name} scrolls sideways at 390 px: ${past.join('; ')}`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/admin-${name}-390.png`, fullPage: true });
    }
  });

  test('a survey’s and a mission’s own texts in other languages: added and removed in the editor, saved, read back', async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const tag = Date.now().toString(36);
    await signIn(page, origin, await createAccount('admin', 'Ada', 'Admin'));
    const formId = await publishedForm(page, origin, `Mornings ${tag}`, [{ id: 'why', type: 'short_text', title: 'Why?' }]);
    const headers = { Origin: origin, 'Content-Type': 'application/json' };
    const post = async (path: string, data: unknown) => {
      const res = await page.request.post(path, { headers, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: number };
    };
    const project = await post('/api/admin/projects', { name: `Languages ${tag}` });
    const survey = await post(`/api/admin/projects/${project.id}/surveys`, { title: 'Breakfast habits', kind: 'native', formId });
    const mission = await post(`/api/admin/projects/${project.id}/missions`, { title: 'Fridge photos', instructions: 'Open your **fridge**.', formId });
    const surveyEdit = `/admin/projects/${project.id}/surveys/${survey.id}/edit`;

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(surveyEdit);
    const section = page.getByRole('group', { name: 'Translations' });
    await expect(section).toContainText('No translations: every participant sees the texts as written.');
    await section.getByRole('button', { name: 'Add Deutsch' }).click();
    const germanTitle = section.getByLabel('Title (Deutsch)');
    await expect(germanTitle).toBeFocused();
    await expect(germanTitle).toHaveAttribute('lang', 'de');
    // No description as written yet: nothing to translate.
    const germanDescription = section.getByLabel('Description (Deutsch)');
    await expect(germanDescription).toBeDisabled();
    await expect(section.getByText('Add the text in the original language first.')).toBeVisible();
    await germanTitle.fill('Frühstücksgewohnheiten');
    await page.getByRole('textbox', { name: 'Description (optional)' }).fill('About your mornings.');
    await germanDescription.fill('Über Ihre Morgen.');
    await section.getByRole('button', { name: 'Add العربية' }).click();
    const arabicTitle = section.getByLabel('Title (العربية)');
    await expect(arabicTitle).toHaveAttribute('dir', 'rtl');
    await arabicTitle.fill('عادات الفطور');
    await section.getByRole('button', { name: 'Add Español' }).click();
    await section.getByRole('button', { name: 'Remove Español' }).click();
    await expect(section.getByLabel('Title (Español)')).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Add Español' })).toBeFocused();
    await section.screenshot({ path: `${SHOTS}/admin-survey-translations-1280.png` });
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/surveys/${survey.id}$`));
    const saved = await page.request.get(`/api/admin/surveys/${survey.id}`);
    expect(((await saved.json()) as { translations: unknown }).translations).toEqual({
      title: { de: 'Frühstücksgewohnheiten', ar: 'عادات الفطور' },
      description: { de: 'Über Ihre Morgen.' },
    });

    // Read back in the editor, at phone width, in English and in Arabic.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(surveyEdit);
    await expect(section.getByLabel('Title (Deutsch)')).toHaveValue('Frühstücksgewohnheiten');
    await expect(section.getByLabel('Description (Deutsch)')).toHaveValue('Über Ihre Morgen.');
    await expect(section.getByLabel('Description (العربية)')).toHaveValue('');
    const { overflow, past } = await sideways(page);
    expect(overflow, `the editor scrolls sideways at 390 px: ${past.join('; ')}`).toBeLessThanOrEqual(0);
    await section.screenshot({ path: `${SHOTS}/admin-survey-translations-390.png` });
    const arabic = await page.request.put('/api/account/language', { headers, data: { language: 'ar' } });
    expect(arabic.status(), await arabic.text()).toBe(200);
    await page.goto(`/ar${surveyEdit}`);
    const arabicSection = page.getByRole('group', { name: 'الترجمات' });
    await expect(arabicSection.getByLabel('العنوان (Deutsch)')).toHaveValue('Frühstücksgewohnheiten');
    await arabicSection.screenshot({ path: `${SHOTS}/admin-survey-translations-ar-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await arabicSection.screenshot({ path: `${SHOTS}/admin-survey-translations-ar-1280.png` });
    expect((await page.request.put('/api/account/language', { headers, data: { language: 'en' } })).status()).toBe(200);

    // A mission: the instructions translated as Markdown text.
    await page.goto(`/admin/projects/${project.id}/missions/${mission.id}/edit`);
    await section.getByRole('button', { name: 'Add Deutsch' }).click();
    await section.getByLabel('Instructions (Deutsch)').fill('Öffnen Sie Ihren **Kühlschrank**.');
    await section.screenshot({ path: `${SHOTS}/admin-mission-translations-1280.png` });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/missions/${mission.id}$`));
    const savedMission = await page.request.get(`/api/admin/missions/${mission.id}`);
    expect(((await savedMission.json()) as { translations: unknown }).translations).toEqual({ instructions: { de: 'Öffnen Sie Ihren **Kühlschrank**.' } });
  });
});
