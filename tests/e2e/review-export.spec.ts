/**
 * The review export (/admin/tools/export-reviews-unilever).
 *
 * An admin makes a live project with a product-review mission (rating, headline, review, would
 * recommend) through the API; two participants submit reviews, the admin approves one. On the
 * mission's edit screen the admin sets the product id ("Product id (GTIN, EAN or SKU)") and
 * saves. On the tool the admin picks the project and the mission (its product id shown, the
 * fields mapped by type), previews (one approved review, its row in the table), chooses Excel and
 * downloads: the workbook (read with exceljs) has Fieldwork's columns and the approved review.
 * The export is listed below. A moderator is told only admins can run the tool. Screenshots at
 * 1280×800 and 390×844 go to /tmp/shots/review-export-*.png.
 */
import { request as playwrightRequest, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { REVIEW_EXPORT_HEADER } from '../../src/shared/review-exports.ts';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS, sideways } from './page-helpers.ts';

test.use({ viewport: DESKTOP });

test.beforeEach(({ page }) => saveCookieChoice(page));

/** A live project with these members and a live review mission (100 points), made through the API. */
async function reviewProject(page: Page, baseURL: string, name: string, members: Account[]): Promise<{ id: number; missionId: number; missionTitle: string }> {
  const call = jsonApi(page.request, baseURL);
  const created = await call<{ id: number }>('POST', '/api/admin/projects', { name, client: 'Unilever', status: 'draft' });
  await call('POST', `/api/admin/projects/${created.id}/members`, { emails: members.map((member) => member.email) });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `${name} review form`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `${name} review form`,
      pages: [
        {
          id: 'p1',
          title: 'Your review',
          elements: [
            { id: 'stars', type: 'rating', title: 'How many stars?', max: 5, required: true },
            { id: 'headline', type: 'short_text', title: 'Headline' },
            { id: 'review', type: 'long_text', title: 'Your review', required: true },
            {
              id: 'recommend',
              type: 'single_choice',
              title: 'Would you recommend it?',
              options: [
                { id: 'yes', label: 'Yes' },
                { id: 'no', label: 'No' },
              ],
            },
          ],
        },
      ],
    },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const missionTitle = `${name} shampoo`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${created.id}/missions`, {
    title: missionTitle,
    instructions: 'Try the shampoo for a week, then review it.',
    formId: form.id,
    points: 100,
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${created.id}`, { status: 'live' });
  return { id: created.id, missionId: mission.id, missionTitle };
}

/** A participant submits a review through their own API session; its entry id. */
async function submitReview(baseURL: string, account: Account, missionId: number, answers: Record<string, unknown>): Promise<number> {
  const request = await playwrightRequest.newContext({ baseURL });
  try {
    await signInThroughApi(request, baseURL, account);
    const call = jsonApi(request, baseURL);
    const { id } = await call<{ id: number }>('POST', `/api/missions/${missionId}/entries`, { timeZone: 'UTC' });
    await call('PUT', `/api/missions/${missionId}/entries/${id}`, { answers });
    await call('POST', `/api/missions/${missionId}/entries/${id}/submit`, {});
    return id;
  } finally {
    await request.dispose();
  }
}

