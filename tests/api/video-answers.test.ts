/**
 * Video answers (the `video` form element, decision 038): a draft may hold a video still being
 * processed, a submit needs each video ready, the participant's own, a video (not a photo) and
 * no longer than the question allows; the review detail lists videos with their state and
 * URLs; the gallery filters by kind and zips videos as `.mp4`; the responses CSV names them.
 * Media rows are written straight into the database (no ffmpeg needed).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { media } from '../../src/server/db/schema/index.ts';
import { PHOTO_NOT_VIDEO_MESSAGE, VIDEO_NOT_FOUND_MESSAGE, VIDEO_NOT_PHOTO_MESSAGE } from '../../src/server/services/participation.ts';
import type { FormDefinition } from '../../src/shared/forms/definition.ts';
import type { GalleryPage } from '../../src/shared/gallery.ts';
import { posterUrl, VIDEO_MESSAGES, videoUrl, type MediaKind, type MediaStatus } from '../../src/shared/media.ts';
import type { AdminSubmissionDetail } from '../../src/shared/mission-entries.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import type { SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, createSurvey, member, publishedForm, staff } from './programme-fixtures.ts';

const definition: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Clips',
  pages: [
    {
      id: 'page_1',
      title: '',
      elements: [
        { id: 'clip', type: 'video', title: 'Show us the shelf', required: true, maxFiles: 2, maxSeconds: 60 },
        { id: 'pics', type: 'photo', title: 'Photos', maxFiles: 3 },
      ],
    },
  ],
};

describeEachBackend('video answers', (ctx) => {
  interface World {
    projectId: number;
    missionId: number;
    surveyId: number;
    alice: SignedIn;
    bob: SignedIn;
    moderator: SignedIn;
  }
  let world: World | undefined;
  async function setup(c: TestContext): Promise<World> {
    const project = await createProject(c, { name: 'Shops' });
    const form = await publishedForm(c, definition);
    const mission = await createMission(c, project.id, { form, title: 'Shelf clip', entries: { min: 1, max: 20 } });
    const survey = await createSurvey(c, project.id, { form, title: 'Clip survey' });
    return {
      projectId: project.id,
      missionId: mission.id,
      surveyId: survey.id,
      alice: await member(c, project.id),
      bob: await member(c, project.id),
      moderator: await staff(c, 'moderator'),
    };
  }
  const w = async () => (world ??= await setup(ctx()));
  const as = (who: SignedIn) => callAs(ctx(), who);

  /** A media row of `owner`, as the upload and processing would leave it; its id. A ready one has a stored display file. */
  async function mediaRow(owner: SignedIn, kind: MediaKind, status: MediaStatus, more: { durationMs?: number; failureReason?: string } = {}): Promise<string> {
    const id = randomBytes(16).toString('base64url');
    const ready = status === 'ready';
    const displayKey = ready ? `${id}/display.${kind === 'video' ? 'mp4' : 'jpg'}` : null;
    if (displayKey) await ctx().storage.put(displayKey, new TextEncoder().encode(`bytes of ${id}`), kind === 'video' ? 'video/mp4' : 'image/jpeg');
    await ctx()
      .database.db.insert(media)
      .values({
        id,
        ownerId: owner.id,
        kind,
        status,
        failureReason: more.failureReason ?? null,
        durationMs: kind === 'video' && ready ? (more.durationMs ?? 30_000) : null,
        contentType: ready ? (kind === 'video' ? 'video/mp4' : 'image/jpeg') : null,
        width: ready ? 1920 : null,
        height: ready ? 1080 : null,
        bytes: ready ? 100 : null,
        uploadedBytes: 100,
        displayKey,
        thumbnailKey: ready ? `${id}/thumbnail.webp` : null,
        thumbnailWidth: ready ? 480 : null,
        thumbnailHeight: ready ? 270 : null,
      });
    return id;
  }

  /** A new entry of `who` in the mission with `answers` saved as a draft; its path. */
  async function draft(who: SignedIn, answers: Record<string, unknown>): Promise<string> {
    const { missionId } = await w();
    const created = await as(who)('POST', `/api/missions/${missionId}/entries`, {});
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const path = `/api/missions/${missionId}/entries/${id}`;
    const saved = await as(who)('PUT', path, { answers });
    expect(saved.status, await saved.clone().text()).toBe(200);
    return path;
  }
  const submit = async (who: SignedIn, path: string, answers: Record<string, unknown>, revision = 1) =>
    as(who)('POST', `${path}/submit`, { answers, revision });
  async function fieldErrors(res: Response): Promise<Record<string, string[]>> {
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields?: Record<string, string[]> } };
    expect(body.error.code).toBe('validation_failed');
    return body.error.fields ?? {};
  }

  it('a draft may hold a video being processed; a submit waits until it is ready', async () => {
    const { alice } = await w();
    const clip = await mediaRow(alice, 'video', 'processing');
    const path = await draft(alice, { clip: [clip] });
    expect((await fieldErrors(await submit(alice, path, { clip: [clip] }))).clip).toEqual([VIDEO_MESSAGES.notReady]);

    const uploading = await mediaRow(alice, 'video', 'uploading');
    const other = await draft(alice, { clip: [uploading] });
    expect((await fieldErrors(await submit(alice, other, { clip: [uploading] }))).clip).toEqual([VIDEO_MESSAGES.notReady]);

    await ctx()
      .database.db.update(media)
      .set({ status: 'ready', durationMs: 42_000, width: 1920, height: 1080, displayKey: `${clip}/display.mp4` })
      .where(eq(media.id, clip));
    // (The refused submit kept its answers as the draft: revision 2.)
    const res = await submit(alice, path, { clip: [clip] }, 2);
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('a failed video is refused with its reason', async () => {
    const { alice } = await w();
    const failed = await mediaRow(alice, 'video', 'failed', { failureReason: VIDEO_MESSAGES.processingTimedOut });
    const path = await draft(alice, { clip: [failed] });
    expect((await fieldErrors(await submit(alice, path, { clip: [failed] }))).clip).toEqual([VIDEO_MESSAGES.processingTimedOut]);
  });

  it('a video longer than the question allows (beyond the leeway) is refused', async () => {
    const { alice } = await w();
    const long = await mediaRow(alice, 'video', 'ready', { durationMs: 62_000 });
    const path = await draft(alice, { clip: [long] });
    expect((await fieldErrors(await submit(alice, path, { clip: [long] }))).clip).toEqual([VIDEO_MESSAGES.tooLong(60)]);
    // Within the leeway (60 s + 1 s): accepted.
    const justOver = await mediaRow(alice, 'video', 'ready', { durationMs: 61_000 });
    const ok = await draft(alice, { clip: [justOver] });
    expect((await submit(alice, ok, { clip: [justOver] })).status).toBe(200);
  });

  it("someone else's video is not found, like a photo; a photo in a video question and a video in a photo question are refused", async () => {
    const { alice, bob } = await w();
    const bobs = await mediaRow(bob, 'video', 'ready');
    const path = await draft(alice, { clip: [bobs] });
    const errors = await fieldErrors(await submit(alice, path, { clip: [bobs] }));
    expect(errors.clip).toEqual([VIDEO_NOT_FOUND_MESSAGE]);
    expect(JSON.stringify(errors)).not.toContain('ready');

    const photo = await mediaRow(alice, 'photo', 'ready');
    const video = await mediaRow(alice, 'video', 'ready');
    const mixed = await draft(alice, { clip: [photo], pics: [video] });
    const wrong = await fieldErrors(await submit(alice, mixed, { clip: [photo], pics: [video] }));
    expect(wrong.clip).toEqual([VIDEO_NOT_PHOTO_MESSAGE]);
    expect(wrong.pics).toEqual([PHOTO_NOT_VIDEO_MESSAGE]);
  });

  it('the review detail lists videos with their state, length and URLs; the gallery filters by kind', async () => {
    const { alice, moderator, projectId } = await w();
    const clip = await mediaRow(alice, 'video', 'ready', { durationMs: 75_500 - 20_000 });
    const photo = await mediaRow(alice, 'photo', 'ready');
    const path = await draft(alice, { clip: [clip], pics: [photo] });
    expect((await submit(alice, path, { clip: [clip], pics: [photo] })).status).toBe(200);
    const entryId = Number(path.split('/').pop());

    const detail = (await (await as(moderator)('GET', `/api/admin/submissions/${entryId}`)).json()) as AdminSubmissionDetail;
    expect(detail.media).toEqual([
      expect.objectContaining({
        id: clip,
        kind: 'video',
        status: 'ready',
        durationMs: 55_500,
        failureReason: null,
        videoUrl: videoUrl(clip),
        posterUrl: posterUrl(clip),
        thumbnailUrl: posterUrl(clip),
      }),
      expect.objectContaining({ id: photo, kind: 'photo', status: 'ready', videoUrl: null, posterUrl: null }),
    ]);

    const videos = (await (await as(moderator)('GET', `/api/admin/gallery?kind=video&projectId=${projectId}`)).json()) as GalleryPage;
    expect(videos.items.length).toBeGreaterThan(0);
    expect(videos.items.every((item) => item.kind === 'video')).toBe(true);
    expect(videos.items.find((item) => item.id === clip)).toMatchObject({
      kind: 'video',
      durationMs: 55_500,
      thumbnailUrl: posterUrl(clip),
      url: videoUrl(clip),
    });
    const photos = (await (await as(moderator)('GET', `/api/admin/gallery?kind=photo&projectId=${projectId}`)).json()) as GalleryPage;
    expect(photos.items.map((item) => item.id)).toContain(photo);
    expect(photos.items.every((item) => item.kind === 'photo' && item.durationMs === null)).toBe(true);
    const bad = await as(moderator)('GET', '/api/admin/gallery?kind=audio');
    expect(bad.status).toBe(400);
  });

  it('the gallery ZIP holds a video as .mp4, streamed from storage', async () => {
    const { alice, moderator, projectId, missionId } = await w();
    const clip = await mediaRow(alice, 'video', 'ready');
    const photo = await mediaRow(alice, 'photo', 'ready');
    const path = await draft(alice, { clip: [clip], pics: [photo] });
    expect((await submit(alice, path, { clip: [clip], pics: [photo] })).status).toBe(200);
    const entryId = Number(path.split('/').pop());
    const zip = await as(moderator)('POST', '/api/admin/media/zip', { ids: [clip, photo] });
    expect(zip.status).toBe(200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    const text = bytes.toString('latin1');
    expect(text).toContain(`${projectId}-${missionId}-${entryId}-${clip}.mp4`);
    expect(text).toContain(`${projectId}-${missionId}-${entryId}-${photo}.jpg`);
    expect(text).toContain(`bytes of ${clip}`);
  });

  it('a video still processing shows its state in the review detail, without URLs to play', async () => {
    const { alice, moderator } = await w();
    const ready = await mediaRow(alice, 'video', 'ready');
    const path = await draft(alice, { clip: [ready] });
    expect((await submit(alice, path, { clip: [ready] })).status).toBe(200);
    // Later replaced by the processing job's outcome (e.g. a re-run): the detail says where it stands.
    await ctx().database.db.update(media).set({ status: 'failed', failureReason: VIDEO_MESSAGES.processingFailed }).where(eq(media.id, ready));
    const detail = (await (await as(moderator)('GET', `/api/admin/submissions/${path.split('/').pop()}`)).json()) as AdminSubmissionDetail;
    expect(detail.media).toEqual([
      expect.objectContaining({
        id: ready,
        kind: 'video',
        status: 'failed',
        failureReason: VIDEO_MESSAGES.processingFailed,
        videoUrl: null,
        posterUrl: null,
        durationMs: null,
      }),
    ]);
  });

  it('a survey response: processing video saved as a draft, submitted once ready; the responses CSV names it', async () => {
    const { bob, moderator, surveyId } = await w();
    const clip = await mediaRow(bob, 'video', 'processing');
    const saved = await as(bob)('PUT', `/api/surveys/${surveyId}/response`, { answers: { clip: [clip] }, pageId: null });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const early = await as(bob)('POST', `/api/surveys/${surveyId}/response/submit`, { answers: { clip: [clip] } });
    expect((await fieldErrors(early)).clip).toEqual([VIDEO_MESSAGES.notReady]);
    await ctx()
      .database.db.update(media)
      .set({ status: 'ready', durationMs: 10_000, width: 640, height: 360, displayKey: `${clip}/display.mp4` })
      .where(eq(media.id, clip));
    const done = await as(bob)('POST', `/api/surveys/${surveyId}/response/submit`, { answers: { clip: [clip] } });
    expect(done.status, await done.clone().text()).toBe(200);

    const csv = await as(moderator)('GET', `/api/admin/surveys/${surveyId}/responses.csv`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(clip);
  });
});
