/**
 * Resumable uploads (tus) with MEDIA_STORE=s3: `@tus/s3-store` against the tests' S3 stand-in
 * (`tests/support/s3.ts`, s3rver with the multipart calls it lacks). The objects of an upload
 * (`{S3_PREFIX}tus/{id}`, `.info`, `.part` and its multipart upload) are looked at behind the
 * app's back. One database (PGlite): the store is what is tested. `tests/api/uploads.test.ts`
 * covers the protocol and our checks on local disk.
 */
import { AbortMultipartUploadCommand, CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListPartsCommand, type S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../src/server/db/schema/index.ts';
import { createUploadStore } from '../../src/server/services/uploads.ts';
import { UPLOAD_LIMITS, type UploadState } from '../../src/shared/media.ts';
import { S3_MIN_PART_BYTES } from '../support/s3.ts';
import { testClip } from '../support/clips.ts';
import { createTestContext, ORIGIN, type TestContext } from './harness.ts';
import { signedInUser, type SignedIn } from './helpers.ts';

const MiB = 1024 * 1024;
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('resumable uploads in S3 (tus S3 store)', () => {
  let ctx: TestContext;
  let close: () => Promise<void>;
  let owner: SignedIn;
  beforeAll(async () => {
    ({ context: ctx, close } = await createTestContext('pglite', { mediaStore: 's3' }));
    owner = await signedInUser(ctx, 'participant');
  });
  afterAll(async () => {
    await close?.();
  });

  const send = (url: string, method: string, headers: Record<string, string> = {}, body?: Uint8Array) =>
    ctx.app.request(url, {
      method,
      headers: { Origin: ORIGIN, 'Tus-Resumable': '1.0.0', ...owner.headers, ...headers },
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
  const create = async (length: number, filename: string, filetype: string) => {
    const res = await send('/api/uploads', 'POST', {
      'Upload-Length': String(length),
      'Upload-Metadata': `filename ${b64(filename)},filetype ${b64(filetype)}`,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const url = res.headers.get('location') ?? '';
    return { url, id: url.split('/').pop() ?? '' };
  };
  const patch = async (url: string, offset: number, body: Uint8Array) => {
    const res = await send(url, 'PATCH', { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, body);
    expect(res.status, await res.clone().text()).toBe(204);
    return Number(res.headers.get('upload-offset'));
  };
  const offsetOf = async (url: string) => {
    const res = await send(url, 'HEAD');
    expect(res.status).toBe(200);
    return Number(res.headers.get('upload-offset'));
  };
  const state = async (url: string) => (await (await ctx.app.request(url, { headers: owner.headers })).json()) as UploadState;
  /** An upload's objects in the bucket (`tus/{id}`, `.info`, `.part`), and its multipart uploads still open. */
  const tusKeys = (id: string) => ctx.s3?.keys(`tus/${id}`) ?? [];
  const openUploads = async (id: string) => {
    const s3 = ctx.s3;
    if (!s3) throw new Error('no S3');
    const listed = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: `${s3.prefix}tus/${id}` }));
    return (listed.Uploads ?? []).map((upload) => ({ key: (upload.Key ?? '').slice(s3.prefix.length), uploadId: upload.UploadId ?? '' }));
  };
  const partSizes = async (key: string, uploadId: string) => {
    const s3 = ctx.s3;
    if (!s3) throw new Error('no S3');
    const listed = await s3.client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: s3.prefix + key, UploadId: uploadId }));
    return (listed.Parts ?? []).map((part) => part.Size);
  };

  it('takes a photo in three PATCHes (a .part, then a part of the multipart upload), resumes from HEAD, and leaves only the processed photo', async () => {
    // Noise does not compress: a PNG of over 5 MiB, so that one multipart part (S3's 5 MiB minimum) is made before the last.
    const png = await sharp({ create: { width: 1500, height: 1400, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.byteLength).toBeGreaterThan(S3_MIN_PART_BYTES + MiB);
    expect(png.byteLength).toBeLessThan(UPLOAD_LIMITS.chunkBytes);
    const { url, id } = await create(png.byteLength, 'field.png', 'image/png');
    expect(await tusKeys(id)).toEqual([`tus/${id}.info`]);
    expect(await openUploads(id)).toEqual([{ key: `tus/${id}`, uploadId: expect.any(String) }]);
    const [{ uploadId } = { uploadId: '' }] = await openUploads(id);

    // 1 MiB + 3 bytes: under S3's smallest part, kept as `.part`.
    const first = MiB + 3;
    expect(await patch(url, 0, png.subarray(0, first))).toBe(first);
    expect(await tusKeys(id)).toEqual([`tus/${id}.info`, `tus/${id}.part`]);
    expect(await partSizes(`tus/${id}`, uploadId)).toEqual([]);
    expect(await offsetOf(url)).toBe(first);
    // A PATCH from another offset is refused by the offset the store reports (409); nothing written.
    const wrong = await send(url, 'PATCH', { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, png.subarray(0, 100));
    expect(wrong.status).toBe(409);
    expect(await offsetOf(url)).toBe(first);

    // The `.part` and 4.5 MiB more make part 1; the offset now comes from ListParts.
    const second = first + 4.5 * MiB;
    expect(await patch(url, first, png.subarray(first, second))).toBe(second);
    expect(await tusKeys(id)).toEqual([`tus/${id}.info`]);
    expect(await partSizes(`tus/${id}`, uploadId)).toEqual([second]);
    expect(await offsetOf(url)).toBe(second);
    expect(await state(url)).toMatchObject({ status: 'uploading' });

    // The rest: part 2, the multipart upload completed into `tus/{id}`.
    expect(await patch(url, second, png.subarray(second))).toBe(png.byteLength);
    expect(await openUploads(id)).toEqual([]);
    expect(await tusKeys(id)).toEqual([`tus/${id}`, `tus/${id}.info`]);
    expect(await state(url)).toMatchObject({ status: 'processing' });

    await ctx.jobs.drain();
    expect(await state(url)).toEqual({ mediaId: id, kind: 'photo', status: 'ready', reason: null });
    const [row] = await ctx.database.db.select().from(media).where(eq(media.id, id));
    expect(row).toMatchObject({ width: 1500, height: 1400 });
    expect(await ctx.storedKeys(`${id}/`)).toEqual([row?.displayKey, row?.thumbnailKey].sort());
    const served = await ctx.app.request(`/api/media/${id}`, { headers: owner.headers });
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(row?.bytes);
    // The received bytes are gone from the bucket.
    expect(await tusKeys(id)).toEqual([]);
    expect(await offsetOf(url)).toBe(png.byteLength);
  });

  it('makes a small clip (ffmpeg) a ready video from two PATCHes', async () => {
    const body = testClip({ size: '160x120', rate: 10 });
    const { url, id } = await create(body.byteLength, 'clip.mp4', 'video/mp4');
    expect(await patch(url, 0, body.subarray(0, 1001))).toBe(1001);
    expect(await offsetOf(url)).toBe(1001);
    expect(await patch(url, 1001, body.subarray(1001))).toBe(body.byteLength);
    await ctx.jobs.drain();
    expect(await state(url)).toEqual({ mediaId: id, kind: 'video', status: 'ready', reason: null });
    const [row] = await ctx.database.db.select().from(media).where(eq(media.id, id));
    expect(row?.durationMs).toBeGreaterThan(900);
    expect((await ctx.storedKeys(`${id}/`)).length).toBeGreaterThanOrEqual(2);
    const played = await ctx.app.request(`/api/media/${id}/video`, { headers: { ...owner.headers, Range: 'bytes=0-99' } });
    expect(played.status).toBe(206);
    expect(await tusKeys(id)).toEqual([]);
    expect(await openUploads(id)).toEqual([]);
  });

  it('removes every object and the multipart upload on DELETE (termination)', async () => {
    const { url, id } = await create(10_000, 'shelf.jpg', 'image/jpeg');
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#345' } })
      .jpeg()
      .toBuffer();
    await patch(url, 0, jpeg.subarray(0, 200));
    expect(await tusKeys(id)).toEqual([`tus/${id}.info`, `tus/${id}.part`]);
    const ended = await send(url, 'DELETE');
    expect(ended.status).toBe(204);
    expect(await tusKeys(id)).toEqual([]);
    expect(await openUploads(id)).toEqual([]);
    expect(await ctx.database.db.select().from(media).where(eq(media.id, id))).toEqual([]);
  });

  it("sweeps only its own expired multipart uploads (tus/ under S3_PREFIX): other applications' in the bucket are left alone", async () => {
    const s3 = ctx.s3;
    if (!s3) throw new Error('no S3');
    const foreign = ['other-app/big.bin', `${s3.prefix}exports/big.bin`];
    for (const Key of foreign) await s3.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key }));
    const { id } = await create(10_000, 'old.jpg', 'image/jpeg');
    expect(await openUploads(id)).toHaveLength(1);
    // The sweep a day and an hour later.
    const later = Date.now() + (UPLOAD_LIMITS.expiryHours + 1) * 60 * 60 * 1000;
    const store = createUploadStore(ctx.config, { credentials: s3.credentials, now: () => later });
    try {
      expect(await store.deleteExpired()).toBe(1);
    } finally {
      (store as unknown as { client: S3Client }).client.destroy();
    }
    expect(await openUploads(id)).toEqual([]);
    expect(await tusKeys(id)).toEqual([]);
    const left = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
    expect((left.Uploads ?? []).map((upload) => upload.Key).sort()).toEqual([...foreign].sort());
    for (const upload of left.Uploads ?? [])
      await s3.client.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: upload.Key, UploadId: upload.UploadId }));
  });

  // Last: it moves the clock a day on.
  it('removes an unfinished upload past its expiry (uploads.expire): row, objects and multipart upload', async () => {
    const { url, id } = await create(10_000, 'late.jpg', 'image/jpeg');
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#543' } })
      .jpeg()
      .toBuffer();
    await patch(url, 0, jpeg.subarray(0, 300));
    expect(await tusKeys(id)).toEqual([`tus/${id}.info`, `tus/${id}.part`]);
    expect(await openUploads(id)).toHaveLength(1);
    ctx.clock.advance(UPLOAD_LIMITS.expiryHours * 60 * 60 * 1000 + 1000);
    expect((await send(url, 'HEAD')).status).toBe(410);
    await ctx.jobs.send('uploads.expire', {});
    await ctx.jobs.drain();
    expect(await ctx.database.db.select().from(media).where(eq(media.id, id))).toEqual([]);
    expect(await tusKeys(id)).toEqual([]);
    expect(await openUploads(id)).toEqual([]);
    // Nothing of any upload of this file is left under tus/.
    expect(await ctx.s3?.keys('tus/')).toEqual([]);
  });
});
