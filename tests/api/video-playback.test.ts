/**
 * Playing a stored video (`GET /api/media/{id}/video`, its poster): the owner and staff only,
 * byte ranges (206, 416, If-Range, HEAD) from local disk and from S3 streamed, and a signed link
 * (302) with S3_DELIVERY=redirect. The rows and files are put in place directly (processing is
 * tested in video-processing.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../src/server/db/schema/index.ts';
import { parseRange } from '../../src/server/routes/media.ts';
import { newMediaId } from '../../src/server/services/media.ts';
import { videoKeys } from '../../src/server/services/video.ts';
import { posterUrl, VIDEO_MESSAGES, videoUrl } from '../../src/shared/media.ts';
import { createTestContext, describeEachStore, type TestContext } from './harness.ts';
import { errorOf, signedInUser, type SignedIn } from './helpers.ts';

const SIZE = 1000;
/** The stored "video": bytes whose value is their position mod 251, so any range is recognisable. */
const videoBytes = Uint8Array.from({ length: SIZE }, (_, index) => index % 251);

/** A ready video row of `ownerId` with its MP4 and poster in the context's storage. */
async function storedVideo(ctx: TestContext, ownerId: number): Promise<string> {
  const id = newMediaId();
  const keys = videoKeys(id);
  // Written the way processing stores it: streamed from a file (`putFile`).
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-video-play-')), 'video.mp4');
  fs.writeFileSync(file, videoBytes);
  await ctx.storage.putFile(keys.video, file, 'video/mp4');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const poster = await sharp({ create: { width: 32, height: 18, channels: 3, background: { r: 10, g: 90, b: 200 } } })
    .webp()
    .toBuffer();
  await ctx.storage.put(keys.poster, poster, 'image/webp');
  await ctx.database.db.insert(media).values({
    id,
    ownerId,
    kind: 'video',
    status: 'ready',
    contentType: 'video/mp4',
    width: 1920,
    height: 1080,
    bytes: SIZE,
    durationMs: 2000,
    uploadedBytes: 5000,
    displayKey: keys.video,
    thumbnailKey: keys.poster,
    thumbnailWidth: 32,
    thumbnailHeight: 18,
  });
  return id;
}

describe('parseRange', () => {
  it('reads one bytes range, clamps its end, and leaves anything else to a whole answer', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    for (const ignored of [undefined, '', 'bytes=5-1', 'bytes=0-1,5-9', 'items=0-1', 'bytes=-', 'bytes=a-b']) expect(parseRange(ignored, 1000)).toBeNull();
  });
});

describeEachStore('video playback', (ctx) => {
  let owner: SignedIn;
  let id: string;
  beforeAll(async () => {
    owner = await signedInUser(ctx());
    id = await storedVideo(ctx(), owner.id);
  });

  const get = (url: string, who: SignedIn | null, headers: Record<string, string> = {}, method = 'GET') =>
    ctx().request(url, { method, headers: { ...(who?.headers ?? {}), ...headers } });

  it('answers the owner and staff the whole MP4 with Accept-Ranges; HEAD the same headers without a body', async () => {
    const moderator = await signedInUser(ctx(), 'moderator');
    for (const who of [owner, moderator]) {
      const res = await get(videoUrl(id), who);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('content-length')).toBe(String(SIZE));
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(videoBytes))).toBe(true);
    }
    const head = await get(videoUrl(id), owner, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(SIZE));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a range with 206 and exactly its bytes, and one past the end with 416', async () => {
    const first = await get(videoUrl(id), owner, { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${SIZE}`);
    expect(first.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await first.arrayBuffer()).equals(Buffer.from(videoBytes.subarray(0, 100)))).toBe(true);

    const tail = await get(videoUrl(id), owner, { Range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 990-999/${SIZE}`);
    expect(Array.from(new Uint8Array(await tail.arrayBuffer()))).toEqual(Array.from(videoBytes.subarray(990)));

    const middle = await get(videoUrl(id), owner, { Range: 'bytes=500-' }, 'HEAD');
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-length')).toBe('500');

    const past = await get(videoUrl(id), owner, { Range: 'bytes=999999999-' });
    expect(past.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    expect(await errorOf(past, 416)).toEqual({ code: 'range_not_satisfiable', message: VIDEO_MESSAGES.rangeNotSatisfiable });
  });

  it('honours If-Range: the same ETag keeps the range, another (or a date) gets the whole file; If-None-Match → 304', async () => {
    const etag = `"${id}-video"`;
    expect((await get(videoUrl(id), owner, { Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
    for (const other of ['"something-else"', 'Wed, 21 Oct 2015 07:28:00 GMT']) {
      const res = await get(videoUrl(id), owner, { Range: 'bytes=0-9', 'If-Range': other });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(SIZE);
    }
    expect((await get(videoUrl(id), owner, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('serves the poster (WebP) to the same people', async () => {
    const res = await get(posterUrl(id), owner);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('webp');
  });

  it('is 404 for another participant, a guest, an unknown id, a photo and a video not ready yet', async () => {
    const other = await signedInUser(ctx());
    for (const who of [other, null]) {
      for (const url of [videoUrl(id), posterUrl(id)])
        expect(await errorOf(await get(url, who, { Range: 'bytes=0-9' }), 404)).toEqual({ code: 'not_found', message: VIDEO_MESSAGES.notFound });
    }
    expect((await get(videoUrl(newMediaId()), owner)).status).toBe(404);
    expect((await get(videoUrl('not-an-id'), owner)).status).toBe(404);
    const processing = newMediaId();
    await ctx().database.db.insert(media).values({ id: processing, ownerId: owner.id, kind: 'video', status: 'processing', uploadedBytes: 10 });
    expect((await get(videoUrl(processing), owner)).status).toBe(404);
    const photo = newMediaId();
    await ctx()
      .database.db.insert(media)
      .values({
        id: photo,
        ownerId: owner.id,
        contentType: 'image/webp',
        width: 32,
        height: 18,
        bytes: 10,
        uploadedBytes: 10,
        displayKey: `${photo}/thumb.webp`,
        thumbnailKey: `${photo}/thumb.webp`,
        thumbnailWidth: 32,
        thumbnailHeight: 18,
      });
    expect((await get(videoUrl(photo), owner)).status).toBe(404);
  });
});

describe('videos on S3 delivered by signed links [pglite, s3]', () => {
  let ctx: TestContext;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ context: ctx, close } = await createTestContext('pglite', { mediaStore: 's3', env: { S3_DELIVERY: 'redirect' } }));
  });
  afterAll(() => close());

  it('answers 302 to a signed link the store answers ranges on; others 404 without a link', async () => {
    const owner = await signedInUser(ctx);
    const id = await storedVideo(ctx, owner.id);
    for (const url of [videoUrl(id), posterUrl(id)]) {
      const res = await ctx.request(url, { headers: owner.headers });
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get('location') ?? '').origin).toBe(ctx.s3?.endpoint);
    }
    const link = (await ctx.request(videoUrl(id), { headers: owner.headers })).headers.get('location') ?? '';
    const ranged = await fetch(link, { headers: { Range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await ranged.arrayBuffer()).equals(Buffer.from(videoBytes.subarray(0, 100)))).toBe(true);

    const other = await signedInUser(ctx);
    const refused = await ctx.request(videoUrl(id), { headers: other.headers });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('location')).toBeNull();
  });
});
