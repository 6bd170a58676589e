import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  forms,
  media,
  mediaUploadReservations,
  missionEntries,
  missions,
  projects,
  rateLimits,
  surveyResponses,
  surveys,
} from '../../src/server/db/schema/index.ts';
import { heicSupported, mediaUploadRateKey, newMediaId, UPLOADS_IN_FLIGHT } from '../../src/server/services/media.ts';
import { InvalidStorageKeyError, LocalStorage } from '../../src/server/storage/index.ts';
import { MEDIA_LIMITS, MEDIA_MESSAGES, type MediaUploaded } from '../../src/shared/media.ts';
import type { AdminMission } from '../../src/shared/missions.ts';
import type { ReviewSubmission } from '../../src/shared/review.ts';
import { describeEachStore, ORIGIN, type TestContext } from './harness.ts';
import { callAs, createMission, createProject, member, okJson, photoDefinition, publishedForm } from './programme-fixtures.ts';
import { errorOf, signedInUser, type SignedIn } from './helpers.ts';

const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Fixtures, made with sharp (or by hand where a real file would be too big)

/**
 * A 600×400 JPEG stored sideways: EXIF orientation 6 (turn 90° clockwise to show), a camera name
 * and a GPS position. A blue block sits in the stored image's top-left corner, red elsewhere.
 */
async function sidewaysJpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .composite([{ input: { create: { width: 100, height: 50, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Field 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();
}

/** Whether an EXIF block holds a GPS directory (tag 0x8825, either byte order). */
const hasGpsTag = (exif: Buffer | undefined) => exif !== undefined && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

const pngWithAlpha = () =>
  sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 10, g: 160, b: 60, alpha: 0.5 } } })
    .png()
    .toBuffer();
const webp = () =>
  sharp({ create: { width: 3000, height: 1000, channels: 3, background: { r: 20, g: 20, b: 200 } } })
    .webp()
    .toBuffer();
const avif = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 90, b: 20 } } })
    .avif({ quality: 50, effort: 0 })
    .toBuffer();
const gif = () =>
  sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .gif()
    .toBuffer();

/** A PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG whose header says 8000×7000 (56 megapixels); its pixels are never there. */
function hugePngHeader(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8000, 0);
  ihdr.writeUInt32BE(7000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The start of an iPhone HEIC file (`ftyp` box, brand `heic`), then junk. */
function heicHeader(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')]);
  return Buffer.concat([ftyp, Buffer.alloc(2000, 0x42)]);
}

/** An MP4 video's first bytes: an ISO media file that is not an image. */
const mp4Header = () => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom\0\0\0\0isomiso2', 'latin1'), Buffer.alloc(500, 1)]);

// ---------------------------------------------------------------------------------------------
// Calls

/** A multipart body with the field `file` (or a text field, or none), whole, as a browser sends it. */
async function multipart(file: Blob | string | null, name = 'photo.jpg'): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const form = new FormData();
  if (typeof file === 'string') form.append('file', file);
  else if (file) form.append('file', file, name);
  else form.append('caption', 'no file here');
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}

/** `POST /api/media` as a browser sends it: the multipart body with its `Content-Length`. */
const upload = async (ctx: TestContext, who: SignedIn | null, file: Blob | string | null, name = 'photo.jpg') => {
  const { body, contentType } = await multipart(file, name);
  return ctx.request('/api/media', {
    method: 'POST',
    headers: { Origin: ORIGIN, ...(who ? who.headers : {}), 'Content-Type': contentType, 'Content-Length': String(body.byteLength) },
    body,
  });
};
const blob = (bytes: Uint8Array, type = 'image/jpeg') => new Blob([new Uint8Array(bytes)], { type });

async function uploaded(res: Response): Promise<MediaUploaded> {
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as MediaUploaded;
}

const get = (ctx: TestContext, url: string, who: SignedIn | null, headers: Record<string, string> = {}) =>
  ctx.request(url, { headers: { ...(who ? who.headers : {}), ...headers } });

const remove = (ctx: TestContext, id: string, who: SignedIn | null) => ctx.json('DELETE', `/api/media/${id}`, undefined, who ? who.headers : {});

/** A request body that yields `total` bytes in 64 KiB chunks and counts how many were pulled. */
function countingStream(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
  return { stream, pulled: () => sent };
}

/** Files stored for a media id (`{id}/…` in the context's store: `uploads/{id}/` or the bucket). */
const storedFiles = async (ctx: TestContext, id: string) => (await ctx.storedKeys(`${id}/`)).map((key) => key.slice(id.length + 1));

/**
 * An upload whose body waits for `release()`; `started` resolves once the server reads the body
 * (no read-ahead: high-water mark 0). The body is `payload` (a whole multipart body), or an empty
 * multipart body (answered 400 `file_required`). `Content-Length` is sent.
 */
