/**
 * The gallery on /admin/gallery. A moderator sets a live photo mission up through the API; a
 * participant submits two entries with three photos through the API (a fourth, replaced in the
 * first entry before it was submitted, shows only behind "Replaced photos", marked). In the
 * screen (filtered on the project, as the address bar says) the moderator stars a photo from the
 * grid, opens another in the lightbox with the keyboard only, sees the entry's answers and the
 * link to its review beside it, tags it (comma; a tag stops at 40 characters as it is typed, and
 * says so), filters the grid by that tag and by part of the participant's name as typed, then
 * selects two photos and downloads them as one ZIP (two stored files). What was starred and
 * tagged is still there after a reload. axe finds nothing serious. Screenshots at 1280×800 and
 * 390×844 go to /tmp/shots/gallery-*.png.
 */
import fs from 'node:fs';
import { request as playwrightRequest, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS } from './page-helpers.ts';

test.use({ viewport: DESKTOP });

test.beforeEach(({ page }) => saveCookieChoice(page));

/** The names of the files in a ZIP (its central directory). */
function zipNames(bytes: Buffer): string[] {
  let end = -1;
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a ZIP');
  const names: string[] = [];
  let at = bytes.readUInt32LE(end + 16);
  for (let n = 0; n < bytes.readUInt16LE(end + 10); n++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    names.push(bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return names;
}

/** A live project with the member and a live photo mission, made through the API by the signed-in moderator. */
async function setUp(page: Page, baseURL: string, member: Account): Promise<{ projectId: number; missionId: number; missionTitle: string }> {
  const call = jsonApi(page.request, baseURL);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Pantries ${tag}`, client: 'Acme Foods', status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `Pantry ${tag}`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `Pantry ${tag}`,
      pages: [
        {
          id: 'pantry',
          title: 'Your pantry',
          elements: [
            { id: 'shelf', type: 'photo', title: 'Photos of your pantry', required: true, maxFiles: 3 },
            { id: 'note', type: 'short_text', title: 'What is on the top shelf?' },
          ],
        },
      ],
    },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const missionTitle = `Pantry photo ${tag}`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title: missionTitle,
    instructions: 'Take photos of your pantry.',
    formId: form.id,
    points: 10,
    review: 'manual',
    status: 'live',
    entries: { min: 1, max: 5, perDay: null },
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { projectId: project.id, missionId: mission.id, missionTitle };
}

/** The participant's entries with photos, submitted through the API; the entry ids. */
async function submitPhotos(baseURL: string, account: Account, missionId: number): Promise<number[]> {
  const request = await playwrightRequest.newContext({ baseURL });
  try {
    await signInThroughApi(request, baseURL, account);
    const call = jsonApi(request, baseURL);
    const photo = async (r: number): Promise<string> => {
      const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g: 140, b: 90 } } })
        .jpeg()
        .toBuffer();
      const res = await request.post('/api/media', {
        headers: { Origin: baseURL },
        multipart: { file: { name: 'pantry.jpg', mimeType: 'image/jpeg', buffer: jpeg } },
      });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const entries: number[] = [];
    // The first entry's draft held another photo first, replaced before it was submitted.
    const replaced = await photo(250);
    for (const [photos, note, before] of [
      [[await photo(200), await photo(120)], 'Rice and beans', [replaced]],
      [[await photo(40)], 'Tins of tomatoes', []],
    ] as const) {
      const { id } = await call<{ id: number }>('POST', `/api/missions/${missionId}/entries`, { timeZone: 'UTC' });
      const path = `/api/missions/${missionId}/entries/${id}`;
      if (before.length > 0) await call('PUT', path, { answers: { shelf: before, note } });
      await call('PUT', path, { answers: { shelf: photos, note }, revision: before.length > 0 ? 1 : 0 });
      await call('POST', `${path}/submit`, {});
      entries.push(id);
    }
    return entries;
  } finally {
    await request.dispose();
  }
}

test.describe('the gallery', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a moderator stars and tags photos, filters by tag, opens the lightbox by keyboard and downloads two photos as a ZIP', async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const moderator = await createAccount('moderator', 'Mona', 'Curator');
    const grace = await createAccount('participant', 'Grace', 'Pantry');
    await signIn(page, origin, moderator);
    const setup = await setUp(page, origin, grace);
    const [firstEntry, secondEntry] = await submitPhotos(origin, grace, setup.missionId);

    await page.goto(`/admin/gallery?projectId=${setup.projectId}`);
    await expect(page.getByRole('heading', { name: 'Gallery', level: 1 })).toBeVisible();
    const grid = page.getByRole('list', { name: 'Photos' });
    const tiles = grid.getByRole('button', { name: /^Photo by Grace Pantry/ });
    await expect(tiles).toHaveCount(3);
    // Thumbnails load lazily in fixed boxes.
    await expect(grid.locator('img').first()).toHaveAttribute('loading', 'lazy');
    await page.screenshot({ path: `${SHOTS}/gallery-grid-1280.png`, fullPage: true });

    // Star the newest photo (the second entry's) from the grid.
    const stars = grid.getByRole('button', { name: 'Star photo by Grace Pantry' });
    await expect(stars.first()).toHaveAttribute('aria-pressed', 'false');
    await stars.first().click();
    await expect(stars.first()).toHaveAttribute('aria-pressed', 'true');

    // Open the second photo with the keyboard: focus its tile, Enter.
    await tiles.nth(1).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Grace Pantry/ });
    await expect(dialog).toBeVisible();
    const details = dialog.getByRole('complementary', { name: 'Photo details' });
    await expect(details).toContainText('Rice and beans');
    await expect(details.getByRole('link', { name: 'Open the entry' })).toHaveAttribute('href', new RegExp(`submission=${firstEntry}`));
    await expect(details.getByRole('link', { name: 'Download JPEG' })).toHaveAttribute('download', /\.jpg$/);
    // The arrow keys move between photos; typing in the tags does not.
    await page.keyboard.press('ArrowLeft');
    await expect(details).toContainText('Tins of tomatoes');
    await page.keyboard.press('ArrowRight');
    await expect(details).toContainText('Rice and beans');
    // + zooms (0.12 a step); the same keys typed into the tags are text.
    await page.keyboard.press('+');
    await expect(dialog.getByRole('button', { name: 'Reset zoom, 112%' })).toBeVisible();
    const tags = details.getByRole('textbox', { name: 'Tags' });
    await tags.pressSequentially('0-');
    await expect(tags).toHaveValue('0-');
    await expect(dialog.getByRole('button', { name: 'Reset zoom, 112%' })).toBeVisible();
    // A tag stops at 40 characters as it is typed, and says why; what was typed stays.
    await tags.fill('a'.repeat(40));
    await tags.press('b');
    await expect(tags).toHaveValue('a'.repeat(40));
    await expect(tags).toHaveAccessibleDescription(/A tag is at most 40 characters/);
    await expect(details.getByText('A tag is at most 40 characters').first()).toBeVisible();
    await expect(details.getByText('40/40 characters')).toBeVisible();
    await tags.fill('Shelf');
    await tags.press(',');
    // Stored lower-case.
    await expect(details.getByRole('button', { name: 'Remove shelf', exact: true })).toBeVisible();
    await expect(details).toContainText('Tags are saved as you add or remove them.');
    await page.screenshot({ path: `${SHOTS}/gallery-lightbox-1280.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(tiles.nth(1)).toBeFocused();

    // Filter by the tag: only that photo, and the address says so.
    const filtersBar = page.getByRole('search', { name: 'Filter photos' });
    await filtersBar.getByRole('textbox', { name: 'Tag' }).fill('shelf');
    await filtersBar.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]tag=shelf/);
    await expect(tiles).toHaveCount(1);
    await expect(grid.getByRole('listitem').first()).toContainText('shelf');

    // Back to the project's photos; the star and the tag were saved.
    await page.goto(`/admin/gallery?projectId=${setup.projectId}`);
    await expect(tiles).toHaveCount(3);
    await expect(stars.first()).toHaveAttribute('aria-pressed', 'true');
    // Part of the participant's name, as typed, applies at once (the server matches names and emails).
    const participant = filtersBar.getByRole('textbox', { name: 'Participant' });
    await participant.fill('grace pan');
    await filtersBar.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]participant=grace\+pan/);
    await expect(page.getByText('Photos by participants whose name or email contains “grace pan”.')).toBeVisible();
    await expect(tiles).toHaveCount(3);
    await participant.fill('nobody-like-this');
    await participant.press('Enter');
    await expect(page.getByText('No photos match these filters.')).toBeVisible();
    // The photo replaced in the first entry: only behind "Replaced photos", marked.
    await page.goto(`/admin/gallery?projectId=${setup.projectId}&replaced=true`);
    await expect(tiles).toHaveCount(1);
    await expect(grid.getByText('Replaced', { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/gallery-replaced-1280.png`, fullPage: true });
    await tiles.first().click();
    await expect(page.getByRole('complementary', { name: 'Photo details' })).toContainText('The participant replaced this photo');
    await expect(page.getByRole('dialog').locator('img').first()).toHaveJSProperty('complete', true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/gallery-lightbox-replaced-1280.png` });
    await page.keyboard.press('Escape');
    await page.goto(`/admin/gallery?projectId=${setup.projectId}&starred=true`);
    await expect(tiles).toHaveCount(1);
    await page.goto(`/admin/gallery?projectId=${setup.projectId}`);
    await expect(tiles).toHaveCount(3);

    // Select two and download them as one ZIP.
    const checks = grid.getByRole('checkbox', { name: 'Select photo by Grace Pantry' });
    await checks.nth(0).check();
    await checks.nth(2).check();
    const bar = page.getByRole('region', { name: 'Selected photos' });
    await expect(bar).toContainText('2 photos selected');
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Download 2 photos as ZIP' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^fieldwork-photos-\d{4}-\d{2}-\d{2}\.zip$/);
    const file = await download.path();
    const names = zipNames(fs.readFileSync(file));
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(new RegExp(`^${setup.projectId}-${setup.missionId}-${secondEntry}-.+\\.jpg$`));
    expect(names[1]).toMatch(new RegExp(`^${setup.projectId}-${setup.missionId}-${firstEntry}-.+\\.jpg$`));
    // The page stayed where it was.
    await expect(page).toHaveURL(new RegExp(`/admin/gallery\\?projectId=${setup.projectId}`));

    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await expect(bar).toHaveCount(0);

    // The phone layout.
    await page.setViewportSize(PHONE);
    await expect(tiles).toHaveCount(3);
    await page.screenshot({ path: `${SHOTS}/gallery-grid-390.png`, fullPage: true });
    // The filters fold away behind one button on phones.
    const toggle = page.getByRole('button', { name: 'Filters (1)' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(filtersBar).toBeHidden();
    await toggle.click();
    await expect(filtersBar).toBeVisible();
    await tiles.nth(0).click();
    await expect(page.getByRole('dialog', { name: /Grace Pantry/ })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/gallery-lightbox-390.png` });
    await page.goto(`/admin/gallery?projectId=${setup.projectId}&replaced=true`);
    await expect(tiles).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/gallery-replaced-390.png`, fullPage: true });
  });
});
