/**
 * Forms that answer something: once a version has answers, publishing a version
 * that removes a question asks for an explicit confirmation listing the change, and a form a live
 * survey uses cannot be archived (the list says where it is used). The survey, its project and
 * the answer are set up through the API; the admin works in the screens.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { request as playwrightRequest } from '@playwright/test';
import { createAccount, signIn, signInThroughApi } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { saveCookieChoice } from './page-helpers.ts';

test.beforeEach(({ page }) => saveCookieChoice(page));

async function call<T>(api: APIRequestContext, baseURL: string, method: 'POST' | 'PUT' | 'PATCH', path: string, data: unknown, status: number): Promise<T> {
  const res = await api.fetch(path, { method, headers: { Origin: baseURL, 'Content-Type': 'application/json' }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

const definition = {
  schema: 'fieldwork.form/1',
  title: 'Snack check',
  pages: [
    {
      id: 'page_1',
      title: '',
      elements: [
        {
          id: 'snack',
          type: 'single_choice',
          title: 'Did you snack today?',
          required: true,
          options: [
            { id: 'yes', label: 'Yes' },
            { id: 'no', label: 'No' },
          ],
        },
        { id: 'what', type: 'short_text', title: 'What did you eat?' },
      ],
    },
  ],
};

async function publishedFormWithAnswer(page: Page, baseURL: string): Promise<{ formId: number; formTitle: string; surveyTitle: string }> {
  const api = page.request;
  const formTitle = `Snack check ${Date.now().toString(36)}`;
  const form = await call<{ id: number }>(api, baseURL, 'POST', '/api/admin/forms', { title: formTitle, definition }, 201);
  await call(api, baseURL, 'POST', `/api/admin/forms/${form.id}/publish`, {}, 201);
  const project = await call<{ id: number }>(api, baseURL, 'POST', '/api/admin/projects', { name: 'Snacks study', status: 'live' }, 201);
  const participant = await createAccount('participant', 'Sam', 'Snacker');
  await call(api, baseURL, 'POST', `/api/admin/projects/${project.id}/members`, { emails: [participant.email] }, 200);
  const surveyTitle = `Snack survey ${Date.now().toString(36)}`;
  const survey = await call<{ id: number }>(
    api,
    baseURL,
    'POST',
    `/api/admin/projects/${project.id}/surveys`,
    { title: surveyTitle, kind: 'native', formId: form.id, status: 'live' },
    201,
  );
  // The participant answers version 1.
  const theirs = await playwrightRequest.newContext({ baseURL });
  try {
    await signInThroughApi(theirs, baseURL, participant);
    await call(theirs, baseURL, 'POST', `/api/surveys/${survey.id}/response/submit`, { answers: { snack: 'yes', what: 'An apple' } }, 200);
  } finally {
    await theirs.dispose();
  }
  return { formId: form.id, formTitle, surveyTitle };
}

test('removing a question that has answers needs an explicit confirmation; a form in use cannot be archived', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  await signIn(page, base, await createAccount('admin', 'Ada', 'Builder'));
  const { formId, formTitle, surveyTitle } = await publishedFormWithAnswer(page, base);

  await page.goto(`/admin/forms/${formId}`);
  const what = page.getByRole('article', { name: 'What did you eat?', exact: true });
  await what.getByRole('button', { name: 'Delete' }).click();
  await expect(what).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish version 2' });
  await expect(dialog.getByText('Some changes affect answers already given')).toBeVisible();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'what' }).first()).toBeVisible();
  await expect(dialog.getByText('Affects answers')).toBeVisible();
  await dialog.getByRole('button', { name: 'Publish and accept these changes' }).click();
  await expect(page.getByRole('region', { name: 'Notification (F8)' }).getByText('Version 2 published')).toBeVisible();

  // The list says where the form is used, and archiving it is refused with the reason.
  await page.goto('/admin/forms');
  const row = page.getByRole('list', { name: 'Forms' }).getByRole('listitem').filter({ hasText: formTitle }).first();
  await expect(row.getByText(`Survey “${surveyTitle}” (version 1, live)`)).toBeVisible();
  await row.getByRole('button', { name: /^Archive/ }).click();
  await page.getByRole('button', { name: 'Archive', exact: true }).last().click();
  await expect(row.getByText(/in use|used by/i).first()).toBeVisible();
  await expect(row.getByRole('link', { name: surveyTitle }).first()).toBeVisible();
});
