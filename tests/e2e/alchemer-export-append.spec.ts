/**
 * Alchemer export append (`/admin/tools/alchemer-export-append`, decision 016): an admin drops a
 * client's Alchemer export on the screen, sees the proposed id column with its matches, chooses
 * profile fields, downloads the appended file and reads its counts; the test opens the downloaded
 * file and checks it: the client's bytes unchanged, the fields appended, the unknown row flagged.
 * A moderator is told the tool is for admins. axe finds nothing serious; screenshots at 1280×800
 * and 390×844 go to /tmp/shots.
 */
import fs from 'node:fs';
import { createAccount, signIn, signInThroughApi } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, PHONE, saveCookieChoice, seriousViolations, SHOTS, sideways } from './page-helpers.ts';

test.beforeEach(({ page }) => saveCookieChoice(page));

test.describe('Alchemer export append', () => {
  test.describe.configure({ timeout: 120_000 });

  test('an admin appends profile fields to an Alchemer export and opens the download', async ({ page, baseURL, browser }) => {
    const origin = baseURL ?? '';
    const tag = Date.now().toString(36);
    const json = { Origin: origin, 'Content-Type': 'application/json' };
    await signIn(page, origin, await createAccount('admin', 'Ada', 'Admin'));

    // A live project with an external survey, and a member who started it (their reference, pid).
    const project = await page.request.post('/api/admin/projects', { headers: json, data: { name: `Export study ${tag}`, status: 'live' } });
    expect(project.status(), await project.text()).toBe(201);
    const { id: projectId } = (await project.json()) as { id: number };
    const survey = await page.request.post(`/api/admin/projects/${projectId}/surveys`, {
      headers: json,
      data: { title: `Export tracker ${tag}`, kind: 'external', externalUrl: 'https://survey.alchemer.com/s3/1234567/Tracker', points: 30, status: 'live' },
    });
    expect(survey.status(), await survey.text()).toBe(201);
    const { id: surveyId } = (await survey.json()) as { id: number };
    const member = await createAccount('participant', 'Chloé', `Export-${tag}`);
    const added = await page.request.post(`/api/admin/projects/${projectId}/members`, { headers: json, data: { emails: [member.email] } });
    expect(added.status(), await added.text()).toBe(200);
    const memberContext = await browser.newContext({ baseURL: origin });
    await signInThroughApi(memberContext.request, origin, member);
    const started = await memberContext.request.get(`/api/surveys/${surveyId}/start`, { maxRedirects: 0 });
    expect(started.status()).toBe(302);
    const pid = new URL(started.headers().location ?? '').searchParams.get('pid') ?? '';
    expect(pid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await memberContext.close();

    // The client's export: BOM, CRLF, a quoted multi-line cell, a repeated header, a formula-looking cell of theirs, one unknown reference.
    const lines = [
      'Response ID,Time Started,Status,Other:Meals,Other:Meals,URL Variable: pid',
      `101,"Mar 3, 2026 9:14:02 am",Complete,Other,"Toast,\r\nthen tea",${pid}`,
      '102,"Mar 3, 2026 9:20:40 am",Partial,,=1+1,not-a-fieldwork-reference-at-all-000000000',
    ];
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);

    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/tools/alchemer-export-append');
    await expect(page.getByRole('heading', { level: 1, name: 'Alchemer export append' })).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles({ name: `Tracker ${tag}.csv`, mimeType: 'text/csv', buffer: original });

    // The preview: format, encoding, rows, the proposed id column with its matches.
    const what = page.getByRole('region', { name: '2. What to append' });
    await expect(what.getByText('UTF-8 with byte order mark')).toBeVisible();
    await expect(what.getByRole('combobox', { name: 'Column with the participant reference' })).toHaveText(/URL Variable: pid/);
    await expect(what.getByText('1 of 2 sampled values match a Fieldwork reference')).toBeVisible();
    await what.getByRole('checkbox', { name: 'Email' }).click(); // off (on by default)
    await what.getByRole('checkbox', { name: 'Projects' }).click();
    await expect(what.getByRole('checkbox', { name: 'First name' })).toBeChecked();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/alchemer-export-append-1280.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), what.getByRole('button', { name: 'Download appended file' }).click()]);
    expect(download.suggestedFilename()).toBe(`Tracker ${tag} (Fieldwork).csv`);
    const saved = fs.readFileSync((await download.path()) ?? '');
    const expected = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        [
          `${lines[0]},Fieldwork: First name,Fieldwork: Last name,Fieldwork: Projects,Fieldwork: Match`,
          `${lines[1]},Chloé,Export-${tag},Export study ${tag},Matched`,
          `${lines[2]},,,,No match`,
          '',
        ].join('\r\n'),
        'utf8',
      ),
    ]);
    expect(saved.toString('utf8')).toBe(expected.toString('utf8'));
    expect(saved.equals(expected)).toBe(true);

    // The summary.
    const done = page.getByRole('region', { name: '3. Done' });
    await expect(done.getByText(`Saved as Tracker ${tag} (Fieldwork).csv.`)).toBeVisible();
    await expect(done.getByText('1 row matched a participant; 1 row flagged “No match”.')).toBeVisible();

    await page.setViewportSize(PHONE);
    expect(await sideways(page), 'nothing sticks out sideways on a phone').toEqual({ overflow: 0, past: [] });
    await page.screenshot({ path: `${SHOTS}/alchemer-export-append-390.png`, fullPage: true });
  });

  test('a moderator is told the tool is for admins', async ({ page, baseURL }) => {
    await signIn(page, baseURL ?? '', await createAccount('moderator', 'Mo', 'Derator'));
    await page.goto('/admin/tools/alchemer-export-append');
    await expect(page.getByText('Only admins can run this tool')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose the export file' })).toHaveCount(0);
  });
});
