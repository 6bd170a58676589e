/**
 * Field capture (issue 33 §1, §3, §4; decision 038 "The local outbox"), on a phone: a member
 * opens a photo mission, loses the connection, picks two photos and answers, submits — "Will be
 * sent when you are back online"; a reload with the API still out of reach finds everything
 * waiting on home; back online it is all sent and the moderator sees the entry with both photos.
 * An upload cut half-way resumes from the server's offset (the PATCH `Upload-Offset` after the cut
 * is the chunk's end, not 0). A video answer from a generated file plays in review.
 *
 * The offline test lets the participants' service worker run (home and the mission opened online
 * first, then the connection goes, `context.setOffline`); the other blocks workers like every spec.
 */
import sharp from 'sharp';
import { testClip } from '../support/clips.ts';
import { createAccount, signedInAdmin, signIn, signInWithForm, signOutWithMenu } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { jsonApi, liveMission, saveCookieChoice, screenshotsAtBothSizes, seriousViolations, SHOTS } from './page-helpers.ts';

const PHONE = { width: 390, height: 844 };
const CHUNK = 8 * 1024 * 1024;

const jpeg = (r: number) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g: 140, b: 200 } } })
    .jpeg({ quality: 80 })
    .toBuffer();

/** The moderator's view of the member's one submitted entry. */
async function submittedEntry(call: ReturnType<typeof jsonApi>, missionId: number) {
  const list = await call<{ items: { id: number }[] }>('GET', `/api/admin/missions/${missionId}/submissions?status=submitted`);
  expect(list.items).toHaveLength(1);
  return call<{ answers: Record<string, unknown> }>('GET', `/api/admin/submissions/${list.items[0]?.id}`);
}

test.describe('field capture offline', () => {
  // The participants' service worker opens pages offline (every other spec blocks workers).
  test.use({ serviceWorkers: 'allow' });

  test('photos and a submit made offline wait on the phone, survive a reload and are sent when the connection is back', async ({
    page,
    context,
    baseURL,
    playwright,
    allowConsoleError,
  }) => {
    test.setTimeout(240_000);
    // Offline, the browser reports each request it could not make.
    allowConsoleError(/ERR_INTERNET_DISCONNECTED|ERR_FAILED/);
    const origin = baseURL ?? '';
    const member = await createAccount('participant', 'Fern', 'Field');
    const { adminRequest } = await signedInAdmin(playwright.request, origin);
    const { missionId, title, call } = await liveMission(adminRequest, origin, member, [
      { id: 'shelf', type: 'photo', title: 'Photos of the shelf', required: true, minFiles: 2, maxFiles: 3 },
      { id: 'note', type: 'short_text', title: 'What stood out?', required: true },
    ]);

    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    // Online: home registers the service worker; home and the mission are opened under it.
    await page.goto('/');
    await expect(page.getByRole('article', { name: title })).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js\?lang=en$/);
    // Home once more under the worker, so its answers are kept for offline too.
    await page.reload();
    await expect(page.getByRole('article', { name: title })).toBeVisible();
    await page.goto(`/missions/${missionId}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const photos = page.getByRole('group', { name: /Photos of the shelf/ });
    await expect(photos).toBeVisible();

    // The connection goes.
    await context.setOffline(true);
    await page.getByLabel('Choose from library').setInputFiles([
      { name: 'left.jpg', mimeType: 'image/jpeg', buffer: await jpeg(40) },
      { name: 'right.jpg', mimeType: 'image/jpeg', buffer: await jpeg(200) },
    ]);
    for (const name of ['left.jpg', 'right.jpg'])
      await expect(photos.locator('li', { hasText: name })).toContainText(/Saved on this phone|Waiting for a connection/);
    await page.getByRole('textbox', { name: /What stood out/ }).fill('Empty top shelf');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothSizes(page, 'field-capture-photos-offline');
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Will be sent when you are back online' })).toBeVisible();
    await screenshotsAtBothSizes(page, 'field-capture-submit-queued');
    await page.setViewportSize(PHONE);

    // Still offline, home is opened again (from the service worker): it lists what waits.
    await page.goto('/');
    const waiting = page.getByRole('region', { name: 'Waiting to be sent' });
    await expect(waiting).toContainText('left.jpg');
    await expect(waiting).toContainText('right.jpg');
    await expect(waiting).toContainText(`Answers: ${title}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothSizes(page, 'field-capture-home-waiting');
    await page.setViewportSize(PHONE);
    // A reload while still offline: everything is still there.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Waiting to be sent' })).toContainText('right.jpg');

    // Back online: the connection's return starts the sender; the files go, then the submit with them.
    await context.setOffline(false);
    await expect(page.getByRole('region', { name: 'Waiting to be sent' })).toHaveCount(0, { timeout: 90_000 });
    const entry = await submittedEntry(call, missionId);
    expect(entry.answers.note).toBe('Empty top shelf');
    expect(entry.answers.shelf).toHaveLength(2);
    await adminRequest.dispose();
  });
});

