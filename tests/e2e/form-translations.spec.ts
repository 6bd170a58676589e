/**
 * Translating a form in the builder (issue 31 §2; decision 035): a staff member adds Spanish in
 * the language bar, sees every text missing, translates them side by side, publishes without
 * being asked for a fallback, and the published version holds the Spanish texts; a source text
 * changed afterwards marks its translation outdated until it is saved again. Arabic is written
 * right to left in the editor and shown in the preview. Screenshots at 1280 and 390.
 *
 * A participant whose account speaks Spanish then sees the published version in Spanish.
 */
import type { Page } from '@playwright/test';
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, PHONE, SHOTS, jsonApi, openDialogWith, saveCookieChoice, seriousViolations } from './page-helpers.ts';

test.beforeEach(({ page }) => saveCookieChoice(page));

const definition = {
  schema: 'fieldwork.form/1',
  title: 'Getting to work',
  pages: [
    {
      id: 'page_1',
      title: '',
      elements: [
        { id: 'town', type: 'short_text', title: 'Where do you live?' },
        {
          id: 'how',
          type: 'single_choice',
          title: 'How do you travel?',
          options: [
            { id: 'bus', label: 'By bus' },
            { id: 'bike', label: 'By bike' },
          ],
        },
      ],
    },
  ],
};

/** Every text of the form, and its Spanish. */
const SPANISH: [string, string][] = [
  ['Getting to work', 'Ir al trabajo'],
  ['Where do you live?', '¿Dónde vives?'],
  ['How do you travel?', '¿Cómo viajas?'],
  ['By bus', 'En autobús'],
  ['By bike', 'En bicicleta'],
];

const bar = (page: Page) => page.getByRole('region', { name: 'Languages' });
const saved = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved$/ });

async function formWithTwoQuestions(page: Page, baseURL: string): Promise<number> {
  const api = jsonApi(page.request, baseURL);
  const form = await api<{ id: number }>('POST', '/api/admin/forms', { title: definition.title, definition });
  return form.id;
}

