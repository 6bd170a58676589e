/**
 * The Alchemer setup panel of an external survey (`docs/alchemer.md`): the three return links as
 * the API gives them, each with its Copy button, the webhook URL, and the webhook secret — made
 * with the keyboard, shown once (gone after a reload), replaced only after a confirmation, the old
 * one refused from then on. axe finds nothing serious; a screenshot at 1280×800 goes to /tmp/shots.
 */
import type { AdminSurvey } from '../../src/shared/surveys.ts';
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { saveCookieChoice, seriousViolations } from './page-helpers.ts';

const SHOTS = '/tmp/shots';

test.beforeEach(({ page }) => saveCookieChoice(page));

test.describe('Alchemer setup', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the setup screen shows one return link per outcome and the webhook, and the webhook secret once', async ({ page, baseURL, context }) => {
    const origin = baseURL ?? '';
    const tag = Date.now().toString(36);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await signIn(page, origin, await createAccount('admin', 'Ada', 'Admin'));
    const json = { Origin: origin, 'Content-Type': 'application/json' };
    const project = await page.request.post('/api/admin/projects', { headers: json, data: { name: `Panel study ${tag}`, status: 'live' } });
    expect(project.status(), await project.text()).toBe(201);
    const { id: projectId } = (await project.json()) as { id: number };
    const created = await page.request.post(`/api/admin/projects/${projectId}/surveys`, {
      headers: json,
      data: {
        title: `Brand tracker ${tag}`,
        kind: 'external',
        externalUrl: 'https://survey.alchemer.com/s3/7654321/Brand-tracker',
        points: 40,
        status: 'live',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const survey = (await created.json()) as AdminSurvey;
    const links = survey.returnLinks;
    if (!links || !survey.webhook) throw new Error('an external survey has return links and a webhook');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/admin/projects/${projectId}/surveys/${survey.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Brand tracker ${tag}` })).toBeVisible();
    const setup = page.getByRole('region', { name: 'Alchemer setup' });

    // One link per outcome, as the API gives them: the key of its outcome, the pid merge code last.
    const returnLinks = setup.getByRole('list', { name: 'Return links' });
    await expect(returnLinks.getByRole('textbox', { name: 'Return URL: Finished (end of survey)' })).toHaveValue(links.complete);
    await expect(returnLinks.getByRole('textbox', { name: 'Return URL: Screened out' })).toHaveValue(links.screened_out);
    await expect(returnLinks.getByRole('textbox', { name: 'Return URL: Over quota' })).toHaveValue(links.over_quota);
    expect(links.complete).toMatch(/\/api\/surveys\/return\?status=complete&k=[A-Za-z0-9_-]{22}&pid=\[url\("pid"\)\]$/);
    await returnLinks.getByRole('button', { name: 'Copy Return URL: Finished (end of survey)' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Return URL: Finished (end of survey) copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(links.complete);

    // The webhook: its URL, no secret yet.
    const webhook = setup.getByRole('region', { name: 'Webhook' });
    await expect(webhook.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(`${origin}/api/surveys/${survey.id}/webhook`);
    await expect(webhook.getByText('No secret yet')).toBeVisible();
    await expect(webhook.getByRole('textbox', { name: 'Webhook secret' })).toHaveCount(0);

    // Made with the keyboard; shown once.
    await webhook.getByRole('button', { name: 'Create webhook secret' }).focus();
    await page.keyboard.press('Enter');
    await expect(webhook.getByRole('status').filter({ hasText: 'Webhook secret made' })).toBeVisible();
    const secretField = webhook.getByRole('textbox', { name: 'Webhook secret' });
    await expect(secretField).toHaveValue(/^[A-Za-z0-9_-]{43}$/);
    const secret = await secretField.inputValue();
    await expect(webhook.getByText('Secret made', { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/admin-survey-alchemer-1280.png`, fullPage: true });

    // Alchemer's webhook with it is let in (an unknown pid: 404, not 401), with no Origin.
    const hook = (withSecret: string) =>
      page.request.post(`/api/surveys/${survey.id}/webhook`, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        data: new URLSearchParams({ pid: 'not-a-reference', status: 'complete', secret: withSecret }).toString(),
      });
    expect((await hook(secret)).status()).toBe(404);

    // After a reload the secret is not shown again.
    await page.reload();
    await expect(webhook.getByText('Secret made', { exact: true })).toBeVisible();
    await expect(webhook.getByRole('textbox', { name: 'Webhook secret' })).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);

    // Replacing asks first; Cancel changes nothing.
    await webhook.getByRole('button', { name: 'Replace secret' }).click();
    const confirm = webhook.getByRole('group', { name: 'Confirm' });
    await expect(confirm).toContainText('Replace the secret?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect((await hook(secret)).status()).toBe(404);
    await webhook.getByRole('button', { name: 'Replace secret' }).click();
    // The confirmation takes the focus: Enter replaces.
    await expect(confirm.getByRole('button', { name: 'Replace secret' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(webhook.getByRole('textbox', { name: 'Webhook secret' })).toHaveValue(/^[A-Za-z0-9_-]{43}$/);
    const replaced = await webhook.getByRole('textbox', { name: 'Webhook secret' }).inputValue();
    expect(replaced).not.toBe(secret);
    expect((await hook(secret)).status()).toBe(401);
    expect((await hook(replaced)).status()).toBe(404);
  });
});