test.describe('the review export', () => {
  test.describe.configure({ timeout: 180_000 });

  test('an admin sets the product id, previews and downloads the reviews as Excel', async ({ page, baseURL, browser }) => {
    const origin = baseURL ?? '';
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    const admin = await createAccount('admin', 'Ada', 'Exporter');
    const ann = await createAccount('participant', 'Ann', `Reviewer ${tag}`);
    const bob = await createAccount('participant', 'Bob', `Waiting ${tag}`);
    await signIn(page, origin, admin);
    // Named to sort first in the project choice (other specs leave many projects).
    const project = await reviewProject(page, origin, `000 Review export ${tag}`, [ann, bob]);
    const approvedId = await submitReview(origin, ann, project.missionId, {
      stars: 4,
      headline: 'Silky',
      review: 'Left my hair soft and shiny.',
      recommend: 'yes',
    });
    await submitReview(origin, bob, project.missionId, { stars: 2, review: 'Not for me.', recommend: 'no' });
    await jsonApi(page.request, origin)('POST', `/api/admin/submissions/${approvedId}/review`, { decision: 'approve' });

    // The mission's edit screen: the product id.
    const productId = `8710447${tag
      .slice(-6)
      .replace(/[^0-9]/g, '1')
      .padStart(6, '0')}`;
    await page.goto(`/admin/projects/${project.id}/missions/${project.missionId}/edit`);
    const productField = page.getByLabel('Product id (GTIN, EAN or SKU)');
    await expect(productField).toBeVisible();
    await productField.fill(productId);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(async () => (await jsonApi(page.request, origin)<{ productId: string | null }>('GET', `/api/admin/missions/${project.missionId}`)).productId)
      .toBe(productId);

    // The tool: project, mission, preview.
    await page.goto('/admin/tools/export-reviews-unilever');
    await expect(page.getByRole('heading', { name: 'Export reviews', exact: true })).toBeVisible();
    // Never disabled without a reason (issue 28 §12): Preview says what is missing.
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText('Choose a project, then tick its missions.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: `000 Review export ${tag} (Unilever)` }).click();
    const missionBox = page.getByRole('checkbox', { name: project.missionTitle });
    await expect(missionBox).toBeVisible();
    await expect(page.getByText(`Product id ${productId}`)).toBeVisible();
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText('Choose at least one mission')).toBeVisible();
    await missionBox.check();
    const fields = page.getByRole('group', { name: `Fields of “${project.missionTitle}”` });
    await expect(fields.getByRole('combobox', { name: 'Rating' })).toHaveText('How many stars?');
    await expect(fields.getByRole('combobox', { name: 'Review text' })).toHaveText('Your review');
    await expect(fields.getByRole('combobox', { name: /Would recommend/ })).toHaveText('Would you recommend it?');

    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('heading', { name: '1 review, no problems' })).toBeVisible();
    const previewRow = page.getByRole('row').filter({ hasText: 'Left my hair soft and shiny.' });
    await expect(previewRow).toContainText(productId);
    await expect(previewRow).toContainText('Ann R.');
    await expect(page.getByText('Not for me.')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/review-export-desktop.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Excel, downloaded and read.
    await page.getByRole('radio', { name: /Excel/ }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^reviews-project-${project.id}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const file = await download.path();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Reviews');
    const values = (n: number) => ((sheet?.getRow(n).values ?? []) as unknown[]).slice(1);
    expect(values(1)).toEqual([...REVIEW_EXPORT_HEADER]);
    expect(sheet?.actualRowCount).toBe(2);
    const row = values(2);
    expect(row.slice(0, 8)).toEqual([`fw-${approvedId}`, approvedId, project.missionId, productId, 4, 'Silky', 'Left my hair soft and shiny.', 'Yes']);
    expect(row[REVIEW_EXPORT_HEADER.indexOf('Reviewer')]).toBe('Ann R.');
    expect(row[REVIEW_EXPORT_HEADER.indexOf('Status')]).toBe('approved');
    expect(row[REVIEW_EXPORT_HEADER.indexOf('Incentivized')]).toBe('Yes');
    await expect(page.getByRole('status').filter({ hasText: /Saved reviews-project-.*: 1 review\./ })).toBeVisible();

    // The record below.
    const history = page.getByRole('region', { name: 'Exports made' });
    await expect(
      history
        .getByRole('row')
        .filter({ hasText: `000 Review export ${tag}` })
        .first(),
    ).toContainText('Excel');

    await page.setViewportSize(PHONE);
    expect(await sideways(page), 'nothing sticks out sideways on a phone').toEqual({ overflow: 0, past: [] });
    await page.screenshot({ path: `${SHOTS}/review-export-phone.png`, fullPage: true });

    // A moderator is told the tool is for admins.
    const moderator = await createAccount('moderator', 'Mo', 'Derator');
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const other = await context.newPage();
      await saveCookieChoice(other);
      await signIn(other, origin, moderator);
      await other.goto('/admin/tools/export-reviews-unilever');
      await expect(other.getByText('Only admins can run this tool')).toBeVisible();
    } finally {
      await context.close();
    }
  });
});
