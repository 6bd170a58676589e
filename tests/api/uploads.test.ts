import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../src/server/db/schema/index.ts';
import { MediaProcessingFailed, parseUploadMetadata, sniffUpload, sniffVideo, tusDir } from '../../src/server/services/uploads.ts';
import { MEDIA_LIMITS, MEDIA_MESSAGES, UPLOAD_LIMITS, UPLOAD_MESSAGES, VIDEO_LIMITS, VIDEO_MESSAGES, type UploadState } from '../../src/shared/media.ts';
import { createJobHandlers } from '../../src/server/jobs/handlers.ts';
import type { ProcessVideo } from '../../src/server/jobs/types.ts';
import { createLogger } from '../../src/server/logger.ts';
import { testClip } from '../support/clips.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, signedInUser, type SignedIn } from './helpers.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const metadata = (filename: string, filetype: string) => `filename ${b64(filename)},filetype ${b64(filetype)}`;

/** A JPEG big enough to be cut in two. */
const photo = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 128, g: 128, b: 128 }, noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg({ quality: 90 })
    .toBuffer();

/** An MP4's first box (`ftyp`, brand isom) then filler: a video by its first bytes. */
const mp4Like = (size: number) => {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0, 0, 0, 0x18]).copy(bytes, 0);
  Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1').copy(bytes, 4);
  return bytes;
};

type Init = { method: string; headers?: Record<string, string>; body?: Uint8Array };

async function tus(ctx: TestContext, who: SignedIn | null, url: string, init: Init): Promise<Response> {
  return ctx.app.request(url, {
    method: init.method,
    headers: { Origin: ORIGIN, ...TUS, ...(who?.headers ?? {}), ...(init.headers ?? {}) },
    ...(init.body ? { body: new Uint8Array(init.body) } : {}),
  });
}

async function create(ctx: TestContext, who: SignedIn, length: number, filetype = 'image/jpeg', extra: Init = { method: 'POST' }): Promise<Response> {
  return tus(ctx, who, '/api/uploads', {
    method: 'POST',
    headers: { 'Upload-Length': String(length), 'Upload-Metadata': metadata('shelf.jpg', filetype), ...(extra.headers ?? {}) },
    ...(extra.body ? { body: extra.body } : {}),
  });
}

