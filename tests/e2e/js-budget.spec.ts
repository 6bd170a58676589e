/**
 * The JavaScript budget of a participant's survey screen: at most 150 KB gzip in total,
 * counted as the browser loads it — every script the page fetches until the form is on screen and
 * the network is quiet, each body gzipped (level 9) the way a gzip-only server would send it.
 */
import zlib from 'node:zlib';
import type { Page, Response } from '@playwright/test';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';

const BUDGET_BYTES = 150_000;

async function call<T>(page: Page, baseURL: string, path: string, data: unknown, status: number): Promise<T> {
  const res = await page.request.post(path, { headers: { Origin: baseURL, 'Content-Type': 'application/json' }, data });
  expect(res.status(), `POST ${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/** A live native survey of two pages, with `member` in its live project. */
async function surveyFor(page: Page, baseURL: string, member: Account): Promise<number> {
  const definition = {
    schema: 'fieldwork.form/1',
    title: 'Budget check',
    pages: [
      { id: 'one', title: 'About you', elements: [{ id: 'mood', type: 'rating', title: 'How are you today?', max: 5, required: true }] },
      { id: 'two', title: 'More', elements: [{ id: 'why', type: 'long_text', title: 'Why?' }] },
    ],
  };
  const form = await call<{ id: number }>(page, baseURL, '/api/admin/forms', { title: 'Budget check', definition }, 201);
  await call(page, baseURL, `/api/admin/forms/${form.id}/publish`, {}, 201);
  const project = await call<{ id: number }>(page, baseURL, '/api/admin/projects', { name: 'Budget study', status: 'live' }, 201);
  await call(page, baseURL, `/api/admin/projects/${project.id}/members`, { emails: [member.email] }, 200);
  const survey = await call<{ id: number }>(
    page,
    baseURL,
    `/api/admin/projects/${project.id}/surveys`,
    { title: 'Budget survey', kind: 'native', formId: form.id, status: 'live' },
    201,
  );
  return survey.id;
}

async function scriptBytes(page: Page, url: string): Promise<{ total: number; files: string[] }> {
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') responses.push(response);
  });
  await page.goto(url);
  await expect(page.getByRole('radiogroup', { name: /How are you today/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  let total = 0;
  const files: string[] = [];
  for (const response of responses) {
    // A worker that has already closed (the Intl warm-up's, decision 039) leaves no body to read: its file is fetched again to be counted.
    const body = await response.body().catch(async () => (await page.request.get(response.url())).body());
    const gzip = zlib.gzipSync(body, { level: 9 }).length;
    total += gzip;
    files.push(`${gzip} ${new URL(response.url()).pathname}`);
  }
  return { total, files };
}

test('a participant’s survey screen loads at most 150 KB of JavaScript (gzip), first visit or not', async ({ page, browser, baseURL }) => {
  const base = baseURL ?? '';
  const member = await createAccount('participant', 'Bea', 'Budget');
  await signIn(page, base, await createAccount('admin'));
  const surveyId = await surveyFor(page, base, member);

  for (const firstVisit of [false, true]) {
    const context = await browser.newContext({ baseURL: base });
    try {
      const theirs = await context.newPage();
      if (!firstVisit)
        await theirs.addInitScript(() =>
          localStorage.setItem('fieldwork-cookie-consent', JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false })),
        );
      await signInThroughApi(context.request, base, member);
      const { total, files } = await scriptBytes(theirs, `/surveys/${surveyId}`);
      test.info().annotations.push({
        type: 'survey screen JavaScript (gzip)',
        description: `${firstVisit ? 'first visit' : 'returning'}: ${total} bytes in ${files.length} scripts`,
      });
      expect(total, `${firstVisit ? 'first visit' : 'returning'}: ${total} bytes\n${files.join('\n')}`).toBeLessThanOrEqual(BUDGET_BYTES);
    } finally {
      await context.close();
    }
  }
});