test.describe('field capture', () => {
  test.describe.configure({ timeout: 240_000 });

  test('an upload cut half-way resumes from the server offset, and a video answer plays in review', async ({
    page,
    baseURL,
    playwright,
    allowConsoleError,
  }) => {
    allowConsoleError(/ERR_CONNECTION_RESET/);
    const origin = baseURL ?? '';
    const member = await createAccount('participant', 'Rey', 'Resume');
    const { admin, adminRequest } = await signedInAdmin(playwright.request, origin);
    const { missionId, call } = await liveMission(adminRequest, origin, member, [
      { id: 'shelf', type: 'photo', title: 'A big photo', required: true, maxFiles: 1 },
      { id: 'clip', type: 'video', title: 'Walk down the aisle', required: true, maxFiles: 1, maxSeconds: 10, capture: 'library' },
    ]);

    // About 12 MB of noise: two chunks (the first 8 MiB, then the rest).
    const side = 2000;
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i += 1) noise[i] = Math.floor(Math.random() * 256);
    const big = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(CHUNK);

    // Every PATCH's Upload-Offset; the first one after the first chunk is cut.
    const offsets: number[] = [];
    let cut = false;
    await page.route('**/api/uploads/**', async (route) => {
      const request = route.request();
      if (request.method() !== 'PATCH') return route.continue();
      const offset = Number(request.headers()['upload-offset']);
      offsets.push(offset);
      if (offset > 0 && !cut) {
        cut = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });

    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    await page.goto(`/missions/${missionId}`);
    await page.getByLabel('Choose from library').first().setInputFiles({ name: 'noise.png', mimeType: 'image/png', buffer: big });
    const row = page.getByRole('group', { name: /A big photo/ }).locator('li', { hasText: 'noise.png' });
    await expect(row).toContainText('Uploaded and ready', { timeout: 120_000 });
    expect(cut).toBe(true);
    // After the cut the upload went on from where the server was (the end of the first chunk), never from 0 again.
    const afterCut = offsets.slice(offsets.indexOf(CHUNK) + 1);
    expect(offsets.slice(0, 2)).toEqual([0, CHUNK]);
    expect(afterCut[0]).toBe(CHUNK);
    expect(offsets.filter((offset) => offset === 0)).toHaveLength(1);

    // A 3-second video, generated.
    const clip = testClip({ seconds: 3 });
    const videos = page.getByRole('group', { name: /Walk down the aisle/ });
    await videos.getByLabel('Choose from the library').setInputFiles({ name: 'aisle.mp4', mimeType: 'video/mp4', buffer: clip });
    await expect(videos.locator('li', { hasText: 'aisle.mp4' })).toContainText('Uploaded and ready', { timeout: 120_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothSizes(page, 'field-capture-video-ready');
    // A reload keeps the draft: the photo and the video are still its answers.
    await page.setViewportSize(PHONE);
    await page.reload();
    await expect(page.getByRole('group', { name: /Walk down the aisle/ }).locator('li')).toHaveCount(1);
    await expect(page.getByRole('group', { name: /A big photo/ }).locator('li')).toHaveCount(1);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you — your mission is in' })).toBeVisible({ timeout: 30_000 });

    // The moderator's review plays it.
    const entry = await submittedEntry(call, missionId);
    const [videoId] = entry.answers.clip as string[];
    const played = await adminRequest.get(`/api/media/${videoId}/video`, { headers: { Range: 'bytes=0-1023' } });
    expect([200, 206]).toContain(played.status());
    expect(played.headers()['content-type']).toMatch(/^video\//);
    const list = await call<{ items: { id: number }[] }>('GET', `/api/admin/missions/${missionId}/submissions?status=submitted`);
    const staff = await page.context().browser()?.newContext({ baseURL: origin });
    if (staff) {
      const review = await staff.newPage();
      await signIn(review, origin, admin);
      await review.goto(`/admin/review?submission=${list.items[0]?.id}`);
      const player = review.locator('video').first();
      await expect(player).toBeVisible({ timeout: 30_000 });
      // It plays: its poster is there, and once started (muted, as a browser allows without a gesture) time moves on.
      await expect(player).toHaveAttribute('poster', `/api/media/${videoId}/poster`);
      await player.evaluate((video: HTMLVideoElement) => {
        video.muted = true;
        return video.play();
      });
      await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await seriousViolations(review)).toEqual([]);
      await screenshotsAtBothSizes(review, 'field-capture-review-video');
      await staff.close();
    }
    await adminRequest.dispose();
  });
});

test.describe('recording in the page', () => {
  // Chromium runs with a fake camera and microphone (playwright.config.ts).
  test.use({ permissions: ['camera', 'microphone'] });

  test('a video recorded in the page stops at its limit, uploads, and is sent with the answers', async ({ page, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const origin = baseURL ?? '';
    const member = await createAccount('participant', 'Cam', 'Corder');
    const { adminRequest } = await signedInAdmin(playwright.request, origin);
    const { missionId, call } = await liveMission(adminRequest, origin, member, [
      { id: 'fridge', type: 'video', title: 'Show us your fridge', required: true, maxFiles: 1, maxSeconds: 3, capture: 'both' },
    ]);

    await saveCookieChoice(page);
    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    await page.goto(`/missions/${missionId}`);
    const videos = page.getByRole('group', { name: /Show us your fridge/ });
    await videos.getByRole('button', { name: 'Record here' }).click();
    // The timer runs against the question's limit; Stop takes the focus.
    await expect(videos.getByText(/^Recording: 0:0[0-3] of 0:03$/)).toBeVisible();
    await expect(videos.getByRole('button', { name: 'Stop recording' })).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/field-capture-recording-${PHONE.width}.png` });
    // At the limit it stops by itself, and the recording goes the way of any video.
    await expect(videos.getByRole('button', { name: 'Stop recording' })).toHaveCount(0, { timeout: 15_000 });
    const row = videos.locator('li', { hasText: /recording-/ });
    await expect(row).toContainText('Uploaded and ready', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you — your mission is in' })).toBeVisible({ timeout: 30_000 });

    const entry = await submittedEntry(call, missionId);
    const [videoId] = entry.answers.fridge as string[];
    const played = await adminRequest.get(`/api/media/${videoId}/video`, { headers: { Range: 'bytes=0-1023' } });
    expect(played.status()).toBe(206);
    expect(played.headers()['content-type']).toBe('video/mp4');
    await adminRequest.dispose();
  });
});

test.describe('field capture, more', () => {
  test.describe.configure({ timeout: 180_000 });

  test('on a shared phone, what one participant left unsent is neither shown to nor sent by the next; it goes once its owner is back', async ({
    page,
    baseURL,
    playwright,
    allowConsoleError,
  }) => {
    allowConsoleError(/ERR_FAILED|ERR_CONNECTION_RESET/);
    const origin = baseURL ?? '';
    const first = await createAccount('participant', 'Pia', 'First');
    const next = await createAccount('participant', 'Sam', 'Next');
    const { adminRequest } = await signedInAdmin(playwright.request, origin);
    const { missionId, title } = await liveMission(
      adminRequest,
      origin,
      [first, next],
      [{ id: 'shelf', type: 'photo', title: 'Photo of the shelf', required: true, maxFiles: 2 }],
    );

    // Uploads cannot get through while the first participant is here (a dead link for uploads only).
    const created: string[] = [];
    await page.route('**/api/uploads', async (route) => {
      created.push(route.request().method());
      return route.abort('connectionreset');
    });
    await page.setViewportSize(PHONE);

    await signInWithForm(page, first);
    await page.goto(`/missions/${missionId}`);
    const photos = page.getByRole('group', { name: /Photo of the shelf/ });
    await page.getByLabel('Choose from library').setInputFiles({ name: 'pia-shelf.jpg', mimeType: 'image/jpeg', buffer: await jpeg(90) });
    await expect(photos.locator('li', { hasText: 'pia-shelf.jpg' })).toContainText(/Saved on this phone|Waiting for a connection/);
    await expect.poll(() => created.length).toBeGreaterThan(0);
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Waiting to be sent' })).toContainText('pia-shelf.jpg');
    await signOutWithMenu(page, first);

    // The next person on this phone: nothing of Pia's on home or in the mission, and nothing sent for her.
    await page.unroute('**/api/uploads');
    const sentMeanwhile: string[] = [];
    await page.route('**/api/uploads**', (route) => {
      sentMeanwhile.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.continue();
    });
    await signInWithForm(page, next);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Waiting to be sent' })).toHaveCount(0);
    await page.goto(`/missions/${missionId}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('group', { name: /Photo of the shelf/ }).locator('li')).toHaveCount(0);
    expect(sentMeanwhile).toEqual([]);
    await page.goto('/');
    await signOutWithMenu(page, next);

    // Pia is back: home lists her photo until it has gone, under her account.
    await signInWithForm(page, first);
    await expect.poll(() => sentMeanwhile, { timeout: 90_000 }).toContain('POST /api/uploads');
    await expect(page.getByRole('region', { name: 'Waiting to be sent' })).toHaveCount(0, { timeout: 90_000 });
    await adminRequest.dispose();
  });

  test('the capture screens in German, Spanish and Arabic', async ({ page, baseURL, playwright }) => {
    const origin = baseURL ?? '';
    const member = await createAccount('participant', 'Lin', 'Languages');
    const { adminRequest } = await signedInAdmin(playwright.request, origin);
    const { missionId } = await liveMission(adminRequest, origin, member, [
      { id: 'shelf', type: 'photo', title: 'Photos of the shelf', required: true, maxFiles: 3 },
      { id: 'clip', type: 'video', title: 'Walk down the aisle', required: false, maxFiles: 1, maxSeconds: 60, capture: 'both' },
    ]);
    await saveCookieChoice(page);
    await signIn(page, origin, member);
    for (const [language, uploaded] of [
      ['de', 'Hochgeladen und bereit'],
      ['es', 'Subido y listo'],
      ['ar', 'تم الرفع وهو جاهز'],
    ] as const) {
      await page.setViewportSize(PHONE);
      await jsonApi(page.context().request, origin)('PUT', '/api/account/language', { language });
      await page.goto(`/${language}/missions/${missionId}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await page
        .locator('input[type="file"][accept^="image"]')
        .first()
        .setInputFiles({ name: `regal-${language}.jpg`, mimeType: 'image/jpeg', buffer: await jpeg(60) });
      await expect(page.locator('li', { hasText: `regal-${language}.jpg` })).toContainText(uploaded, { timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
      await screenshotsAtBothSizes(page, `field-capture-${language}`);
    }
    await adminRequest.dispose();
  });
});
