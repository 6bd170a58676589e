/**
 * Content in several languages, the participant's half (issue 31 §2; decision 035): a participant
 * whose account speaks Arabic opens a survey whose form version offers English and Arabic (source
 * English, every text translated): the questions show in Arabic, right to left. Midway they switch
 * to English: the questions show in English, the page and every answer stay; they finish and
 * submit, and the submit says the answers were given in English. axe on the Arabic survey;
 * screenshots at 390×844 (Arabic, then switched to English) in /tmp/shots/.
 */
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS } from './page-helpers.ts';
import type { APIRequestContext } from '@playwright/test';

/** Two pages, every text translated into Arabic. */
function bilingual(title: string) {
  return {
    schema: 'fieldwork.form/1',
    title,
    language: 'en',
    languages: ['en', 'ar'],
    pages: [
      {
        id: 'morning',
        title: 'Your morning',
        elements: [
          { id: 'drink', type: 'short_text', title: 'What do you drink first?', required: true },
          {
            id: 'mood',
            type: 'single_choice',
            title: 'How do you feel?',
            options: [
              { id: 'good', label: 'Good' },
              { id: 'tired', label: 'Tired' },
            ],
          },
        ],
      },
      { id: 'food', title: 'Your food', elements: [{ id: 'eat', type: 'long_text', title: 'What do you eat?' }] },
    ],
    translations: {
      'form.title': { ar: 'الصباح' },
      'pages.morning.title': { ar: 'صباحك' },
      'elements.drink.title': { ar: 'ماذا تشرب أولًا؟' },
      'elements.mood.title': { ar: 'كيف تشعر؟' },
      'elements.mood.options.good': { ar: 'بخير' },
      'elements.mood.options.tired': { ar: 'متعب' },
      'pages.food.title': { ar: 'طعامك' },
      'elements.eat.title': { ar: 'ماذا تأكل؟' },
    },
  };
}

/** A live project with the member and a live native survey on the bilingual form. */
async function setUp(request: APIRequestContext, baseURL: string, member: Account): Promise<number> {
  const call = jsonApi(request, baseURL);
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Languages ${tag}`, status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', { title: `Mornings ${tag}`, definition: bilingual(`Mornings ${tag}`) });
  // Every text is translated: publishing needs no fallback.
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const survey = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/surveys`, {
    title: `Mornings survey ${tag}`,
    description: 'Three questions.',
    kind: 'native',
    formId: form.id,
    points: 10,
    closesAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return survey.id;
}

test('a participant in Arabic answers a survey in Arabic, switches to English midway keeping every answer, and submits in English', async ({
  page,
  baseURL,
  playwright,
}) => {
  const origin = baseURL ?? '';
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const member = await createAccount('participant', 'Layla', 'Haddad');
  const adminRequest = await playwright.request.newContext({ baseURL: origin });
  await signInThroughApi(adminRequest, origin, admin);
  const surveyId = await setUp(adminRequest, origin, member);

  await saveCookieChoice(page);
  await page.setViewportSize(PHONE);
  await signIn(page, origin, member);
  await jsonApi(page.context().request, origin)('PUT', '/api/account/language', { language: 'ar' });

  await page.goto(`/ar/surveys/${surveyId}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const form = page.locator('form[aria-labelledby]');
  await expect(page.getByRole('heading', { level: 2, name: 'صباحك' })).toBeVisible();
  await expect(form).toHaveAttribute('lang', 'ar');
  await expect(form).toHaveAttribute('dir', 'rtl');
  const picker = page.getByRole('combobox', { name: 'لغة الأسئلة' });
  await expect(picker).toHaveValue('ar');
  await expect(picker.locator('option[value="en"]')).toHaveAttribute('lang', 'en');

  // The first page, in Arabic.
  await page.getByRole('textbox', { name: /ماذا تشرب أولًا/ }).fill('شاي');
  await page.getByRole('radio', { name: 'متعب' }).check();
  await expect(page.getByText('تم الحفظ', { exact: true })).toBeVisible({ timeout: 15_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/content-language-ar-390.png`, fullPage: true });

  // Midway, to English: the same page, the answers still there; the switch is saved with the language.
  const switched = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith(`/api/surveys/${surveyId}/response`));
  await picker.selectOption('en');
  expect((await switched).postDataJSON()).toMatchObject({ answers: { drink: 'شاي', mood: 'tired' }, language: 'en' });
  await expect(page.getByRole('heading', { level: 2, name: 'Your morning' })).toBeVisible();
  await expect(form).toHaveAttribute('lang', 'en');
  await expect(form).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('textbox', { name: /What do you drink first/ })).toHaveValue('شاي');
  await expect(page.getByRole('radio', { name: 'Tired' })).toBeChecked();
  // The renderer's own words stay in the interface's language.
  await expect(page.getByRole('button', { name: 'التالي' })).toBeVisible();
  await expect(page.getByText('تم الحفظ', { exact: true })).toBeVisible({ timeout: 15_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/content-language-ar-switched-en-390.png`, fullPage: true });

  // The rest in English, then submitted.
  await page.getByRole('button', { name: 'التالي' }).click();
  await page.getByRole('textbox', { name: /What do you eat/ }).fill('Bread and olives');
  const submitted = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith(`/api/surveys/${surveyId}/response/submit`));
  await page.getByRole('button', { name: 'إرسال' }).click();
  expect((await submitted).postDataJSON()).toMatchObject({ answers: { drink: 'شاي', mood: 'tired', eat: 'Bread and olives' }, language: 'en' });
  await expect(page.getByRole('heading', { name: 'شكرًا — وصلتنا إجاباتك' })).toBeVisible();

  // The response as staff see it: submitted, with its answers (and its language, once the server records it).
  const responses = await jsonApi(adminRequest, origin)<{ items: { status: string; answers: Record<string, unknown>; language?: string | null }[] }>(
    'GET',
    `/api/admin/surveys/${surveyId}/responses`,
  );
  expect(responses.items).toHaveLength(1);
  expect(responses.items[0]).toMatchObject({ status: 'submitted', answers: { drink: 'شاي', mood: 'tired', eat: 'Bread and olives' } });
  if (responses.items[0] && 'language' in responses.items[0]) expect(responses.items[0].language).toBe('en');
  await adminRequest.dispose();
});