const patch = (ctx: TestContext, who: SignedIn, url: string, offset: number, body: Uint8Array) =>
  tus(ctx, who, url, { method: 'PATCH', headers: { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body });

const head = (ctx: TestContext, who: SignedIn, url: string) => tus(ctx, who, url, { method: 'HEAD' });

async function state(ctx: TestContext, who: SignedIn, url: string): Promise<UploadState> {
  const res = await ctx.app.request(url, { headers: who.headers });
  expect(res.status).toBe(200);
  return (await res.json()) as UploadState;
}

describe('what an upload is by its first bytes', () => {
  it('tells photos, MP4/MOV and WebM videos, and refuses anything else', async () => {
    expect(sniffUpload(await photo())).toBe('photo');
    expect(sniffVideo(mp4Like(64))).toBe(true);
    expect(sniffUpload(mp4Like(64))).toBe('video');
    expect(sniffUpload(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe('video');
    const qt = Buffer.alloc(32);
    Buffer.from('\0\0\0\x14ftypqt  ', 'latin1').copy(qt);
    expect(sniffUpload(qt)).toBe('video');
    expect(sniffUpload(Buffer.from('%PDF-1.7 hello there, not a photo'))).toBeNull();
  });

  it('reads Upload-Metadata: a name and an image or video type, both required', () => {
    expect(parseUploadMetadata(metadata('a.mp4', 'video/mp4'))).toEqual({ filename: 'a.mp4', filetype: 'video/mp4', kind: 'video' });
    expect(parseUploadMetadata(`filetype ${b64('image/png')}`)).toBeNull();
    expect(parseUploadMetadata(metadata('a.pdf', 'application/pdf'))).toBeNull();
    expect(parseUploadMetadata('filename !!!,filetype x')).toBeNull();
    expect(parseUploadMetadata(undefined)).toBeNull();
  });
});

describeEachBackend('resumable uploads (tus)', (ctx) => {
  let owner: SignedIn;
  let other: SignedIn;
  let jpeg: Buffer;
  beforeAll(async () => {
    owner = await signedInUser(ctx(), 'participant');
    other = await signedInUser(ctx(), 'participant');
    jpeg = await photo();
  });

  it('creates an upload (201, Location is the media id), resumes after a cut from the offset HEAD gives, and processes it into a ready photo', async () => {
    const created = await create(ctx(), owner, jpeg.byteLength);
    expect(created.status).toBe(201);
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    expect(created.headers.get('upload-expires')).toBeTruthy();
    const url = created.headers.get('location') ?? '';
    expect(url).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{22}$/);
    const id = url.split('/').pop() ?? '';
    expect(await state(ctx(), owner, url)).toEqual({ mediaId: id, kind: 'photo', status: 'uploading', reason: null });

    // The first half arrives; the connection is cut.
    const half = Math.floor(jpeg.byteLength / 2);
    const first = await patch(ctx(), owner, url, 0, jpeg.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(half));

    // The client asks where it stands and goes on from there.
    const asked = await head(ctx(), owner, url);
    expect(asked.status).toBe(200);
    expect(asked.headers.get('upload-offset')).toBe(String(half));
    expect(asked.headers.get('upload-length')).toBe(String(jpeg.byteLength));
    expect(asked.headers.get('cache-control')).toBe('no-store');

    // A PATCH from a wrong offset is refused (409), nothing written.
    const wrong = await patch(ctx(), owner, url, 0, jpeg.subarray(0, 10));
    expect((await errorOf(wrong, 409)).code).toBe('offset_mismatch');

    const rest = await patch(ctx(), owner, url, half, jpeg.subarray(half));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(jpeg.byteLength));
    expect((await state(ctx(), owner, url)).status).toBe('processing');
    // Not served before it is ready.
    expect((await ctx().app.request(`/api/media/${id}`, { headers: owner.headers })).status).toBe(404);

    await ctx().jobs.drain();
    expect(await state(ctx(), owner, url)).toEqual({ mediaId: id, kind: 'photo', status: 'ready', reason: null });
    const served = await ctx().app.request(`/api/media/${id}`, { headers: owner.headers });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect((await ctx().app.request(`/api/media/${id}/thumbnail`, { headers: owner.headers })).status).toBe(200);
    // The received bytes are gone from the upload store.
    expect(fs.existsSync(path.join(tusDir(ctx().config.dataDir), id))).toBe(false);
    // HEAD of a finished upload: all of it arrived.
    const done = await head(ctx(), owner, url);
    expect(done.status).toBe(200);
    expect(done.headers.get('upload-offset')).toBe(String(jpeg.byteLength));
    // No more bytes for it.
    expect((await errorOf(await patch(ctx(), owner, url, jpeg.byteLength, Buffer.from('x')), 409)).message).toBe(UPLOAD_MESSAGES.finished);
  });

  it('takes the whole file with the creation (creation-with-upload)', async () => {
    const created = await create(ctx(), owner, jpeg.byteLength, 'image/jpeg', {
      method: 'POST',
      headers: { 'Content-Type': 'application/offset+octet-stream' },
      body: jpeg,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('upload-offset')).toBe(String(jpeg.byteLength));
    const url = created.headers.get('location') ?? '';
    expect((await state(ctx(), owner, url)).status).toBe('processing');
    await ctx().jobs.drain();
    expect((await state(ctx(), owner, url)).status).toBe('ready');
  });

  it('ends an upload on DELETE (termination): its row and bytes gone', async () => {
    const url = (await create(ctx(), owner, jpeg.byteLength)).headers.get('location') ?? '';
    const id = url.split('/').pop() ?? '';
    expect((await patch(ctx(), owner, url, 0, jpeg.subarray(0, 1000))).status).toBe(204);
    expect(fs.existsSync(path.join(tusDir(ctx().config.dataDir), id))).toBe(true);
    // Someone else cannot.
    expect((await errorOf(await tus(ctx(), other, url, { method: 'DELETE' }), 404)).message).toBe(UPLOAD_MESSAGES.notFound);
    const ended = await tus(ctx(), owner, url, { method: 'DELETE' });
    expect(ended.status).toBe(204);
    expect(ended.headers.get('tus-resumable')).toBe('1.0.0');
    expect(await ctx().database.db.select().from(media).where(eq(media.id, id))).toEqual([]);
    expect(fs.existsSync(path.join(tusDir(ctx().config.dataDir), id))).toBe(false);
    expect((await head(ctx(), owner, url)).status).toBe(404);
  });

  it("answers 404 for another person's upload on every method, and 401 without a session", async () => {
    const url = (await create(ctx(), owner, jpeg.byteLength)).headers.get('location') ?? '';
    expect((await errorOf(await ctx().app.request(url, { headers: other.headers }), 404)).message).toBe(UPLOAD_MESSAGES.notFound);
    expect((await head(ctx(), other, url)).status).toBe(404);
    expect((await errorOf(await patch(ctx(), other, url, 0, jpeg.subarray(0, 100)), 404)).message).toBe(UPLOAD_MESSAGES.notFound);
    // The owner's upload is untouched.
    expect((await head(ctx(), owner, url)).headers.get('upload-offset')).toBe('0');
    expect(
      (await tus(ctx(), null, '/api/uploads', { method: 'POST', headers: { 'Upload-Length': '10', 'Upload-Metadata': metadata('a.jpg', 'image/jpeg') } }))
        .status,
    ).toBe(401);
    expect((await head(ctx(), other, '/api/uploads/not-an-id')).status).toBe(404);
  });

  it('refuses what the headers already say is wrong: metadata (400), size (413), the protocol header (412), another origin (403)', async () => {
    const noMeta = await tus(ctx(), owner, '/api/uploads', { method: 'POST', headers: { 'Upload-Length': '100' } });
    const noMetaError = await errorOf(noMeta, 400);
    expect(noMetaError.message).toBe(UPLOAD_MESSAGES.metadata);
    expect(noMeta.headers.get('tus-resumable')).toBe('1.0.0');
    expect((await errorOf(await create(ctx(), owner, 100, 'application/pdf'), 400)).message).toBe(UPLOAD_MESSAGES.metadata);
    expect((await errorOf(await create(ctx(), owner, MEDIA_LIMITS.maxBytes + 1, 'image/jpeg'), 413)).message).toBe(MEDIA_MESSAGES.tooLarge);
    expect((await errorOf(await create(ctx(), owner, VIDEO_LIMITS.maxBytes + 1, 'video/mp4'), 413)).message).toBe(VIDEO_MESSAGES.tooLarge);
    expect((await create(ctx(), owner, MEDIA_LIMITS.maxBytes + 1, 'video/mp4')).status).toBe(201);
    expect((await errorOf(await create(ctx(), owner, 0), 400)).message).toBe(MEDIA_MESSAGES.empty);
    const deferred = await tus(ctx(), owner, '/api/uploads', {
      method: 'POST',
      headers: { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadata('a.jpg', 'image/jpeg') },
    });
    expect((await errorOf(deferred, 400)).message).toBe(UPLOAD_MESSAGES.length);
    const noTus = await ctx().app.request('/api/uploads', {
      method: 'POST',
      headers: { Origin: ORIGIN, ...owner.headers, 'Upload-Length': '100', 'Upload-Metadata': metadata('a.jpg', 'image/jpeg') },
    });
    expect(noTus.status).toBeGreaterThanOrEqual(400);
    const crossSite = await ctx().app.request('/api/uploads', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', ...TUS, ...owner.headers, 'Upload-Length': '100', 'Upload-Metadata': metadata('a.jpg', 'image/jpeg') },
    });
    expect(crossSite.status).toBe(403);
  });

  it('refuses content that is not what it says by its first bytes (415), the upload failed and its bytes gone', async () => {
    const url = (await create(ctx(), owner, 5000)).headers.get('location') ?? '';
    const id = url.split('/').pop() ?? '';
    const refused = await patch(ctx(), owner, url, 0, Buffer.alloc(5000, 0x41));
    expect((await errorOf(refused, 415)).message).toBe(MEDIA_MESSAGES.notAnImage);
    expect(await state(ctx(), owner, url)).toEqual({ mediaId: id, kind: 'photo', status: 'failed', reason: MEDIA_MESSAGES.notAnImage });
    expect(fs.existsSync(path.join(tusDir(ctx().config.dataDir), id))).toBe(false);
    // A video that is not one.
    const video = (await create(ctx(), owner, 5000, 'video/mp4')).headers.get('location') ?? '';
    expect((await errorOf(await patch(ctx(), owner, video, 0, Buffer.alloc(5000, 0x41)), 415)).message).toBe(VIDEO_MESSAGES.notAVideo);
    // With the creation.
    const withBody = await create(ctx(), owner, 5000, 'image/jpeg', {
      method: 'POST',
      headers: { 'Content-Type': 'application/offset+octet-stream' },
      body: Buffer.alloc(5000, 0x41),
    });
    expect((await errorOf(withBody, 415)).message).toBe(MEDIA_MESSAGES.notAnImage);
    // A photo declared a video: its kind follows the content, and so does its limit.
    const photoAsVideo = (await create(ctx(), owner, jpeg.byteLength, 'video/mp4')).headers.get('location') ?? '';
    expect((await patch(ctx(), owner, photoAsVideo, 0, jpeg)).status).toBe(204);
    await ctx().jobs.drain();
    expect(await state(ctx(), owner, photoAsVideo)).toMatchObject({ kind: 'photo', status: 'ready' });
    const bigPhoto = (await create(ctx(), owner, MEDIA_LIMITS.maxBytes + 1, 'video/mp4')).headers.get('location') ?? '';
    expect((await errorOf(await patch(ctx(), owner, bigPhoto, 0, jpeg.subarray(0, 4096)), 413)).message).toBe(MEDIA_MESSAGES.tooLarge);
  });

  it('makes a real clip a ready, playable video through ffmpeg; a damaged one fails with its reason; no processor: failed', async () => {
    // The default processor is ffmpeg's (services/video.ts): a generated 1-second clip with a location tag.
    const body = testClip({ extra: ['-metadata', 'location=+48.8584+002.2945/'] });
    const url = (await create(ctx(), owner, body.byteLength, 'video/mp4')).headers.get('location') ?? '';
    const id = url.split('/').pop() ?? '';
    expect((await patch(ctx(), owner, url, 0, body.subarray(0, 1000))).status).toBe(204);
    expect((await patch(ctx(), owner, url, 1000, body.subarray(1000))).status).toBe(204);
    expect((await state(ctx(), owner, url)).status).toBe('processing');
    await ctx().jobs.drain();
    expect(await state(ctx(), owner, url)).toEqual({ mediaId: id, kind: 'video', status: 'ready', reason: null });
    const played = await ctx().app.request(`/api/media/${id}/video`, { headers: { ...owner.headers, Range: 'bytes=0-99' } });
    expect(played.status).toBe(206);
    expect(played.headers.get('content-type')).toBe('video/mp4');
    expect((await played.arrayBuffer()).byteLength).toBe(100);
    const [row] = await ctx().database.db.select().from(media).where(eq(media.id, id));
    expect(row?.durationMs).toBeGreaterThan(900);

    // A file that starts like an MP4 but is not one: ffprobe cannot read it.
    const damaged = mp4Like(3000);
    const bad = (await create(ctx(), owner, damaged.byteLength, 'video/mp4')).headers.get('location') ?? '';
    expect((await patch(ctx(), owner, bad, 0, damaged)).status).toBe(204);
    await ctx().jobs.drain();
    expect(await state(ctx(), owner, bad)).toMatchObject({ kind: 'video', status: 'failed', reason: VIDEO_MESSAGES.unreadable });

    // Without a processor (`processVideo: null`), and with another one: it gets the received file.
    const seen: { mediaId: string; bytes: number }[] = [];
    const { database, mailer, clock, config, jobs, storage } = ctx();
    const db = database.db;
    const handlers = (processVideo: ProcessVideo | null) =>
      createJobHandlers({ db, mailer, clock, config, logger: createLogger('silent'), jobs, storage, processVideo });
    try {
      jobs.setHandlers(handlers(null));
      const none = (await create(ctx(), owner, damaged.byteLength, 'video/mp4')).headers.get('location') ?? '';
      expect((await patch(ctx(), owner, none, 0, damaged)).status).toBe(204);
      await ctx().jobs.drain();
      expect((await state(ctx(), owner, none)).reason).toBe(VIDEO_MESSAGES.processingFailed);
      jobs.setHandlers(
        handlers(async ({ mediaId, sourcePath }) => {
          seen.push({ mediaId, bytes: fs.statSync(sourcePath).size });
          throw new MediaProcessingFailed(VIDEO_MESSAGES.tooLong(180));
        }),
      );
      const second = (await create(ctx(), owner, damaged.byteLength, 'video/mp4')).headers.get('location') ?? '';
      const secondId = second.split('/').pop() ?? '';
      expect((await patch(ctx(), owner, second, 0, damaged)).status).toBe(204);
      await ctx().jobs.drain();
      expect(seen).toEqual([{ mediaId: secondId, bytes: damaged.byteLength }]);
      expect((await state(ctx(), owner, second)).reason).toBe(VIDEO_MESSAGES.tooLong(180));
    } finally {
      jobs.setHandlers(createJobHandlers({ db, mailer, clock, config, logger: createLogger('silent'), jobs, storage }));
    }
  });

  it('removes uploads never finished after 24 hours (uploads.expire), and refuses them meanwhile (410)', async () => {
    const url = (await create(ctx(), owner, jpeg.byteLength)).headers.get('location') ?? '';
    const id = url.split('/').pop() ?? '';
    expect((await patch(ctx(), owner, url, 0, jpeg.subarray(0, 1000))).status).toBe(204);
    ctx().clock.advance(UPLOAD_LIMITS.expiryHours * 60 * 60 * 1000 + 1000);
    expect((await head(ctx(), owner, url)).status).toBe(410);
    expect((await errorOf(await patch(ctx(), owner, url, 1000, jpeg.subarray(1000, 2000)), 410)).message).toBe(UPLOAD_MESSAGES.expired);
    await ctx().jobs.send('uploads.expire', {});
    await ctx().jobs.drain();
    expect(await ctx().database.db.select().from(media).where(eq(media.id, id))).toEqual([]);
    expect(fs.existsSync(path.join(tusDir(ctx().config.dataDir), id))).toBe(false);
    // A failed upload keeps its reason.
    const failed = await ctx().database.db.select().from(media).where(eq(media.status, 'failed'));
    expect(failed.length).toBeGreaterThan(0);
  });

  it('holds the account to its uploads at once around each PATCH, and to its daily bytes on creation', async () => {
    const busy = await signedInUser(ctx(), 'participant');
    const { reserveUpload, releaseUpload } = await import('../../src/server/services/media.ts');
    const held = [await reserveUpload(ctx().database.db, ctx().clock, busy.id, 0), await reserveUpload(ctx().database.db, ctx().clock, busy.id, 0)];
    const url = (await create(ctx(), busy, jpeg.byteLength)).headers.get('location') ?? '';
    const refused = await patch(ctx(), busy, url, 0, jpeg);
    expect((await errorOf(refused, 429)).message).toBe(MEDIA_MESSAGES.tooManyUploads);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    for (const id of held) await releaseUpload(ctx().database.db, id);
    expect((await patch(ctx(), busy, url, 0, jpeg)).status).toBe(204);

    const spender = await signedInUser(ctx(), 'participant');
    await ctx()
      .database.db.insert(media)
      .values({ id: 'x'.repeat(22), ownerId: spender.id, status: 'failed', uploadedBytes: MEDIA_LIMITS.bytesPerDay - 10, createdAt: ctx().clock.now() });
    const overBudget = await create(ctx(), spender, 100);
    expect((await errorOf(overBudget, 429)).message).toBe(MEDIA_MESSAGES.dailyBytes);
  });
});