test.describe('translating a form', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a staff member adds Spanish, translates every text side by side, publishes, the version holds the translations, and a Spanish participant sees them', async ({
    page,
    baseURL,
    browser,
  }) => {
    const base = baseURL ?? '';
    await signIn(page, base, await createAccount('admin', 'Tina', 'Translator'));
    await page.setViewportSize(DESKTOP);
    const formId = await formWithTwoQuestions(page, base);
    await page.goto(`/admin/forms/${formId}`);

    // Only English so far: the source language may still change.
    await expect(bar(page).getByRole('combobox', { name: 'Source language' })).toHaveText('English');
    await bar(page).getByRole('button', { name: 'Add a language' }).click();
    await page.getByRole('menuitem', { name: 'Spanish' }).click();
    await expect(bar(page)).toContainText('English (source)');
    await expect(bar(page)).toContainText('Translated: 0 · Missing: 5 · Outdated: 0');
    await expect(saved(page)).toBeVisible();

    const editor = page.getByRole('dialog', { name: 'Translate into Spanish' });
    await openDialogWith(() => bar(page).getByRole('button', { name: 'Translate into Spanish' }).click(), editor);
    await expect(editor.getByText('Texts shown: 5 of 5')).toBeVisible();
    const first = editor.getByRole('textbox', { name: 'Spanish: Where do you live?' });
    await expect(first).toHaveAttribute('lang', 'es');
    await expect(first).toHaveAttribute('dir', 'ltr');
    await expect(editor.getByText('Where do you live?', { exact: true })).toHaveAttribute('lang', 'en');
    await expect(editor.getByText('Missing', { exact: true })).toHaveCount(5);
    await page.screenshot({ path: `${SHOTS}/translations-editor-1280.png` });
    expect(await seriousViolations(page)).toEqual([]);
    for (const [source, spanish] of SPANISH) await editor.getByRole('textbox', { name: `Spanish: ${source}` }).fill(spanish);
    await expect(editor.getByText('Missing', { exact: true })).toHaveCount(0);
    await expect(editor.getByRole('status')).toHaveText('Saved');
    await editor.getByRole('button', { name: 'Done' }).click();
    await expect(bar(page)).toContainText('Translated: 5 · Missing: 0 · Outdated: 0');
    await page.screenshot({ path: `${SHOTS}/translations-bar-1280.png` });
    expect(await seriousViolations(page)).toEqual([]);

    // Nothing is missing: publishing asks for no fallback.
    await expect(saved(page)).toBeVisible();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publish = page.getByRole('dialog', { name: 'Publish version 1' });
    await expect(publish.getByRole('button', { name: 'Publish version 1' })).toBeEnabled();
    await expect(publish.getByRole('heading', { name: 'Some texts are not translated' })).toHaveCount(0);
    await publish.getByRole('button', { name: 'Publish version 1' }).click();
    await expect(publish).toBeHidden();

    const api = jsonApi(page.request, base);
    const version = await api<{ definition: Record<string, unknown> }>('GET', `/api/admin/forms/${formId}/versions/1`);
    expect(version.definition).toMatchObject({
      language: 'en',
      languages: ['en', 'es'],
      translations: {
        'form.title': { es: 'Ir al trabajo' },
        'elements.town.title': { es: '¿Dónde vives?' },
        'elements.how.title': { es: '¿Cómo viajas?' },
        'elements.how.options.bus': { es: 'En autobús' },
        'elements.how.options.bike': { es: 'En bicicleta' },
      },
    });
    expect(version.definition.fallback).toBeUndefined();

    // A participant whose account speaks Spanish sees the published version in Spanish.
    const member = await createAccount('participant', 'Lucía', 'Moreno');
    const tag = Date.now().toString(36);
    const project = await api<{ id: number }>('POST', '/api/admin/projects', { name: `Commute ${tag}`, status: 'draft' });
    await api('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
    const survey = await api<{ id: number }>('POST', `/api/admin/projects/${project.id}/surveys`, {
      title: `Commute ${tag}`,
      kind: 'native',
      formId,
      points: 5,
      closesAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      status: 'live',
    });
    await api('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
    const participant = await browser.newContext({ baseURL: base });
    const spanish = await participant.newPage();
    await saveCookieChoice(spanish);
    await signIn(spanish, base, member);
    await jsonApi(participant.request, base)('PUT', '/api/account/language', { language: 'es' });
    await spanish.goto(`/es/surveys/${survey.id}`);
    await expect(spanish.locator('html')).toHaveAttribute('lang', 'es');
    await expect(spanish.getByText('¿Dónde vives?')).toBeVisible();
    await expect(spanish.getByRole('radio', { name: 'En autobús' })).toBeVisible();
    await participant.close();

    // A source text changes: its translation is outdated until it is saved again.
    await page.getByRole('article', { name: 'Where do you live?', exact: true }).getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('complementary', { name: 'Side panel' }).getByLabel('Question title').fill('Which town do you live in?');
    await expect(bar(page)).toContainText('Translated: 4 · Missing: 0 · Outdated: 1');
    await openDialogWith(() => bar(page).getByRole('button', { name: 'Translate into Spanish' }).click(), editor);
    await editor.getByRole('checkbox', { name: 'Only missing or outdated' }).click();
    await expect(editor.getByText('Texts shown: 1 of 5')).toBeVisible();
    await expect(editor.getByText('Outdated: the source text changed since')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/translations-outdated-1280.png` });
    await editor.getByRole('button', { name: 'The translation of “Which town do you live in?” is still correct' }).click();
    await expect(editor.getByText('Outdated: the source text changed since')).toHaveCount(0);
    // The text stays in the filtered list while it is being worked on.
    await expect(editor.getByRole('textbox', { name: 'Spanish: Which town do you live in?' })).toHaveValue('¿Dónde vives?');
    await editor.getByRole('button', { name: 'Done' }).click();
    await expect(bar(page)).toContainText('Translated: 5 · Missing: 0 · Outdated: 0');

    // Removing the language asks first.
    await bar(page).getByRole('button', { name: 'Remove Spanish' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Spanish?' });
    await expect(confirm).toContainText('translated texts: 5');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(bar(page)).toContainText('Spanish');
  });

  test('Arabic is translated right to left; the bar and the editor at phone width', async ({ page, baseURL }) => {
    const base = baseURL ?? '';
    await signIn(page, base, await createAccount('admin', 'Rami', 'Translator'));
    const formId = await formWithTwoQuestions(page, base);
    await page.setViewportSize(PHONE);
    await page.goto(`/admin/forms/${formId}`);
    await bar(page).getByRole('button', { name: 'Add a language' }).click();
    await page.getByRole('menuitem', { name: 'Arabic' }).click();
    await expect(bar(page)).toContainText('Translated: 0 · Missing: 5 · Outdated: 0');
    await page.screenshot({ path: `${SHOTS}/translations-bar-390.png` });
    const editor = page.getByRole('dialog', { name: 'Translate into Arabic' });
    await openDialogWith(() => bar(page).getByRole('button', { name: 'Translate into Arabic' }).click(), editor);
    const field = editor.getByRole('textbox', { name: 'Arabic: Where do you live?' });
    await expect(field).toHaveAttribute('lang', 'ar');
    await expect(field).toHaveAttribute('dir', 'rtl');
    await field.fill('أين تسكن؟');
    await expect(editor.getByRole('status')).toHaveText('Saved');
    await page.screenshot({ path: `${SHOTS}/translations-editor-390.png` });
    await editor.getByRole('button', { name: 'Done' }).click();
    await expect(bar(page)).toContainText('Translated: 1 · Missing: 4 · Outdated: 0');

    // The preview shows the form in Arabic where translated, else in English.
    await page.getByRole('heading', { level: 2, name: 'Preview' }).scrollIntoViewIfNeeded();
    await page.getByRole('group', { name: 'Language of the preview' }).getByRole('button', { name: 'Arabic' }).click();
    const preview = page.getByRole('region', { name: 'Preview at phone width' });
    await expect(preview.getByText('أين تسكن؟')).toBeVisible();
    await expect(preview.getByText('How do you travel?')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/translations-preview-390.png` });
  });
});
