/**
 * Media housekeeping through the job queue (`media.housekeeping`, daily): uploads that nothing
 * ever held are deleted after 7 days, rows and files; photos an answer (draft or submitted), a
 * kept version or a mission's instructions hold are kept; younger uploads are left alone;
 * expired upload reservations go too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { entrySubmissions, media, mediaUploadReservations } from '../../src/server/db/schema/index.ts';
import { HOUSEKEEPING_BATCH } from '../../src/server/services/media-housekeeping.ts';
import { newMediaId } from '../../src/server/services/media.ts';
import { MEDIA_LIMITS, type MediaUploaded } from '../../src/shared/media.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { signedInUser, type SignedIn } from './helpers.ts';
import { createMission, createProject, createSurvey, insertEntry, insertResponse } from './programme-fixtures.ts';

const DAY = 24 * 3_600_000;

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 160, b: 60 } } })
    .png()
    .toBuffer();

async function upload(ctx: TestContext, who: SignedIn): Promise<MediaUploaded> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'p.png');
  const res = await ctx.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...who.headers }, body: form });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as MediaUploaded;
}

/** Files stored for a media id (`uploads/{id}/…`). */
const storedFiles = (ctx: TestContext, id: string) => {
  const folder = path.join(ctx.dataDir, 'uploads', id);
  return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
};

/** Runs the daily job as its schedule would: queued, then run by the queue. */
async function housekeeping(ctx: TestContext): Promise<void> {
  await ctx.jobs.send('media.housekeeping', {});
  const result = await ctx.jobs.drain({ notifications: false });
  expect(result.failed).toBe(0);
}

describeEachBackend('media housekeeping', (ctx) => {
  it(`deletes uploads nothing held for ${MEDIA_LIMITS.unattachedDays} days (rows and files), keeps attached and younger ones`, async () => {
    const c = ctx();
    const db = c.database.db;
    const owner = await signedInUser(c, 'participant');
    const someoneElse = await signedInUser(c, 'participant');
    const moderator = await signedInUser(c, 'moderator');
    const project = await createProject(c, { status: 'live' });
    const mission = await createMission(c, project.id, { status: 'live' });
    const survey = await createSurvey(c, project.id);
    const otherSurvey = await createSurvey(c, project.id);

    const lonely = await upload(c, owner);
    const inDraftEntry = await upload(c, owner);
    const inDraftResponse = await upload(c, owner);
    const inSubmitted = await upload(c, owner);
    const inKeptVersion = await upload(c, owner);
    const inInstructions = await upload(c, moderator);
    // Only the owner's answers count: someone else's answer naming the id does not hold it.
    const namedByOthers = await upload(c, owner);

    await insertEntry(c, mission, owner.id, { status: 'draft', answers: { photos: [inDraftEntry.id] } });
    await insertResponse(c, survey, owner.id, { status: 'draft', answers: { photos: [inDraftResponse.id] } });
    await insertResponse(c, otherSurvey, owner.id, { status: 'submitted', answers: { photos: [inSubmitted.id] } });
    // Sent back and edited: the current answers no longer have the photo, the kept version does.
    const edited = await insertEntry(c, mission, owner.id, { status: 'changes_requested', answers: { note: 'new' } });
    await db.insert(entrySubmissions).values({ entryId: edited.id, version: 1, formVersion: edited.formVersion, answers: { photos: [inKeptVersion.id] } });
    await createMission(c, project.id, { status: 'live', instructions: `Like this: ![shelf](${inInstructions.url})` });
    await insertEntry(c, mission, someoneElse.id, { status: 'draft', answers: { photos: [namedByOthers.id] } });

    c.clock.advance(2 * DAY);
    const young = await upload(c, owner);
    c.clock.advance(6 * DAY); // the first uploads are 8 days old, `young` 6

    // Reservations: one left by a killed process (expired), one of an upload under way.
    const now = c.clock.now().getTime();
    await db.insert(mediaUploadReservations).values([
      { ownerId: owner.id, bytes: 100, createdAt: new Date(now - DAY), expiresAt: new Date(now - DAY + 600_000) },
      { ownerId: owner.id, bytes: 200, createdAt: new Date(now), expiresAt: new Date(now + 600_000) },
    ]);

    await housekeeping(c);

    const gone = [lonely, namedByOthers];
    const kept = [inDraftEntry, inDraftResponse, inSubmitted, inKeptVersion, inInstructions];
    const rows = await db
      .select()
      .from(media)
      .where(
        inArray(
          media.id,
          [...gone, ...kept, young].map((photo) => photo.id),
        ),
      );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const photo of gone) {
      expect(byId.has(photo.id), photo.id).toBe(false);
      expect(storedFiles(c, photo.id)).toEqual([]);
      expect((await c.request(photo.url, { headers: owner.headers })).status).toBe(404);
    }
    for (const photo of kept) {
      expect(byId.get(photo.id)?.attachedAt, photo.id).toBeInstanceOf(Date);
      expect(storedFiles(c, photo.id)).toEqual(['display.jpg', 'thumb.webp']);
    }
    expect((await c.request(inKeptVersion.url, { headers: moderator.headers })).status).toBe(200);
    // Six days old: not looked at yet.
    expect(byId.get(young.id)?.attachedAt).toBeNull();
    expect(storedFiles(c, young.id)).toEqual(['display.jpg', 'thumb.webp']);
    const reservations = await db.select().from(mediaUploadReservations).where(eq(mediaUploadReservations.ownerId, owner.id));
    expect(reservations.map((row) => row.bytes)).toEqual([200]);

    // Two days later `young` is over the limit too, and goes; the attached ones stay, however old.
    c.clock.advance(2 * DAY);
    await housekeeping(c);
    expect(await db.select({ id: media.id }).from(media).where(eq(media.id, young.id))).toEqual([]);
    expect(storedFiles(c, young.id)).toEqual([]);
    expect(
      (
        await db
          .select({ id: media.id })
          .from(media)
          .where(
            inArray(
              media.id,
              kept.map((photo) => photo.id),
            ),
          )
      ).length,
    ).toBe(kept.length);
  });

  it(`works through any number of old uploads in rounds of ${HOUSEKEEPING_BATCH}`, async () => {
    const c = ctx();
    const owner = await signedInUser(c, 'participant');
    const old = new Date(c.clock.now().getTime() - 30 * DAY);
    const ids = Array.from({ length: 2 * HOUSEKEEPING_BATCH + 17 }, () => newMediaId());
    await c.database.db.insert(media).values(
      ids.map((id) => ({
        id,
        ownerId: owner.id,
        contentType: 'image/jpeg',
        width: 1,
        height: 1,
        bytes: 1,
        uploadedBytes: 1,
        displayKey: `${id}/display.jpg`,
        thumbnailKey: `${id}/thumb.webp`,
        thumbnailWidth: 1,
        thumbnailHeight: 1,
        createdAt: old,
      })),
    );
    await housekeeping(c);
    expect(await c.database.db.select({ id: media.id }).from(media).where(inArray(media.id, ids))).toEqual([]);
  });
});
