/**
 * `npm run cli -- media:migrate --to s3` through `runCli`: photos uploaded to the local folder are
 * copied to a bucket of a local S3 server, once; a run cut short resumes; nothing is switched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { migrateMedia } from '../../src/server/services/media-migrate.ts';
import { createStorage, LocalStorage, OBJECT_CACHE_CONTROL, S3Storage } from '../../src/server/storage/index.ts';
import { createTestContext, ORIGIN } from './harness.ts';
import { signedInUser } from './helpers.ts';
import { startS3, type TestS3 } from '../support/s3.ts';

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('media:migrate --to s3', () => {
  let dataDir: string;
  let s3: TestS3;
  /** Every key the media table names, sorted. */
  let keys: string[];
  /** The CLI's environment: the local folder, and the bucket's S3_* variables, MEDIA_STORE still local. */
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-migrate-'));
    s3 = await startS3();
    // Photos uploaded through the API to the local folder, in a database the CLI opens afterwards.
    const { context, close } = await createTestContext('pglite', { dataDir, database: { kind: 'pglite', dir: dataDir } });
    try {
      const owner = await signedInUser(context, 'participant');
      for (let i = 0; i < 3; i++) {
        const png = await sharp({ create: { width: 40 + i, height: 30, channels: 3, background: { r: 40 * i, g: 120, b: 60 } } })
          .png()
          .toBuffer();
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `p${i}.png`);
        const res = await context.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...owner.headers }, body: form });
        expect(res.status, await res.clone().text()).toBe(201);
      }
      keys = await context.storedKeys();
    } finally {
      await close();
    }
    expect(keys).toHaveLength(6);
    const { MEDIA_STORE: _store, ...bucketEnv } = s3.env;
    env = { DATA_DIR: dataDir, ...bucketEnv };
  });

  afterAll(async () => {
    await s3.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses another target (exit 2) and names a missing S3_BUCKET (exit 2), before touching anything', async () => {
    expect(await cli(['media:migrate'], env)).toMatchObject({
      code: 2,
      err: 'Say "media:migrate --to s3": photos can only be copied to an S3-compatible bucket.',
    });
    expect((await cli(['media:migrate', '--to', 'gcs'], env)).code).toBe(2);
    const { S3_BUCKET: _bucket, ...noBucket } = env;
    const result = await cli(['media:migrate', '--to', 's3'], noBucket);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^S3_BUCKET is not set/);
    expect(await s3.keys()).toEqual([]);
  });

  it('copies every photo once with its type and Cache-Control; a second run copies nothing; nothing is switched', async () => {
    const first = await cli(['media:migrate', '--to', 's3'], env);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain('3 photos: 6 files copied, 0 already in the bucket, 0 missing');
    expect(first.out).toContain('Set MEDIA_STORE=s3 and restart to serve from the bucket.');
    expect(await s3.keys()).toEqual(keys);

    // The same bytes, read back through the S3 storage the server would use.
    const local = createStorage(loadConfig({ DATA_DIR: dataDir }));
    const bucket = createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }), { credentials: s3.credentials });
    expect(bucket).toBeInstanceOf(S3Storage);
    for (const key of keys) {
      const [mine, theirs] = [await local.get(key), await bucket.get(key)];
      expect(theirs?.contentType, key).toBe(mine?.contentType);
      expect(Buffer.from(theirs?.body ?? []).equals(Buffer.from(mine?.body ?? [1])), key).toBe(true);
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: s3.prefix + key }));
      expect(head).toMatchObject({ ContentType: mine?.contentType, CacheControl: OBJECT_CACHE_CONTROL });
    }

    const second = await cli(['media:migrate', '--to', 's3'], env);
    expect(second.code).toBe(0);
    expect(second.out).toContain('3 photos: 0 files copied, 6 already in the bucket, 0 missing');
    // The local files stay where they were.
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toHaveLength(3);
  });

  it('resumes a run cut short: only what is not in the bucket is copied; files missing locally are named', async () => {
    const [gone, alsoGone] = [keys[0] ?? '', keys[3] ?? ''];
    await s3.remove(gone);
    await s3.remove(alsoGone);
    const resumed = await cli(['media:migrate', '--to', 's3'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain('3 photos: 2 files copied, 4 already in the bucket, 0 missing');
    expect(await s3.keys()).toEqual(keys);

    // A file named in the table but no longer on disk: reported, not fatal.
    const brokenKey = keys[1] ?? '';
    fs.rmSync(path.join(dataDir, 'uploads', brokenKey));
    await s3.remove(brokenKey);
    const broken = await cli(['media:migrate', '--to', 's3'], env);
    expect(broken.code).toBe(0);
    expect(broken.out).toContain('3 photos: 0 files copied, 5 already in the bucket, 1 missing');
    expect(broken.err).toContain(`  ${brokenKey}`);
  });

  it('reads the table page by page, every row once', async () => {
    for (const key of await s3.keys()) await s3.remove(key);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    const to = createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }), { credentials: s3.credentials });
    const lines: string[] = [];
    try {
      if (!(to instanceof S3Storage)) throw new Error('not an S3Storage');
      const result = await migrateMedia(
        database.db,
        new LocalStorage(path.join(dataDir, 'uploads')),
        to,
        { out: (line) => lines.push(line), err: () => {} },
        2,
      );
      expect(result).toEqual({ photos: 3, copied: 5, alreadyThere: 0, missing: [keys[1]] });
    } finally {
      await database.close();
    }
    expect(lines).toEqual(['… 2 photos looked at (3 files copied so far)']);
    expect(await s3.keys()).toEqual(keys.filter((key) => key !== keys[1]));
  });
});