function heldUpload(ctx: TestContext, who: SignedIn, payload?: { body: Uint8Array<ArrayBuffer>; contentType: string }) {
  let release = () => {};
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const body = payload?.body ?? new TextEncoder().encode('--xyz--\r\n');
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        markStarted();
        await gate;
        controller.enqueue(body);
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const response = ctx.request('/api/media', {
    method: 'POST',
    headers: {
      Origin: ORIGIN,
      ...who.headers,
      'Content-Type': payload?.contentType ?? 'multipart/form-data; boundary=xyz',
      'Content-Length': String(body.byteLength),
    },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { started, release, response };
}

/** A media row of `bytes` uploaded `agoMs` before the clock's now (no files): it counts against the daily budget. */
async function insertUploaded(ctx: TestContext, ownerId: number, bytes: number, agoMs: number): Promise<void> {
  const id = newMediaId();
  await ctx.database.db.insert(media).values({
    id,
    ownerId,
    contentType: 'image/jpeg',
    width: 1,
    height: 1,
    bytes: 1,
    uploadedBytes: bytes,
    displayKey: `${id}/display.jpg`,
    thumbnailKey: `${id}/thumb.webp`,
    thumbnailWidth: 1,
    thumbnailHeight: 1,
    createdAt: new Date(ctx.clock.now().getTime() - agoMs),
  });
}

describeEachStore('media API', (ctx) => {
  let owner: SignedIn;
  let other: SignedIn;
  let moderator: SignedIn;
  let admin: SignedIn;
  let photo: MediaUploaded;
  beforeAll(async () => {
    owner = await signedInUser(ctx(), 'participant');
    other = await signedInUser(ctx(), 'participant');
    moderator = await signedInUser(ctx(), 'moderator');
    admin = await signedInUser(ctx(), 'admin');
    photo = await uploaded(await upload(ctx(), owner, blob(await sidewaysJpegWithGps())));
  });

  it('shows a picture in mission instructions to the members taking part, and to no one else', async () => {
    const picture = await uploaded(await upload(ctx(), moderator, blob(await pngWithAlpha(), 'image/png'), 'shelf.png'));
    const project = await createProject(ctx(), { status: 'live' });
    await createMission(ctx(), project.id, { status: 'live', instructions: `Look at this shelf:\n\n![A shelf](/api/media/${picture.id})` });
    const taking = await member(ctx(), project.id);
    expect((await get(ctx(), picture.url, taking)).status).toBe(200);
    expect((await get(ctx(), picture.thumbnailUrl, taking)).status).toBe(200);
    // Not a member, or the mission's project not live: 404.
    expect((await get(ctx(), picture.url, other)).status).toBe(404);
    const draftProject = await createProject(ctx(), { status: 'draft' });
    await createMission(ctx(), draftProject.id, { status: 'live', instructions: `![A shelf](/api/media/${picture.id})` });
    expect((await get(ctx(), picture.url, await member(ctx(), draftProject.id))).status).toBe(404);
  });

  it('copies a participant’s photo a moderator puts in instructions into a staff-owned one: members see the copy, never the original', async () => {
    const as = (who: SignedIn) => callAs(ctx(), who);
    const project = await createProject(ctx(), { status: 'live' });
    const taking = await member(ctx(), project.id);
    const form = await publishedForm(ctx());
    const theirs = await uploaded(await upload(ctx(), owner, blob(await pngWithAlpha(), 'image/png'), 'mine.png'));
    const staffOwned = await uploaded(await upload(ctx(), moderator, blob(await pngWithAlpha(), 'image/png'), 'staff.png'));
    const linked = (id: string) => `Like this:\n\n![A shelf](/api/media/${id})\n\n[small](/api/media/${id}/thumbnail) ![ours](/api/media/${staffOwned.id})`;

    const made = await okJson<AdminMission>(
      await as(moderator)('POST', `/api/admin/projects/${project.id}/missions`, {
        title: 'Shelf',
        instructions: linked(theirs.id),
        formId: form.id,
        status: 'live',
      }),
      201,
    );
    const copyId = /!\[A shelf\]\(\/api\/media\/([A-Za-z0-9_-]{22})\)/.exec(made.instructions)?.[1] ?? '';
    expect(copyId).not.toBe(theirs.id);
    // Every link to the participant's photo points at the copy; the staff photo's link is left as it was.
    expect(made.instructions).toBe(linked(copyId));
    const [copy] = await ctx().database.db.select().from(media).where(eq(media.id, copyId));
    expect(copy).toMatchObject({ ownerId: moderator.id, uploadedBytes: 0, attachedAt: expect.any(Date) });

    // A member of the project sees the copy and the staff photo, not the participant's own photo.
    expect((await get(ctx(), theirs.url, taking)).status).toBe(404);
    expect((await get(ctx(), theirs.thumbnailUrl, taking)).status).toBe(404);
    const shown = await get(ctx(), `/api/media/${copyId}`, taking);
    expect(shown.status).toBe(200);
    expect((await get(ctx(), `/api/media/${copyId}/thumbnail`, taking)).status).toBe(200);
    expect((await get(ctx(), staffOwned.url, taking)).status).toBe(200);
    expect(Buffer.from(await shown.arrayBuffer()).equals(Buffer.from(await (await get(ctx(), theirs.url, owner)).arrayBuffer()))).toBe(true);
    // The participant keeps their photo and may remove it: the copy stays.
    expect((await remove(ctx(), theirs.id, owner)).status).toBe(204);
    expect((await get(ctx(), `/api/media/${copyId}`, taking)).status).toBe(200);

    // Saving the instructions copies the same way.
    const again = await uploaded(await upload(ctx(), other, blob(await pngWithAlpha(), 'image/png'), 'again.png'));
    const edited = await okJson<AdminMission>(
      await as(moderator)('PATCH', `/api/admin/missions/${made.id}`, { instructions: `![again](/api/media/${again.id})` }),
    );
    const secondCopy = /\/api\/media\/([A-Za-z0-9_-]{22})/.exec(edited.instructions)?.[1] ?? '';
    expect(secondCopy).not.toBe(again.id);
    expect((await get(ctx(), again.url, taking)).status).toBe(404);
    expect((await get(ctx(), `/api/media/${secondCopy}`, taking)).status).toBe(200);

    // Instructions that hold a participant's photo without going through a save (older data) show it to no other member.
    const legacy = await uploaded(await upload(ctx(), other, blob(await pngWithAlpha(), 'image/png'), 'legacy.png'));
    await createMission(ctx(), project.id, { status: 'live', instructions: `![old](/api/media/${legacy.id})` });
    expect((await get(ctx(), legacy.url, taking)).status).toBe(404);
    expect((await get(ctx(), legacy.url, other)).status).toBe(200);
  });

  describe('POST /api/media', () => {
    it('re-encodes a sideways JPEG upright with no EXIF or GPS left, and answers its oriented size', async () => {
      const input = await sidewaysJpegWithGps();
      const before = await sharp(input).metadata();
      expect(before.orientation).toBe(6);
      expect(hasGpsTag(before.exif)).toBe(true);
      expect(before.exif?.includes('TestCam')).toBe(true);

      expect(photo).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        url: `/api/media/${photo.id}`,
        thumbnailUrl: `/api/media/${photo.id}/thumbnail`,
        width: 400,
        height: 600,
        bytes: expect.any(Number),
      });

      const res = await get(ctx(), photo.url, owner);
      expect(res.status).toBe(200);
      const stored = Buffer.from(await res.arrayBuffer());
      expect(stored.length).toBe(photo.bytes);
      const after = await sharp(stored).metadata();
      expect(after).toMatchObject({ format: 'jpeg', width: 400, height: 600 });
      expect(after.exif).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(stored.includes('TestCam')).toBe(false);
      // Turned clockwise: the stored top-left blue block is now top-right.
      const { data, info } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
      const [r1, , b1] = pixel(390, 20);
      expect(b1).toBeGreaterThan(180);
      expect(r1).toBeLessThan(60);
      const [r2, , b2] = pixel(10, 20);
      expect(r2).toBeGreaterThan(150);
      expect(b2).toBeLessThan(80);
    });

    it('makes a WebP thumbnail no larger than the thumbnail size', async () => {
      const big = await uploaded(await upload(ctx(), owner, blob(await webp(), 'image/webp'), 'wide.webp'));
      expect([big.width, big.height]).toEqual([MEDIA_LIMITS.displaySide, Math.round((MEDIA_LIMITS.displaySide * 1000) / 3000)]);
      const res = await get(ctx(), big.thumbnailUrl, owner);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: MEDIA_LIMITS.thumbnailSide, height: 160 });
      const display = await sharp(Buffer.from(await (await get(ctx(), big.url, owner)).arrayBuffer())).metadata();
      expect(display).toMatchObject({ format: 'jpeg', width: 2048, height: 683 });
    });

    it('accepts a PNG (transparency on white) and a WebP, whatever their names and declared types', async () => {
      const png = await uploaded(await upload(ctx(), owner, blob(await pngWithAlpha(), 'application/octet-stream'), 'scan.bin'));
      expect([png.width, png.height]).toEqual([300, 200]);
      const res = await get(ctx(), png.url, owner);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const { data } = await sharp(Buffer.from(await res.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      // 50 % green over white, not over black.
      expect(data[0]).toBeGreaterThan(100);
      expect(data[1]).toBeGreaterThan(180);

      const small = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#336699' } })
        .webp()
        .toBuffer();
      const fromWebp = await uploaded(await upload(ctx(), owner, blob(small, 'image/png'), 'photo.png'));
      expect([fromWebp.width, fromWebp.height]).toEqual([120, 90]);
    });

    it.runIf(sharp.format.heif.input.buffer)('accepts AVIF (HEIF with AV1), which this platform decodes', async () => {
      const res = await upload(ctx(), owner, blob(await avif(), 'image/avif'), 'photo.avif');
      expect(await uploaded(res)).toMatchObject({ width: 64, height: 48 });
    });

    it('refuses a text file named photo.jpg and typed image/jpeg: 415', async () => {
      const error = await errorOf(await upload(ctx(), owner, blob(new TextEncoder().encode('I am not a photo, just text.\n'), 'image/jpeg'), 'photo.jpg'), 415);
      expect(error).toEqual({ code: 'unsupported_type', message: 'Upload a JPEG, PNG, WebP or HEIC photo' });
    });

    it('refuses images of other kinds (GIF, SVG) and videos by their content: 415', async () => {
      for (const [bytes, name] of [
        [await gif(), 'photo.jpg'],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'photo.png'],
        [mp4Header(), 'photo.heic'],
      ] as const) {
        const error = await errorOf(await upload(ctx(), owner, blob(bytes), name), 415);
        expect(error.message).toBe(MEDIA_MESSAGES.notAnImage);
      }
    });

    it('answers HEIC according to what the platform decodes', async () => {
      const res = await upload(ctx(), owner, blob(heicHeader(), 'image/heic'), 'IMG_0001.HEIC');
      if (heicSupported()) {
        expect((await errorOf(res, 400)).code).toBe('unreadable_image'); // decodable in general; this one is junk
      } else {
        expect(await errorOf(res, 415)).toEqual({
          code: 'heic_unsupported',
          message: 'HEIC photos cannot be read on this server yet: choose JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible)',
        });
      }
    });

    it('refuses a corrupt or truncated image: 400', async () => {
      const junk = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 0x37)]);
      expect(await errorOf(await upload(ctx(), owner, blob(junk)), 400)).toEqual({ code: 'unreadable_image', message: MEDIA_MESSAGES.unreadable });
      const whole = await sidewaysJpegWithGps();
      expect((await errorOf(await upload(ctx(), owner, blob(whole.subarray(0, Math.floor(whole.length / 2)))), 400)).code).toBe('unreadable_image');
    });

    it('refuses an image over 50 megapixels from its header: 400', async () => {
      const error = await errorOf(await upload(ctx(), owner, blob(hugePngHeader(), 'image/png'), 'huge.png'), 400);
      expect(error).toEqual({ code: 'too_many_pixels', message: 'This photo is larger than 50 megapixels' });
    });

    it('refuses no file field, a text field named file and an empty file: 400', async () => {
      expect(await errorOf(await upload(ctx(), owner, null), 400)).toEqual({ code: 'file_required', message: MEDIA_MESSAGES.fileRequired });
      expect((await errorOf(await upload(ctx(), owner, 'just text'), 400)).code).toBe('file_required');
      expect(await errorOf(await upload(ctx(), owner, blob(new Uint8Array(0))), 400)).toEqual({ code: 'file_empty', message: MEDIA_MESSAGES.empty });
      const asJson = await ctx().json('POST', '/api/media', { file: 'x' }, owner.headers);
      expect((await errorOf(asJson, 400)).code).toBe('file_required');
    });

    it('refuses a declared Content-Length over the limit with 413 before reading the body', async () => {
      const body = countingStream(25 * MB);
      const res = await ctx().request('/api/media', {
        method: 'POST',
        headers: { Origin: ORIGIN, ...owner.headers, 'Content-Type': 'multipart/form-data; boundary=xyz', 'Content-Length': String(25 * MB) },
        body: body.stream,
        duplex: 'half',
      } as RequestInit);
      expect(await errorOf(res, 413)).toEqual({ code: 'file_too_large', message: 'This photo is larger than 20 MB' });
      expect(body.pulled()).toBeLessThan(MB);
    });

    it('counts a body without Content-Length as it arrives and stops reading past the limit: 413', async () => {
      const body = countingStream(40 * MB);
      const res = await ctx().request('/api/media', {
        method: 'POST',
        headers: { Origin: ORIGIN, ...owner.headers, 'Content-Type': 'multipart/form-data; boundary=xyz' },
        body: body.stream,
        duplex: 'half',
      } as RequestInit);
      expect((await errorOf(res, 413)).code).toBe('file_too_large');
      expect(body.pulled()).toBeGreaterThan(MEDIA_LIMITS.maxBytes);
      expect(body.pulled()).toBeLessThan(MEDIA_LIMITS.maxBytes + 2 * MB);
    });

    it('refuses a file one byte over 20 MB inside a body that fits the framing allowance: 413', async () => {
      const bytes = new Uint8Array(MEDIA_LIMITS.maxBytes + 1);
      bytes.set([0xff, 0xd8, 0xff]);
      expect((await errorOf(await upload(ctx(), owner, blob(bytes)), 413)).code).toBe('file_too_large');
    });

    it('needs a session (401) and a same-origin multipart call (403)', async () => {
      const jpeg = blob(await sidewaysJpegWithGps());
      expect((await errorOf(await upload(ctx(), null, jpeg), 401)).code).toBe('unauthenticated');
      const form = new FormData();
      form.append('file', jpeg, 'photo.jpg');
      const crossSite = await ctx().request('/api/media', { method: 'POST', headers: { Origin: 'https://evil.example', ...owner.headers }, body: form });
      expect(crossSite.status).toBe(403);
    });

    it('never names a stored file after the upload: keys are the id and the size', async () => {
      const res = await upload(ctx(), owner, blob(await pngWithAlpha(), 'image/png'), '../../etc/passwd.png');
      const made = await uploaded(res);
      expect(await storedFiles(ctx(), made.id)).toEqual(['display.jpg', 'thumb.webp']);
      expect((await ctx().storedKeys()).every((key) => /^[A-Za-z0-9_-]{22}\/[a-z]+\.(jpg|png|webp|avif)$/.test(key))).toBe(true);
    });
  });

  describe('GET /api/media/{id}', () => {
    it('serves the owner the display image with the image headers, and 304 on a matching ETag', async () => {
      const res = await get(ctx(), photo.url, owner);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-disposition')).toBe(`inline; filename="${photo.id}.jpg"`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);

      const again = await get(ctx(), photo.url, owner, { 'If-None-Match': etag ?? '' });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      const thumbEtag = (await get(ctx(), photo.thumbnailUrl, owner)).headers.get('etag');
      expect(thumbEtag).not.toBe(etag);
      expect((await get(ctx(), photo.thumbnailUrl, owner, { 'If-None-Match': etag ?? '' })).status).toBe(200);
    });

    it('serves moderators and admins too', async () => {
      for (const who of [moderator, admin]) {
        expect((await get(ctx(), photo.url, who)).status).toBe(200);
        const thumb = await get(ctx(), photo.thumbnailUrl, who);
        expect(thumb.status).toBe(200);
        expect(thumb.headers.get('content-disposition')).toBe(`inline; filename="${photo.id}-thumbnail.webp"`);
      }
    });

    it('is 404 for another participant and for anonymous callers, as for unknown ids', async () => {
      for (const url of [photo.url, photo.thumbnailUrl]) {
        expect((await errorOf(await get(ctx(), url, other), 404)).code).toBe('not_found');
        expect((await errorOf(await get(ctx(), url, null), 404)).code).toBe('not_found');
      }
      expect((await errorOf(await get(ctx(), '/api/media/AAAAAAAAAAAAAAAAAAAAAA', owner), 404)).code).toBe('not_found');
      expect((await errorOf(await get(ctx(), '/api/media/..%2F..%2Fetc', owner), 404)).code).toBe('not_found');
      expect((await errorOf(await get(ctx(), `/api/media/${photo.id}x`, owner), 404)).code).toBe('not_found');
      // An ETag does not get round the check.
      expect((await get(ctx(), photo.url, other, { 'If-None-Match': '*' })).status).toBe(404);
    });
  });

  describe('DELETE /api/media/{id}', () => {
    /** A live project with an external survey and a mission (its form's content does not matter here). */
    async function programme(): Promise<{ surveyId: number; missionId: number }> {
      const db = ctx().database.db;
      const [project] = await db.insert(projects).values({ name: 'Media project', status: 'live' }).returning();
      const [form] = await db
        .insert(forms)
        .values({ title: 'Photo form', draft: { schema: 'fieldwork.form/1', title: 'Photo form', pages: [] } as never })
        .returning();
      const [survey] = await db
        .insert(surveys)
        .values({ projectId: project!.id, title: 'S', kind: 'external', externalUrl: 'https://example.org/s', status: 'live' })
        .returning();
      const [mission] = await db.insert(missions).values({ projectId: project!.id, title: 'M', formId: form!.id, formVersion: 1, status: 'live' }).returning();
      return { surveyId: survey!.id, missionId: mission!.id };
    }

    const freshPhoto = async (who: SignedIn) => uploaded(await upload(ctx(), who, blob(await pngWithAlpha(), 'image/png'), 'p.png'));

    it('lets the owner remove a photo no submission holds: 204, then it is gone with its files', async () => {
      const made = await freshPhoto(owner);
      expect(await storedFiles(ctx(), made.id)).toHaveLength(2);
      expect((await errorOf(await remove(ctx(), made.id, other), 404)).code).toBe('not_found');
      expect((await errorOf(await remove(ctx(), made.id, moderator), 404)).code).toBe('not_found');
      expect((await errorOf(await remove(ctx(), made.id, null), 401)).code).toBe('unauthenticated');
      const res = await remove(ctx(), made.id, owner);
      expect(res.status).toBe(204);
      expect(await storedFiles(ctx(), made.id)).toEqual([]);
      if (ctx().mediaStore === 'local') expect(fs.existsSync(path.join(ctx().dataDir, 'uploads', made.id))).toBe(false);
      expect((await get(ctx(), made.url, owner)).status).toBe(404);
      expect((await get(ctx(), made.url, moderator)).status).toBe(404);
      expect((await remove(ctx(), made.id, owner)).status).toBe(404);
    });

    it('refuses (409 in_use) while a submitted survey response or mission entry holds it; drafts do not count', async () => {
      const { surveyId, missionId } = await programme();
      const db = ctx().database.db;
      const inSurvey = await freshPhoto(owner);
      const inEntry = await freshPhoto(owner);
      const inDraft = await freshPhoto(owner);
      await db
        .insert(surveyResponses)
        .values({ surveyId, userId: owner.id, formVersion: 1, answers: { photos: [inSurvey.id], note: 'x' }, status: 'submitted', submittedAt: new Date() });
      await db
        .insert(missionEntries)
        .values({ missionId, userId: owner.id, formVersion: 1, answers: { photos: [inDraft.id] }, status: 'draft', localDate: '2026-11-01' });
      await db.insert(missionEntries).values({
        missionId,
        userId: owner.id,
        formVersion: 1,
        answers: { photos: [inEntry.id] },
        status: 'approved',
        localDate: '2026-11-01',
        submittedAt: new Date(),
      });

      for (const made of [inSurvey, inEntry]) {
        expect(await errorOf(await remove(ctx(), made.id, owner), 409)).toEqual({ code: 'in_use', message: MEDIA_MESSAGES.inUse });
        expect((await get(ctx(), made.url, owner)).status).toBe(200);
      }
      expect((await remove(ctx(), inDraft.id, owner)).status).toBe(204);
    });

    it('refuses (409) while a mission’s instructions show it', async () => {
      const { missionId } = await programme();
      const made = await freshPhoto(moderator);
      const db = ctx().database.db;
      await db
        .update(missions)
        .set({ instructions: `Like this: ![example](${made.url})` })
        .where(eq(missions.id, missionId));
      expect((await errorOf(await remove(ctx(), made.id, moderator), 409)).code).toBe('in_use');
    });

    it('refuses (409) while a kept version holds it: changes requested, the photo taken out of the draft, the review history still shows it', async () => {
      const as = (who: SignedIn) => callAs(ctx(), who);
      const project = await createProject(ctx(), { status: 'live' });
      const mission = await createMission(ctx(), project.id, { definition: photoDefinition(), status: 'live' });
      const taking = await member(ctx(), project.id);
      const shot = await freshPhoto(taking);
      const entry = await okJson<{ id: number }>(await as(taking)('POST', `/api/missions/${mission.id}/entries`, {}), 201);
      const entryPath = `/api/missions/${mission.id}/entries/${entry.id}`;
      await okJson(await as(taking)('POST', `${entryPath}/submit`, { answers: { photos: [shot.id], caption: 'My shelf' } }));
      await okJson(await as(moderator)('POST', `/api/admin/submissions/${entry.id}/review`, { decision: 'request_changes', reason: 'Show the whole shelf' }));

      // The participant takes the photo out of the draft (a save names the entry's revision once it has one)…
      const draft = { caption: 'My shelf, again' };
      let saved = await as(taking)('PUT', entryPath, { answers: draft });
      if (saved.status === 400) {
        const [row] = await ctx().database.db.select({ revision: missionEntries.revision }).from(missionEntries).where(eq(missionEntries.id, entry.id));
        saved = await as(taking)('PUT', entryPath, { answers: draft, revision: row?.revision });
      }
      await okJson(saved);
      // …and tries to delete it: the version the moderator reviewed holds it.
      expect(await errorOf(await remove(ctx(), shot.id, taking), 409)).toEqual({ code: 'in_use', message: MEDIA_MESSAGES.inUse });
      const history = await okJson<ReviewSubmission>(await as(moderator)('GET', `/api/admin/submissions/${entry.id}`));
      expect(history.history[0]?.answers).toMatchObject({ photos: [shot.id] });
      expect((await get(ctx(), shot.url, moderator)).status).toBe(200);
      expect((await get(ctx(), shot.thumbnailUrl, moderator)).status).toBe(200);
      expect(await storedFiles(ctx(), shot.id)).toEqual(['display.jpg', 'thumb.webp']);
    });
  });

  describe('limits', () => {
    it('answers 429 with Retry-After past the uploads per hour, and takes uploads again an hour later', async () => {
      const busy = await signedInUser(ctx(), 'participant');
      // The hour's count so far: all but two attempts used.
      await ctx()
        .database.db.insert(rateLimits)
        .values({ key: mediaUploadRateKey(busy.id), count: MEDIA_LIMITS.uploadsPerHour - 2, resetAt: new Date(ctx().clock.now().getTime() + 3_600_000) });
      const jpeg = blob(await sidewaysJpegWithGps());
      // Every attempt counts, a refused one too.
      expect((await upload(ctx(), busy, null)).status).toBe(400);
      await uploaded(await upload(ctx(), busy, jpeg));
      const refused = await upload(ctx(), busy, jpeg);
      expect((await errorOf(refused, 429)).code).toBe('rate_limited');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // Others are not affected.
      await uploaded(await upload(ctx(), other, jpeg));
      ctx().clock.advance(retryAfter * 1000);
      await uploaded(await upload(ctx(), busy, jpeg));
    });

    it('answers 429 past the bytes per day (summed over 24 h), with Retry-After until enough has left the window', async () => {
      const heavy = await signedInUser(ctx(), 'participant');
      const db = ctx().database.db;
      const now = ctx().clock.now().getTime();
      const HOUR = 3_600_000;
      // 2 GiB − 1 MiB uploaded: half 20 h ago, half 2 h ago.
      const half = (MEDIA_LIMITS.bytesPerDay - MB) / 2;
      for (const [i, hoursAgo] of [20, 2].entries()) {
        await db.insert(media).values({
          id: `quota${i}xxxxxxxxxxxxxxx${heavy.id % 10}`.slice(0, 22),
          ownerId: heavy.id,
          contentType: 'image/jpeg',
          width: 1,
          height: 1,
          bytes: 1,
          uploadedBytes: half,
          displayKey: `quota${i}/display.jpg`,
          thumbnailKey: `quota${i}/thumb.webp`,
          thumbnailWidth: 1,
          thumbnailHeight: 1,
          createdAt: new Date(now - hoursAgo * HOUR),
        });
      }
      const big = await sharp({ create: { width: 700, height: 700, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
        .png({ compressionLevel: 0 })
        .toBuffer(); // over 1 MiB
      expect(big.length).toBeGreaterThan(MB);
      const refused = await upload(ctx(), heavy, blob(big, 'image/png'), 'big.png');
      expect(await errorOf(refused, 429)).toEqual({ code: 'daily_upload_limit', message: MEDIA_MESSAGES.dailyBytes });
      expect(Number(refused.headers.get('retry-after'))).toBe(4 * 3600); // the 20-hour-old upload leaves the window in 4 h
      // A smaller photo still fits.
      await uploaded(await upload(ctx(), heavy, blob(await pngWithAlpha(), 'image/png')));
      ctx().clock.advance(4 * HOUR + 1000);
      await uploaded(await upload(ctx(), heavy, blob(big, 'image/png'), 'big.png'));
    });

    it(`takes at most ${UPLOADS_IN_FLIGHT} uploads at once per process (${MEDIA_LIMITS.uploadsAtOnce} per account); the next waits for a place, and gets 503 with Retry-After when none frees in time`, async () => {
      const accounts = await Promise.all(Array.from({ length: UPLOADS_IN_FLIGHT / MEDIA_LIMITS.uploadsAtOnce }, () => signedInUser(ctx(), 'participant')));
      const held = accounts.flatMap((who) => Array.from({ length: MEDIA_LIMITS.uploadsAtOnce }, () => heldUpload(ctx(), who)));
      expect(held).toHaveLength(UPLOADS_IN_FLIGHT);
      await Promise.all(held.map((upload) => upload.started));
      // None frees: refused once the wait is over.
      const refused = await upload(ctx(), owner, blob(await pngWithAlpha(), 'image/png'));
      expect(await errorOf(refused, 503)).toEqual({ code: 'busy', message: MEDIA_MESSAGES.busy });
      expect(refused.headers.get('retry-after')).toBe('5');
      // One frees while another waits (its place reserved for the account, so it asks for a place next): the waiting one is taken and stored.
      const png = await pngWithAlpha();
      const waiting = upload(ctx(), owner, blob(png, 'image/png'));
      const reservations = () => ctx().database.db.select().from(mediaUploadReservations).where(eq(mediaUploadReservations.ownerId, owner.id));
      for (let tries = 0; (await reservations()).length === 0 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await reservations()).toHaveLength(1);
      const [first, ...others] = held;
      first?.release();
      expect((await first?.response)?.status).toBe(400);
      await uploaded(await waiting);
      for (const upload of others) upload.release();
      for (const res of await Promise.all(others.map((upload) => upload.response))) expect(res.status).toBe(400);
      await uploaded(await upload(ctx(), owner, blob(await pngWithAlpha(), 'image/png')));
    });

    it(`refuses an account's upload past ${MEDIA_LIMITS.uploadsAtOnce} at once with 429 too_many_uploads before reading its body; others upload meanwhile`, async () => {
      const busy = await signedInUser(ctx(), 'participant');
      const held = [heldUpload(ctx(), busy), heldUpload(ctx(), busy)];
      await Promise.all(held.map((upload) => upload.started));
      let pulled = false;
      const third = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulled = true;
            controller.enqueue(new Uint8Array(1024));
          },
        },
        { highWaterMark: 0 },
      );
      const refused = await ctx().request('/api/media', {
        method: 'POST',
        headers: { Origin: ORIGIN, ...busy.headers, 'Content-Type': 'multipart/form-data; boundary=xyz', 'Content-Length': String(MB) },
        body: third,
        duplex: 'half',
      } as RequestInit);
      expect(await errorOf(refused, 429)).toEqual({ code: 'too_many_uploads', message: MEDIA_MESSAGES.tooManyUploads });
      expect(pulled).toBe(false);
      // Another participant is not held up by them.
      await uploaded(await upload(ctx(), other, blob(await pngWithAlpha(), 'image/png')));
      for (const upload of held) upload.release();
      for (const res of await Promise.all(held.map((upload) => upload.response))) expect(res.status).toBe(400);
      // Both places are back.
      const [a, b] = await Promise.all([
        upload(ctx(), busy, blob(await pngWithAlpha(), 'image/png')),
        upload(ctx(), busy, blob(await pngWithAlpha(), 'image/png')),
      ]);
      await uploaded(a);
      await uploaded(b);
    });

    it('reserves the bytes of the daily budget before reading: of two uploads at once that each fit but not together, one is refused', async () => {
      const racer = await signedInUser(ctx(), 'participant');
      const body = await multipart(blob(await pngWithAlpha(), 'image/png'), 'p.png');
      // Uploaded in the last 24 h: all the budget but one and a half of these bodies.
      await insertUploaded(ctx(), racer.id, MEDIA_LIMITS.bytesPerDay - Math.floor(1.5 * body.body.byteLength), 3_600_000);
      const first = heldUpload(ctx(), racer, body);
      await first.started;
      const second = heldUpload(ctx(), racer, body);
      await Promise.race([second.started, second.response]);
      first.release();
      second.release();
      const answers = await Promise.all([first.response, second.response]);
      expect(answers.map((res) => res.status).sort()).toEqual([201, 429]);
      const refused = answers.find((res) => res.status === 429);
      expect((await errorOf(refused ?? new Response(), 429)).code).toBe('daily_upload_limit');
    });

    it('gives the place and the reserved bytes back when an upload fails', async () => {
      const unlucky = await signedInUser(ctx(), 'participant');
      const png = await pngWithAlpha();
      const size = (await multipart(blob(png, 'image/png'), 'p.png')).body.byteLength;
      // Room for one more body of this size today, not two.
      await insertUploaded(ctx(), unlucky.id, MEDIA_LIMITS.bytesPerDay - size - 100, 3_600_000);
      // Refused after its body was read, as large as the photo: its reservation held a place and the bytes.
      const text = blob(new TextEncoder().encode('x'.repeat(png.length)), 'image/png');
      for (let i = 0; i < MEDIA_LIMITS.uploadsAtOnce + 1; i++)
        expect((await errorOf(await upload(ctx(), unlucky, text, 'p.png'), 415)).code).toBe('unsupported_type');
      await uploaded(await upload(ctx(), unlucky, blob(png, 'image/png'), 'p.png'));
      const left = await ctx().database.db.select().from(mediaUploadReservations).where(eq(mediaUploadReservations.ownerId, unlucky.id));
      expect(left).toEqual([]);
    });

    it('cuts off a body that sends nothing for the stall time with 408 upload_stalled, and gives the places back at once', async () => {
      const config = ctx().config;
      const stallMs = config.uploadStallMs;
      expect(stallMs).toBe(MEDIA_LIMITS.stallSeconds * 1000);
      const slow = await signedInUser(ctx(), 'participant');
      // Never released: the bodies stop after their first byte would have come.
      const held = [heldUpload(ctx(), slow), heldUpload(ctx(), slow)];
      config.uploadStallMs = 300;
      try {
        const started = Date.now();
        for (const res of await Promise.all(held.map((upload) => upload.response))) {
          expect(await errorOf(res, 408)).toEqual({ code: 'upload_stalled', message: MEDIA_MESSAGES.stalled });
          expect(res.headers.get('connection')).toBe('close');
        }
        expect(Date.now() - started).toBeLessThan(10_000);
        // Both places are free again.
        await uploaded(await upload(ctx(), slow, blob(await pngWithAlpha(), 'image/png')));
      } finally {
        config.uploadStallMs = stallMs;
        for (const upload of held) upload.release();
      }
    });
  });
});

