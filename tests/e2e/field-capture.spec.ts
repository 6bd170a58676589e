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
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { screenshotsAtBothSizes, seriousViolations } from './page-helpers.ts';

const PHONE = { width: 390, height: 844 };
const CHUNK = 8 * 1024 * 1024;

function adminApi(request: APIRequestContext, baseURL: string) {
  return async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(url, { method, headers: { Origin: baseURL, 'Content-Type': 'application/json' }, ...(data === undefined ? {} : { data }) });
    if (res.status() >= 300) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** A live project with one live mission of `elements`. */
async function missionWith(request: APIRequestContext, baseURL: string, member: Account, elements: unknown[]) {
  const call = adminApi(request, baseURL);
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Field ${tag}`, client: 'Acme Foods', status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `Capture ${tag}`,
    definition: { schema: 'fieldwork.form/1', title: `Capture ${tag}`, pages: [{ id: 'p1', title: 'In the shop', elements }] },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const title = `Shop visit ${tag}`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title,
    instructions: 'Take photos of the shelf.',
    formId: form.id,
    points: 10,
    closesAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { missionId: mission.id, title, call };
}

const jpeg = (r: number) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g: 140, b: 200 } } })
    .jpeg({ quality: 80 })
    .toBuffer();

/** The moderator's view of the member's one submitted entry. */
async function submittedEntry(call: ReturnType<typeof adminApi>, missionId: number) {
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
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Fern', 'Field');
    const adminRequest = await playwright.request.newContext({ baseURL: origin });
    await signInThroughApi(adminRequest, origin, admin);
    const { missionId, title, call } = await missionWith(adminRequest, origin, member, [
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
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Rey', 'Resume');
    const adminRequest = await playwright.request.newContext({ baseURL: origin });
    await signInThroughApi(adminRequest, origin, admin);
    const { missionId, call } = await missionWith(adminRequest, origin, member, [
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
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldwork-video-'));
    const file = path.join(dir, 'aisle.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=15', '-pix_fmt', 'yuv420p', '-y', file]);
    const videos = page.getByRole('group', { name: /Walk down the aisle/ });
    await videos.getByLabel('Choose from the library').setInputFiles(file);
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
    fs.rmSync(dir, { recursive: true, force: true });
    await adminRequest.dispose();
  });
});
