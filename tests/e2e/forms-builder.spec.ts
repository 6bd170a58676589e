/**
 * The forms screens as admins use them: the list (/admin/forms) and the builder
 * (/admin/forms/{id}). A two-page form with a condition is built once with the mouse and once with
 * the keyboard only, tried in the phone-width preview, published twice; autosave survives a
 * reload; a conflicting save is resolved; the list searches, duplicates, archives and restores;
 * moderators may use it, participants may not; axe finds nothing serious.
 */
import type { Locator, Page } from '@playwright/test';
import { createAccount, signIn, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { openDialogWith, saveCookieChoice, seriousViolations } from './page-helpers.ts';

const SHOTS = '/tmp/shots';

test.beforeEach(({ page }) => saveCookieChoice(page));

/** Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 250 } = {}): Promise<void> {
  for (let presses = 0; presses <= max; presses++) {
    const focused = await target.evaluate((element) => element === document.activeElement, undefined, { timeout: 2_000 }).catch(() => false);
    if (focused) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target.toString()} was not reached with the keyboard`);
}

/** Replaces the text of the focused field by typing. */
async function typeInto(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

async function signedIn(page: Page, baseURL: string | undefined, role: Account['role'] = 'admin'): Promise<Account> {
  const account = await createAccount(role, 'Ada', 'Builder');
  await signIn(page, baseURL ?? '', account);
  return account;
}

/** Creates a form through the API and returns its id. */
async function createForm(page: Page, baseURL: string | undefined, title: string): Promise<number> {
  const res = await page.request.post('/api/admin/forms', { headers: { Origin: baseURL ?? '', 'Content-Type': 'application/json' }, data: { title } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Side panel' });
const phone = (page: Page) => page.getByRole('region', { name: 'Preview at phone width' });
const toolbar = (page: Page) => page.getByRole('region', { name: 'Form actions' });
const toasts = (page: Page) => page.getByRole('region', { name: /^Notification/ });
const saved = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved$/ });

test.describe('the form builder', () => {
  test.describe.configure({ timeout: 180_000 });

  test('an admin builds a two-page form with a condition by mouse, previews it on a phone width, publishes two versions', async ({ page, baseURL }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin/forms');
    const title = `Dog walking ${Date.now().toString(36)}`;
    const dialog = page.getByRole('dialog', { name: 'New form' });
    await openDialogWith(() => page.getByRole('button', { name: 'New form' }).first().click(), dialog);
    // The title is required.
    await dialog.getByRole('button', { name: 'Create form' }).click();
    await expect(dialog.getByText('Required')).toBeVisible();
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: 'Create form' }).click();
    await expect(page).toHaveURL(/\/admin\/forms\/\d+$/);
    await expect(page.getByLabel('Form title')).toHaveValue(title);

    // Page 1: a single choice and a short text shown only when the answer is Yes.
    await page.getByRole('button', { name: 'Add Single choice' }).click();
    const side = panel(page);
    await side.getByLabel('Question title').fill('Do you have a dog?');
    await side.getByRole('textbox', { name: 'Option 1' }).fill('Yes');
    await side.getByRole('textbox', { name: 'Option 2' }).fill('No');
    await side.getByRole('checkbox', { name: 'Required' }).click();
    await expect(card(page, 'Do you have a dog?')).toContainText('Required');
    // The id is editable before the first publish; a bad one is explained and not applied.
    const idField = side.getByRole('textbox', { name: 'Id' });
    await idField.fill('');
    await expect(idField).toHaveAccessibleDescription(/Required/);
    await idField.pressSequentially('has_dog');
    await expect(idField).toBeFocused();
    await expect(card(page, 'Do you have a dog?')).toContainText('has_dog');

    await page.getByRole('button', { name: 'Add Short text' }).click();
    await side.getByLabel('Question title').fill("What is your dog's name?");
    await side.getByRole('button', { name: 'Add a condition' }).click();
    const rule = side.getByRole('group', { name: 'Rule 1' });
    await expect(rule.getByRole('combobox', { name: 'Question' })).toContainText('Do you have a dog?');
    await rule.getByRole('combobox', { name: 'Value' }).click();
    await page.getByRole('option', { name: 'No' }).click();
    await expect(card(page, "What is your dog's name?")).toContainText('Shown when “Do you have a dog?” is “No”');
    await rule.getByRole('combobox', { name: 'Value' }).click();
    await page.getByRole('option', { name: 'Yes' }).click();
    await expect(card(page, "What is your dog's name?")).toContainText('Shown when “Do you have a dog?” is “Yes”');

    // Page 2 with a number question.
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByRole('button', { name: 'Add Number' }).click();
    await side.getByLabel('Question title').fill('How many walks a day?');
    await page.getByRole('region', { name: 'Page 2' }).getByRole('button', { name: 'Page settings' }).click();
    await side.getByLabel('Page title').fill('Walks');
    await expect(page.getByRole('heading', { level: 2, name: 'Page 2: Walks' })).toBeVisible();
    await expect(saved(page)).toBeVisible();

    // The preview at phone width follows the condition.
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = phone(page);
    const box = await preview.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(402);
    await expect(preview.getByRole('textbox', { name: /What is your dog's name/ })).toHaveCount(0);
    await preview.getByRole('radio', { name: 'Yes' }).check();
    await expect(preview.getByRole('textbox', { name: /What is your dog's name/ })).toBeVisible();
    await preview.getByRole('radio', { name: 'No' }).check();
    await expect(preview.getByRole('textbox', { name: /What is your dog's name/ })).toHaveCount(0);
    await preview.getByRole('button', { name: 'Next' }).click();
    await expect(preview.getByRole('heading', { name: 'Walks' })).toBeVisible();
    await preview.getByRole('textbox', { name: /How many walks a day/ }).fill('3');
    await preview.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Preview only: nothing was sent')).toBeVisible();
    await expect(page.getByLabel('The answers it would send')).toContainText('"number_1": 3');
    await page.getByRole('button', { name: 'Restart preview' }).click();
    await expect(page.getByText('Preview only: nothing was sent')).toHaveCount(0);
    await expect(preview.getByRole('radio', { name: 'Yes' })).not.toBeChecked();

    // Version 1.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publish = page.getByRole('dialog', { name: 'Publish version 1' });
    await expect(publish.getByText('The first version')).toBeVisible();
    await publish.getByRole('button', { name: 'Publish version 1' }).click();
    await expect(page.getByText('Version 1 published').first()).toBeVisible();
    await expect(page.getByText('Version 1 published', { exact: true }).last()).toBeVisible();

    // Published ids are locked.
    await card(page, 'Do you have a dog?').getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(side.getByRole('textbox', { name: 'Id' })).toBeDisabled();

    // Version 2: a new question; the dialog lists the change.
    await page.getByRole('button', { name: 'Add Long text' }).click();
    await side.getByLabel('Question title').fill('Anything else?');
    await expect(saved(page)).toBeVisible();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const second = page.getByRole('dialog', { name: 'Publish version 2' });
    await expect(second.getByText('Changes since version 1')).toBeVisible();
    await expect(second.getByRole('listitem').filter({ hasText: 'Added "long_text_1" (Anything else?)' })).toBeVisible();
    await second.getByRole('button', { name: 'Publish version 2' }).click();
    await expect(page.getByText('Version 2 published').first()).toBeVisible();

    // The history lists both; an old version opens read-only.
    await page.getByRole('button', { name: 'Versions' }).click();
    const history = page.getByRole('dialog', { name: 'Version history' });
    await expect(history.getByText('Version 2', { exact: true })).toBeVisible();
    await history.getByRole('button', { name: 'Open version 1' }).click();
    const v1 = page.getByRole('dialog', { name: 'Version 1' });
    await expect(v1.getByText('Do you have a dog?', { exact: true })).toBeVisible();
    await expect(v1.getByText('Anything else?')).toHaveCount(0);
    await v1.getByRole('button', { name: 'Close' }).click();

    // An edit survives a reload (autosave).
    await side.getByLabel('Question title').fill('Anything else to tell us?');
    await expect(saved(page)).toBeVisible();
    await page.reload();
    await expect(card(page, 'Anything else to tell us?')).toBeVisible();
    await expect(page.getByText('Unsaved changes were found in this browser')).toHaveCount(0);
  });

  test('the same build with the keyboard only: add, edit, condition, move, drag, undo, preview and publish', async ({ page, baseURL }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin/forms');
    await expect(page.getByRole('heading', { level: 1, name: 'Forms' })).toBeVisible();

    await openDialogWith(
      async () => {
        await tabTo(page, page.getByRole('button', { name: 'New form' }).first());
        await page.keyboard.press('Enter');
      },
      page.getByRole('dialog', { name: 'New form' }),
    );
    await page.keyboard.type(`Keyboard dogs ${Date.now().toString(36)}`);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin\/forms\/\d+$/);
    await expect(page.getByRole('button', { name: 'Add Single choice' })).toBeVisible();

    // Enter on a palette button adds; focus goes to the new question's title.
    await tabTo(page, page.getByRole('button', { name: 'Add Single choice' }));
    await page.keyboard.press('Enter');
    const side = panel(page);
    await expect(side.getByLabel('Question title')).toBeFocused();
    await typeInto(page, 'Do you have a dog?');
    await tabTo(page, side.getByRole('textbox', { name: 'Option 1' }));
    await typeInto(page, 'Yes');
    await tabTo(page, side.getByRole('textbox', { name: 'Option 2' }));
    await typeInto(page, 'No');

    // Space works too.
    await tabTo(page, page.getByRole('button', { name: 'Add Short text' }), { backwards: true });
    await page.keyboard.press('Space');
    await expect(side.getByLabel('Question title')).toBeFocused();
    await typeInto(page, "What is your dog's name?");
    await tabTo(page, side.getByRole('button', { name: 'Add a condition' }));
    await page.keyboard.press('Enter');
    const value = side.getByRole('group', { name: 'Rule 1' }).getByRole('combobox', { name: 'Value' });
    await tabTo(page, value);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('option', { name: 'Yes' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('option', { name: 'No' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(value).toContainText('No');
    await expect(card(page, "What is your dog's name?")).toContainText('is “No”');
    await tabTo(page, value, { backwards: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('option', { name: 'No' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('option', { name: 'Yes' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(card(page, "What is your dog's name?")).toContainText('Shown when “Do you have a dog?” is “Yes”');

    // A second page and a question on it.
    await tabTo(page, page.getByRole('button', { name: 'Add page' }), { backwards: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Page 2' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Add Number' }), { backwards: true });
    await page.keyboard.press('Enter');
    await typeInto(page, 'How many walks a day?');
    await expect(page.getByRole('region', { name: 'Page 2' }).getByRole('article', { name: 'How many walks a day?' })).toBeVisible();

    // Move up takes it to the end of page 1; focus stays on its button; the live region says where.
    const walks = card(page, 'How many walks a day?');
    await tabTo(page, walks.getByRole('button', { name: 'Move up' }), { backwards: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Page 1' }).getByRole('article', { name: 'How many walks a day?' })).toBeVisible();
    await expect(walks.getByRole('button', { name: 'Move up' })).toBeFocused();
    await expect(page.getByText('Moved “How many walks a day?” to position 3 of 3 on page 1.')).toBeAttached();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Page 1' }).getByRole('listitem').nth(1)).toContainText('How many walks a day?');
    await tabTo(page, walks.getByRole('button', { name: 'Move down' }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Page 2' }).getByRole('article', { name: 'How many walks a day?' })).toBeVisible();
    // The last question cannot go further down: focus moves to its other move button.
    await expect(walks.getByRole('button', { name: 'Move down' })).toBeDisabled();
    await expect(walks.getByRole('button', { name: 'Move up' })).toBeFocused();

    // Drag with the keyboard (Space, arrow, Space): the follow-up goes above its question; Ctrl+Z puts it back.
    const followUp = card(page, "What is your dog's name?");
    await tabTo(page, followUp.getByRole('button', { name: /^Drag to reorder/ }), { backwards: true });
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
    await expect(page.getByRole('region', { name: 'Page 1' }).getByRole('listitem').first()).toContainText("What is your dog's name?");
    await expect(followUp).toContainText('comes after it');
    await page.keyboard.press('ControlOrMeta+z');
    await expect(page.getByRole('region', { name: 'Page 1' }).getByRole('listitem').first()).toContainText('Do you have a dog?');
    await expect(followUp).not.toContainText('comes after it');

    // The preview on a phone width: Yes shows the follow-up, No hides it.
    await tabTo(page, page.getByRole('tab', { name: 'Settings' }));
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');
    const preview = phone(page);
    await tabTo(page, preview.getByRole('radio', { name: 'Yes' }));
    await page.keyboard.press('Space');
    await expect(preview.getByRole('textbox', { name: /What is your dog's name/ })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(preview.getByRole('radio', { name: 'No' })).toBeChecked();
    await expect(preview.getByRole('textbox', { name: /What is your dog's name/ })).toHaveCount(0);

    // Publish.
    await tabTo(page, page.getByRole('button', { name: 'Publish', exact: true }), { backwards: true });
    await page.keyboard.press('Enter');
    const publish = page.getByRole('dialog', { name: 'Publish version 1' });
    await tabTo(page, publish.getByRole('button', { name: 'Publish version 1' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Version 1 published').first()).toBeVisible();
  });

  test('deleting an element can be undone from the toast and from the toolbar; problems block publishing, listed by question, each leading to it', async ({
    page,
    baseURL,
  }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await createForm(page, baseURL, 'Undo things');
    await page.goto(`/admin/forms/${id}`);
    await page.getByRole('button', { name: 'Add Rating' }).click();
    await page.getByRole('button', { name: 'Add Photo' }).click();
    await card(page, 'Rating question').getByRole('button', { name: 'Delete' }).click();
    await expect(card(page, 'Rating question')).toHaveCount(0);
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await expect(card(page, 'Rating question')).toBeVisible();
    await card(page, 'Photo question').getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByRole('article', { name: 'Photo question' })).toHaveCount(2);
    await toolbar(page).getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(page.getByRole('article', { name: 'Photo question' })).toHaveCount(1);
    await toolbar(page).getByRole('button', { name: 'Redo', exact: true }).click();
    await expect(page.getByRole('article', { name: 'Photo question' })).toHaveCount(2);

    // A problem: the rating's maximum out of range; publishing is blocked and the problem is a way there.
    await card(page, 'Rating question').getByRole('button', { name: 'Edit' }).click();
    await panel(page).getByRole('spinbutton', { name: 'Highest rating' }).fill('20');
    await expect(card(page, 'Rating question')).toContainText('"rating_1"');
    // Issue 28: a single choice without a title, options without labels, an id that is not one.
    await page.getByRole('button', { name: 'Add Single choice' }).click();
    const side = panel(page);
    await side.getByLabel('Question title').fill('');
    await side.getByRole('textbox', { name: 'Option 1' }).fill('');
    await side.getByRole('textbox', { name: 'Option 2' }).fill('');
    await side.getByRole('textbox', { name: 'Id' }).fill('Bad Id!');
    await expect(side.getByRole('textbox', { name: 'Id' })).toHaveAccessibleDescription(/Use a lower-case letter/);
    await expect(saved(page)).toBeVisible();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publish = page.getByRole('dialog', { name: 'Publish version 1' });
    await expect(publish.getByRole('heading', { name: 'Fix these 5 problems before publishing' })).toBeVisible();
    const blank = publish.getByRole('button', { name: /^Untitled question “Bad Id!” \(Single choice, page 1\)/ });
    for (const problem of ['The question has no title', 'Option 1 has no label', 'Option 2 has no label', 'Id: Use a lower-case letter'])
      await expect(blank).toContainText(problem);
    await expect(publish.getByRole('button', { name: 'Publish version 1' })).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/builder-publish-problems-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(blank).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/builder-publish-problems-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await publish.getByRole('button', { name: /Rating question/ }).click();
    await expect(publish).toHaveCount(0);
    await expect(panel(page).getByRole('spinbutton', { name: 'Highest rating' })).toHaveValue('20');
    await expect(page.getByText('Version 1 published')).toHaveCount(0);
    await expect(toolbar(page).getByText('Never published')).toBeVisible();
  });

  test('a save from elsewhere: keep mine, or load theirs with mine kept in Undo', async ({ page, baseURL }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await createForm(page, baseURL, 'Shared form');
    await page.goto(`/admin/forms/${id}`);
    await page.getByRole('button', { name: 'Add Short text' }).click();
    await expect(saved(page)).toBeVisible();

    const saveElsewhere = async (pageTitle: string) => {
      const form = (await (await page.request.get(`/api/admin/forms/${id}`)).json()) as { draft: Record<string, unknown>; revision: number };
      const res = await page.request.put(`/api/admin/forms/${id}/draft`, {
        headers: { Origin: baseURL ?? '', 'Content-Type': 'application/json' },
        data: { definition: { ...form.draft, pages: [{ id: 'page_1', title: pageTitle, elements: [] }] }, revision: form.revision },
      });
      expect(res.status()).toBe(200);
    };

    await saveElsewhere('Their page');
    await panel(page).getByLabel('Question title').fill('Mine');
    const conflict = page.getByRole('dialog', { name: 'Someone else saved this form' });
    await expect(conflict).toBeVisible();
    await conflict.getByRole('button', { name: 'Keep my version' }).click();
    await expect(saved(page)).toBeVisible();
    const mine = (await (await page.request.get(`/api/admin/forms/${id}`)).json()) as { draft: { pages: { elements: { title: string }[] }[] } };
    expect(mine.draft.pages[0]?.elements[0]?.title).toBe('Mine');

    await saveElsewhere('Their page again');
    await panel(page).getByLabel('Question title').fill('Mine again');
    await conflict.getByRole('button', { name: 'Load their version' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Page 1: Their page again' })).toBeVisible();
    await expect(card(page, 'Mine again')).toHaveCount(0);
    await toolbar(page).getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(card(page, 'Mine again')).toBeVisible();
    await expect(saved(page)).toBeVisible();

    // A draft this browser kept but never saved (the tab closed offline) is offered back after a reload.
    await page.evaluate((formId) => {
      const key = `fieldwork-form-draft-${formId}`;
      const draft = {
        schema: 'fieldwork.form/1',
        title: 'Shared form',
        pages: [{ id: 'page_1', title: '', elements: [{ id: 'kept', type: 'short_text', title: 'Typed offline' }] }],
      };
      localStorage.setItem(key, JSON.stringify({ draft, revision: 1, savedAt: new Date().toISOString() }));
    }, id);
    await page.reload();
    await expect(page.getByText('Unsaved changes were found in this browser')).toBeVisible();
    await page.getByRole('button', { name: 'Restore my changes' }).click();
    await expect(card(page, 'Typed offline')).toBeVisible();
    await expect(saved(page)).toBeVisible();
    await page.reload();
    await expect(card(page, 'Typed offline')).toBeVisible();
    await expect(page.getByText('Unsaved changes were found in this browser')).toHaveCount(0);
  });

  test('export the draft as a file; a file that is not a draft is refused, a good one replaces the draft', async ({ page, baseURL }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await createForm(page, baseURL, 'Export me');
    await page.goto(`/admin/forms/${id}`);
    await page.getByRole('button', { name: 'Add Consent' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('export-me.json');

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ schema: 'fieldwork.form/1', pages: [{ elements: [] }] })),
    });
    const refused = page.getByRole('dialog', { name: 'This file cannot be imported' });
    // In the publish check's words.
    await expect(refused.getByRole('listitem')).toHaveText([
      'title is missing',
      '"pages[0]": id is missing',
      '"pages[0]": the page is empty; add a question or delete the page',
    ]);
    await refused.getByRole('button', { name: 'Close' }).first().click();
    // A file that is not JSON at all: our words, not the parser's.
    const third = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await (await third).setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('Name,Email\nAda,ada@example.org\n') });
    await expect(refused.getByRole('listitem')).toHaveText(['This file is not a JSON file. Choose a form saved with “Export JSON” (a .json file).']);
    await refused.getByRole('button', { name: 'Close' }).first().click();
    await expect(card(page, 'Consent question')).toBeVisible();

    const imported = {
      schema: 'fieldwork.form/1',
      title: 'Imported',
      pages: [
        {
          id: 'p1',
          title: 'One',
          elements: [
            { id: 'pet', type: 'single_choice', title: 'Pet?', options: [{ id: 'cat', label: 'Cat' }] },
            { id: 'why', type: 'short_text', title: 'Why?', visibleIf: { not: { ref: 'pet', op: 'eq', value: 'cat' } } },
            { id: 'odd', type: 'mystery', title: 'Odd one' },
          ],
        },
      ],
    };
    const again = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await (await again).setFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(imported)) });
    const confirm = page.getByRole('dialog', { name: 'Replace the draft with this file?' });
    await expect(confirm.getByText('unknown type "mystery"')).toBeVisible();
    await confirm.getByRole('button', { name: 'Replace the draft' }).click();
    await expect(page.getByLabel('Form title')).toHaveValue('Imported');
    await expect(card(page, 'Why?')).toContainText('Shown under a custom condition');
    await card(page, 'Why?').getByRole('button', { name: 'Edit' }).click();
    await expect(panel(page).getByLabel('The condition as JSON')).toContainText('"not"');
    await expect(panel(page).getByRole('button', { name: 'Replace with a simple rule' })).toBeVisible();
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(page.getByText('1 question is left out of the preview until it is fixed')).toBeVisible();
    await toolbar(page).getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(page.getByLabel('Form title')).toHaveValue('Export me');
  });
});

test.describe('the forms list', () => {
  test('search, duplicate, archive with undo, the archived forms and restore', async ({ page, baseURL }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    const marker = `zq${Date.now().toString(36)}`;
    await createForm(page, baseURL, `Alpha ${marker}`);
    await createForm(page, baseURL, `Beta ${marker}`);
    await page.goto('/admin/forms');
    await page.getByRole('searchbox', { name: 'Search forms' }).fill(marker);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const list = page.getByRole('list', { name: 'Forms' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').first()).toContainText(`Beta ${marker}`);
    await expect(list.getByRole('listitem').first()).toContainText('Not used yet');
    await expect(list.getByRole('listitem').first()).toContainText('Draft');

    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Title (A to Z)' }).click();
    await expect(list.getByRole('listitem').first()).toContainText(`Alpha ${marker}`);
    await expect(page).toHaveURL(/sort=title/);

    const alpha = list.getByRole('listitem').filter({ hasText: new RegExp(`^Alpha ${marker}`) });
    await alpha.getByRole('button', { name: 'Duplicate' }).click();
    await expect(list.getByRole('listitem').filter({ hasText: `Copy of Alpha ${marker}` })).toBeVisible();

    await alpha.getByRole('button', { name: 'Archive' }).click();
    await alpha.getByRole('button', { name: 'Archive', exact: true }).click();
    await expect(list.getByRole('listitem').filter({ hasText: new RegExp(`^Alpha ${marker}`) })).toHaveCount(0);
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await expect(list.getByRole('listitem').filter({ hasText: new RegExp(`^Alpha ${marker}`) })).toBeVisible();

    const beta = list.getByRole('listitem').filter({ hasText: `Beta ${marker}` });
    await beta.getByRole('button', { name: 'Archive' }).click();
    await beta.getByRole('button', { name: 'Archive', exact: true }).click();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await page.getByRole('switch', { name: 'Show archived forms' }).click();
    const archived = page.getByRole('list', { name: 'Archived forms' });
    await expect(archived.getByRole('listitem')).toHaveCount(1);
    await expect(archived.getByRole('listitem')).toContainText('Archived');
    await archived.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText('No archived forms match')).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search forms' }).fill(`${marker}-nothing`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText(/No archived forms match|No forms match/)).toBeVisible();
  });

  test('a moderator can open the list and the builder', async ({ browser, baseURL }) => {
    const moderator = await browser.newContext({ baseURL });
    const page = await moderator.newPage();
    await page.addInitScript(() =>
      localStorage.setItem('fieldwork-cookie-consent', JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false })),
    );
    await signIn(page, baseURL ?? '', await createAccount('moderator', 'Mo', 'Derator'));
    const id = await createForm(page, baseURL, 'Moderated');
    await page.goto('/admin/forms');
    await expect(page.getByRole('heading', { level: 1, name: 'Forms' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Moderated' }).first()).toBeVisible();
    await page.goto(`/admin/forms/${id}`);
    await expect(page.getByLabel('Form title')).toHaveValue('Moderated');
    await moderator.close();
  });

  test('a participant is sent away from /admin/forms', async ({ page, baseURL }) => {
    await signIn(page, baseURL ?? '', await createAccount('participant'));
    await page.goto('/admin/forms');
    await expect(page).toHaveURL(`${baseURL}/`);
    const res = await page.request.get('/api/admin/forms');
    expect(res.status()).toBe(403);
  });
});

test.describe('accessibility and screenshots', () => {
  test.describe.configure({ timeout: 120_000 });

  test('no serious or critical axe violations in the list and the builder; screenshots at 1280 and 390', async ({ page, baseURL }) => {
    await signedIn(page, baseURL);
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await createForm(page, baseURL, 'Garden survey');
    await createForm(page, baseURL, 'Kitchen habits');
    await page.goto('/admin/forms');
    await expect(page.getByRole('link', { name: 'Garden survey' }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/forms-list-1280.png` });

    await page.goto(`/admin/forms/${id}`);
    await page.getByRole('button', { name: 'Add Single choice' }).click();
    await panel(page).getByLabel('Question title').fill('Do you grow vegetables?');
    await page.getByRole('button', { name: 'Add Scale' }).click();
    await panel(page).getByRole('button', { name: 'Add a condition' }).click();
    await page.getByRole('button', { name: 'Add Matrix' }).click();
    await expect(saved(page)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/builder-1280.png` });
    await page.getByRole('tab', { name: 'Preview' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/builder-preview-1280.png` });
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Publish version 1' }).getByRole('button', { name: 'Publish version 1' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/forms');
    await expect(page.getByRole('link', { name: 'Garden survey' }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/forms-list-390.png` });
    await page.goto(`/admin/forms/${id}`);
    await expect(card(page, 'Do you grow vegetables?')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/builder-390.png` });
    await page.screenshot({ path: `${SHOTS}/builder-390-full.png`, fullPage: true });
    await page.getByRole('heading', { level: 2, name: 'Preview' }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await page.screenshot({ path: `${SHOTS}/builder-390-preview.png` });
    // The side panel is a sheet on phones.
    await card(page, 'Do you grow vegetables?').getByRole('button', { name: 'Edit' }).click();
    const sheet = page.getByRole('dialog', { name: 'Question settings' });
    await expect(sheet.getByLabel('Question title')).toHaveValue('Do you grow vegetables?');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/builder-390-sheet.png` });
    await sheet.getByRole('button', { name: 'Done' }).click();
    await expect(sheet).toHaveCount(0);
    // Adding on a phone opens the new question's settings, its title ready to type.
    await page.getByRole('button', { name: 'Add Date' }).click();
    await expect(sheet.getByLabel('Question title')).toBeFocused();
    // Its default title is selected: typing replaces it.
    await page.keyboard.type('When did you sow?');
    await sheet.getByRole('button', { name: 'Done' }).click();
    await expect(card(page, 'When did you sow?')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Date' })).toBeFocused();
  });
});
