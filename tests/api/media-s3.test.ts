/**
 * Photos on S3 (MEDIA_STORE=s3) beyond the media and gallery suites (which run on both stores):
 * the S3 storage itself, signed-link delivery (302), the origin pages must allow, and a store
 * that cannot be reached (503). A local S3 server (`s3rver`) stands in for the service.
 */
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { SIGNED_LINK_MARGIN_SECONDS, SIGNED_LINK_SECONDS, SIGNED_LINK_WINDOW_SECONDS, STORAGE_UNAVAILABLE_MESSAGE } from '../../src/server/routes/media.ts';
import { mediaLinkKey, signedMediaPath } from '../../src/server/services/media-links.ts';
import { InvalidStorageKeyError, mediaRedirectOrigin, OBJECT_CACHE_CONTROL, S3Storage, StorageUnavailableError } from '../../src/server/storage/index.ts';
import type { MediaUploaded } from '../../src/shared/media.ts';
import { createTestContext, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, signedInUser, type SignedIn } from './helpers.ts';
import { startS3, type TestS3 } from '../support/s3.ts';

const text = (value: string) => new TextEncoder().encode(value);

/** An S3Storage on a test server's bucket (S3_DELIVERY as given). */
function storageOn(s3: TestS3, delivery: 'redirect' | 'stream' = 'stream'): S3Storage {
  const config = loadConfig({ DATA_DIR: '/nonexistent', ...s3.env, S3_DELIVERY: delivery }).s3;
  if (!config) throw new Error('no S3 config');
  return new S3Storage(config, { credentials: s3.credentials });
}

async function upload(ctx: TestContext, who: SignedIn, shade = 90): Promise<MediaUploaded> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 40, b: 160 } } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'p.jpg');
  const res = await ctx.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...who.headers }, body: form });
  const body = await res.text();
  expect(res.status, body).toBe(201);
  return JSON.parse(body) as MediaUploaded;
}