describe('LocalStorage', () => {
  let dir: string;
  let storage: LocalStorage;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-storage-'));
    storage = new LocalStorage(path.join(dir, 'uploads'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('puts, gets and deletes objects under server-made keys, leaving no temporary files', async () => {
    const body = new TextEncoder().encode('image bytes');
    await storage.put('abc/display.jpg', body, 'image/jpeg');
    expect(await storage.get('abc/display.jpg')).toEqual({ body: Buffer.from(body), contentType: 'image/jpeg', bytes: body.length });
    await storage.put('abc/display.jpg', new Uint8Array([1, 2]), 'image/jpeg'); // replaced whole
    expect((await storage.get('abc/display.jpg'))?.bytes).toBe(2);
    expect(fs.readdirSync(path.join(dir, 'uploads', 'abc'))).toEqual(['display.jpg']);
    expect(await storage.get('abc/thumb.webp')).toBeNull();
    // Streamed, with its length; no link of its own (the API streams local files).
    expect(await storage.stat('abc/display.jpg')).toEqual({ bytes: 2, contentType: 'image/jpeg' });
    const opened = await storage.open('abc/display.jpg');
    expect(opened).toMatchObject({ contentType: 'image/jpeg', bytes: 2 });
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.body ?? []) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Array.from(Buffer.concat(chunks))).toEqual([1, 2]);
    expect(await storage.open('abc/thumb.webp')).toBeNull();
    expect(await storage.stat('abc/thumb.webp')).toBeNull();
    expect(await storage.signedUrl('abc/display.jpg', { signedAt: new Date(), expiresInSeconds: 60 })).toBeNull();
    await storage.delete('abc/display.jpg');
    await storage.delete('abc/display.jpg'); // twice is fine
    expect(await storage.get('abc/display.jpg')).toBeNull();
    expect(fs.existsSync(path.join(dir, 'uploads', 'abc'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'uploads'))).toBe(true);
  });

  it('refuses keys that could leave its folder or hide files', async () => {
    for (const key of ['../x.jpg', 'a/../../x.jpg', '/etc/passwd.jpg', 'a//b.jpg', '.hidden.jpg', 'a/.tmp.jpg', '', 'a\\b.jpg', 'a/b c.jpg']) {
      await expect(storage.put(key, new Uint8Array([1]), 'image/jpeg'), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    expect(fs.existsSync(path.join(dir, 'x.jpg'))).toBe(false);
  });

  it('refuses a content type its key does not name', async () => {
    await expect(storage.put('k/display.jpg', new Uint8Array([1]), 'text/html')).rejects.toThrow(/content type/);
    await expect(storage.put('k/file.html', new Uint8Array([1]), 'text/html')).rejects.toThrow(/content type/);
    expect(await storage.get('k/display.jpg')).toBeNull();
  });
});