describe('S3Storage', () => {
  let s3: TestS3;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startS3();
    storage = storageOn(s3);
  });
  afterAll(async () => {
    storage.client.destroy();
    await s3.stop();
  });

  it('puts, gets, streams, copies and deletes objects under S3_PREFIX, with their type and Cache-Control', async () => {
    await storage.put('abc/display.jpg', text('image bytes'), 'image/jpeg');
    expect(await s3.keys()).toEqual(['abc/display.jpg']);
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}abc/display.jpg` }));
    expect(head).toMatchObject({ ContentType: 'image/jpeg', CacheControl: OBJECT_CACHE_CONTROL, ContentLength: 11 });
    expect(await storage.get('abc/display.jpg')).toEqual({ body: expect.any(Uint8Array), contentType: 'image/jpeg', bytes: 11 });
    expect(await storage.stat('abc/display.jpg')).toEqual({ bytes: 11, contentType: 'image/jpeg' });
    const opened = await storage.open('abc/display.jpg');
    expect(opened).toMatchObject({ contentType: 'image/jpeg', bytes: 11 });
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.body ?? []) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).toString()).toBe('image bytes');

    await storage.put('abc/display.jpg', new Uint8Array([1, 2]), 'image/jpeg'); // replaced whole
    expect((await storage.get('abc/display.jpg'))?.bytes).toBe(2);
    expect(await storage.copy('abc/display.jpg', 'def/display.jpg')).toBe(true);
    expect(Array.from((await storage.get('def/display.jpg'))?.body ?? [])).toEqual([1, 2]);
    expect(await storage.copy('nope/display.jpg', 'ghi/display.jpg')).toBe(false);
    expect(await s3.keys()).toEqual(['abc/display.jpg', 'def/display.jpg']);

    for (const missing of ['abc/thumb.webp', 'zzz/display.jpg']) {
      expect(await storage.get(missing)).toBeNull();
      expect(await storage.open(missing)).toBeNull();
      expect(await storage.stat(missing)).toBeNull();
    }
    await storage.delete('abc/display.jpg');
    await storage.delete('abc/display.jpg'); // twice is fine
    await storage.delete('def/display.jpg');
    expect(await s3.keys()).toEqual([]);
  });

  it('refuses bad keys and a content type the key does not name, before any request', async () => {
    for (const key of ['../x.jpg', 'a//b.jpg', '.hidden.jpg', '', 'a b.jpg']) {
      await expect(storage.put(key, new Uint8Array([1]), 'image/jpeg'), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.open(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.signedUrl(key, { signedAt: new Date(), expiresInSeconds: 60 }), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    await expect(storage.put('k/display.jpg', new Uint8Array([1]), 'text/html')).rejects.toThrow(/content type/);
    await expect(storage.put('k/file.html', new Uint8Array([1]), 'text/html')).rejects.toThrow(/content type/);
    expect(await s3.keys()).toEqual([]);
  });

  it('gives no links with S3_DELIVERY=stream, and links that s3rver serves, checks for expiry and for the access key with redirect', async () => {
    expect(await storage.signedUrl('abc/display.jpg', { signedAt: new Date(), expiresInSeconds: 60 })).toBeNull();
    const linking = storageOn(s3, 'redirect');
    try {
      await linking.put('lnk/display.jpg', text('linked'), 'image/jpeg');
      const now = new Date();
      const link = await linking.signedUrl('lnk/display.jpg', { signedAt: now, expiresInSeconds: 60, contentDisposition: 'inline; filename="x.jpg"' });
      const res = await fetch(link ?? '');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-disposition')).toBe('inline; filename="x.jpg"');
      expect(await res.text()).toBe('linked');
      // The same signing time gives the same link.
      expect(await linking.signedUrl('lnk/display.jpg', { signedAt: now, expiresInSeconds: 60, contentDisposition: 'inline; filename="x.jpg"' })).toBe(link);
      // Expired (signed 3 h ago for 2 h): refused by the store.
      const old = await linking.signedUrl('lnk/display.jpg', { signedAt: new Date(Date.now() - 3 * 3600_000), expiresInSeconds: 7200 });
      expect((await fetch(old ?? '')).status).toBe(403);
      // Another access key: refused. (s3rver does not check V4 signatures themselves: docs/deploy.md.)
      const forged = (link ?? '').replace('X-Amz-Credential=S3RVER', 'X-Amz-Credential=SOMEONE');
      expect((await fetch(forged)).status).toBe(403);
      // (Nor does it refuse unsigned reads: bucket policies and ACLs are not checked, docs/deploy.md.)
    } finally {
      await linking.delete('lnk/display.jpg');
      linking.client.destroy();
    }
  });

  it('turns a store that cannot be reached into StorageUnavailableError', async () => {
    const down = await startS3();
    await down.stop();
    const unreachable = storageOn(down);
    try {
      for (const call of [
        () => unreachable.get('a/display.jpg'),
        () => unreachable.open('a/display.jpg'),
        () => unreachable.put('a/display.jpg', new Uint8Array([1]), 'image/jpeg'),
        () => unreachable.copy('a/display.jpg', 'b/display.jpg'),
        () => unreachable.delete('a/display.jpg'),
      ]) {
        await expect(call()).rejects.toBeInstanceOf(StorageUnavailableError);
      }
    } finally {
      unreachable.client.destroy();
    }
  });
});

describe('mediaRedirectOrigin', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
  const cases: [string, Record<string, string>][] = [
    ['AWS, us-east-1', { S3_BUCKET: 'photos' }],
    ['AWS, eu-west-2', { S3_BUCKET: 'photos', S3_REGION: 'eu-west-2' }],
    ['AWS, a bucket name with dots', { S3_BUCKET: 'my.photos', S3_REGION: 'eu-west-2' }],
    ['R2 (virtual host)', { S3_BUCKET: 'photos', S3_REGION: 'auto', S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com', S3_FORCE_PATH_STYLE: '0' }],
    ['MinIO (path style by default with an endpoint)', { S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000/' }],
    [
      'a public endpoint apart from the server’s',
      { S3_BUCKET: 'photos', S3_ENDPOINT: 'http://minio.internal:9000', S3_PUBLIC_ENDPOINT: 'https://photos.example.org' },
    ],
  ];
  for (const [name, env] of cases) {
    it(`is the origin of the links the SDK signs: ${name}`, async () => {
      const config = loadConfig({ DATA_DIR: '/nonexistent', MEDIA_STORE: 's3', ...env });
      const storage = new S3Storage(config.s3 ?? ({} as never), { credentials });
      const link = await storage.signedUrl('a/display.jpg', { signedAt: new Date(), expiresInSeconds: 60 });
      expect(mediaRedirectOrigin(config)).toBe(new URL(link ?? '').origin);
    });
  }

  it('is null when the API serves the bytes (local disk, S3_DELIVERY=stream)', () => {
    expect(mediaRedirectOrigin(loadConfig({ DATA_DIR: '/nonexistent' }))).toBeNull();
    expect(mediaRedirectOrigin(loadConfig({ DATA_DIR: '/nonexistent', MEDIA_STORE: 's3', S3_BUCKET: 'photos', S3_DELIVERY: 'stream' }))).toBeNull();
  });
});

describe('photos on S3 delivered by signed links [pglite, s3]', () => {
  let ctx: TestContext;
  let close: () => Promise<void>;
  let owner: SignedIn;
  let photo: MediaUploaded;
  beforeAll(async () => {
    ({ context: ctx, close } = await createTestContext('pglite', { mediaStore: 's3', env: { S3_DELIVERY: 'redirect' } }));
    owner = await signedInUser(ctx, 'participant');
    photo = await upload(ctx, owner);
  });
  afterAll(() => close());

  const get = (url: string, who: SignedIn | null, headers: Record<string, string> = {}) =>
    ctx.request(url, { headers: { ...(who?.headers ?? {}), ...headers } });

  it('answers the owner 302 to a signed link that serves the image with its headers; the link stays the same within the hour', async () => {
    for (const [url, key, type, name] of [
      [photo.url, `${photo.id}/display.jpg`, 'image/jpeg', `${photo.id}.jpg`],
      [photo.thumbnailUrl, `${photo.id}/thumb.webp`, 'image/webp', `${photo.id}-thumbnail.webp`],
    ] as const) {
      const before = Date.now();
      const res = await get(url, owner);
      expect(res.status, url).toBe(302);
      expect(res.headers.get('etag')).toBeNull();
      const location = res.headers.get('location') ?? '';
      expect(new URL(location).origin).toBe(mediaRedirectOrigin(ctx.config));
      expect(new URL(location).origin).toBe(ctx.s3?.endpoint);
      expect(location).toContain('X-Amz-Expires=7200');
      // Cached privately only while the link still works, with a margin.
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
      const windowStart = Math.floor(before / (SIGNED_LINK_WINDOW_SECONDS * 1000)) * SIGNED_LINK_WINDOW_SECONDS * 1000;
      const expected = Math.floor((windowStart + SIGNED_LINK_SECONDS * 1000 - before) / 1000) - SIGNED_LINK_MARGIN_SECONDS;
      expect(maxAge).toBeGreaterThanOrEqual(expected - 5);
      expect(maxAge).toBeLessThanOrEqual(expected);
      expect(maxAge).toBeGreaterThanOrEqual(SIGNED_LINK_SECONDS - SIGNED_LINK_WINDOW_SECONDS - SIGNED_LINK_MARGIN_SECONDS - 5);
      expect((await get(url, owner)).headers.get('location')).toBe(location);

      const image = await fetch(location);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe(type);
      expect(image.headers.get('content-disposition')).toBe(`inline; filename="${name}"`);
      expect(image.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      const bytes = Buffer.from(await image.arrayBuffer());
      expect(bytes.equals(Buffer.from((await ctx.storage.get(key))?.body ?? []))).toBe(true);
      if (type === 'image/jpeg') expect((await sharp(bytes).metadata()).format).toBe('jpeg');
    }
  });

  it('answers 304 on a matching ETag before anything, and 404 with no link to everyone else', async () => {
    const cached = await get(photo.url, owner, { 'If-None-Match': `"${photo.id}-display"` });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('location')).toBeNull();
    const other = await signedInUser(ctx, 'participant');
    for (const who of [other, null]) {
      for (const url of [photo.url, photo.thumbnailUrl]) {
        const res = await get(url, who);
        expect((await errorOf(res, 404)).code).toBe('not_found');
        expect(res.headers.get('location')).toBeNull();
      }
    }
    const moderator = await signedInUser(ctx, 'moderator');
    expect((await get(photo.url, moderator)).status).toBe(302);
  });

  it('streams a review export’s 30-day link from the bucket (never a redirect)', async () => {
    const expires = Math.floor(ctx.clock.now().getTime() / 1000) + 30 * 86400;
    const res = await ctx.request(signedMediaPath(await mediaLinkKey(ctx.database.db, ctx.config), photo.id, 'display', expires));
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(res.headers.get('content-length'))).toBe(photo.bytes);
    expect(Buffer.from(await res.arrayBuffer()).length).toBe(photo.bytes);
  });
});

describe('a photo store that cannot be reached [pglite, s3]', () => {
  let ctx: TestContext;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ context: ctx, close } = await createTestContext('pglite', { mediaStore: 's3' }));
  });
  afterAll(() => close());

  it('streams with S3_DELIVERY=stream (HEAD too); then, store down: 503 storage_unavailable (logged, no stack) for reads and uploads; a delete still removes the photo', async () => {
    const owner = await signedInUser(ctx, 'participant');
    const photo = await upload(ctx, owner);
    const kept = await upload(ctx, owner, 200);
    expect((await ctx.request(photo.url, { headers: owner.headers })).status).toBe(200);
    // HEAD only looks the object up (nothing opened and left unread).
    const head = await ctx.request(photo.url, { method: 'HEAD', headers: owner.headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(photo.bytes));
    expect(head.headers.get('content-type')).toBe('image/jpeg');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    await ctx.s3?.stop();

    for (const url of [photo.url, photo.thumbnailUrl]) {
      const res = await ctx.request(url, { headers: owner.headers });
      expect(await errorOf(res, 503)).toEqual({ code: 'storage_unavailable', message: STORAGE_UNAVAILABLE_MESSAGE });
      expect(res.headers.get('retry-after')).toBe('60');
    }
    const expires = Math.floor(ctx.clock.now().getTime() / 1000) + 86400;
    const shared = await ctx.request(signedMediaPath(await mediaLinkKey(ctx.database.db, ctx.config), kept.id, 'thumbnail', expires));
    expect((await errorOf(shared, 503)).code).toBe('storage_unavailable');
    const refused = await ctx.request('/api/media', {
      method: 'POST',
      headers: { Origin: ORIGIN, ...owner.headers },
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(Buffer.from('x'))], { type: 'image/jpeg' }), 'p.jpg');
        return form;
      })(),
    });
    // Not a photo: refused on its content before the store is reached.
    expect(refused.status).toBe(415);
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'p.jpg');
    const failed = await ctx.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...owner.headers }, body: form });
    expect((await errorOf(failed, 503)).code).toBe('storage_unavailable');

    expect((await ctx.json('DELETE', `/api/media/${photo.id}`, undefined, owner.headers)).status).toBe(204);
    expect((await ctx.request(photo.url, { headers: owner.headers })).status).toBe(404);
    expect(ctx.logs.some((line) => line.includes('media storage unavailable'))).toBe(true);
    expect(ctx.logs.some((line) => line.includes('its files were not'))).toBe(true);
  });
});
