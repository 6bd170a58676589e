/**
 * Resumable uploads (tus, `/api/uploads`; issue 33 §3, `docs/decisions/038-field-capture.md`,
 * "Resumable uploads"): the upload store (tus' file store under `DATA_DIR/tus`, or its S3 store
 * under the bucket's `tus/` prefix), what an upload is by its first bytes (`sniffUpload`), the
 * media row that follows it from the first byte (`uploading` → `processing` → `ready` | `failed`),
 * the `media.process` job that turns the received bytes into stored media, and the hourly
 * `uploads.expire` job that removes uploads never finished.
 */
import { MediaProcessingFailed } from './video.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/server';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import {
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  UPLOAD_LIMITS,
  UPLOAD_MESSAGES,
  VIDEO_LIMITS,
  VIDEO_MESSAGES,
  type MediaKind,
  type UploadState,
} from '../../shared/media.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { ProcessVideo } from '../jobs/types.ts';
import { media, type Media } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import { MediaRejected, mediaKeys, processImage, sniffImage, storeProcessedImage } from './media.ts';

const HOUR_MS = 60 * 60 * 1000;

/** How long an upload may take before it is removed (tus expiration). */
export const UPLOAD_EXPIRY_MS = UPLOAD_LIMITS.expiryHours * HOUR_MS;

/** Bytes looked at to tell what a file is (a `ftyp` box with its brands fits). */
export const SNIFF_BYTES = 4096;

/** A clean processing failure (`reason`: the participant's sentence); one class for photos and videos, declared with the video pipeline. */
export { MediaProcessingFailed } from './video.ts';

// ---------------------------------------------------------------------------------------------
// The upload store

/** The folder of the local upload store. */
export function tusDir(dataDir: string): string {
  return path.join(dataDir, 'tus');
}

/**
 * The prefix of an upload's id in its store: `""` on local disk (the files are `tus/{mediaId}` and
 * `tus/{mediaId}.json` of the data folder), `{S3_PREFIX}tus/` in the bucket (tus' S3 store names its
 * objects after the upload id: `tus/{mediaId}`, `tus/{mediaId}.info` and `tus/{mediaId}.part`, so
 * one lifecycle rule on the prefix removes every leftover).
 */
export function uploadIdPrefix(config: Pick<Config, 'mediaStore' | 's3'>): string {
  return config.mediaStore === 's3' && config.s3 ? `${config.s3.prefix}tus/` : '';
}

/**
 * tus' S3 store, removing all of an upload, and only ours.
 * - `remove`: tus' own aborts the multipart upload and stops there when S3 answers that it does not
 *   exist, which S3 does once the upload was completed: a processed upload's object (`{id}`, the
 *   original file) and `{id}.info` stayed in the bucket. It never deleted `{id}.part` either. Here
 *   the three objects always go; a 404 is still thrown (no upload in progress), as before.
 * - `deleteExpired`: tus' own lists every multipart upload of the bucket and aborts those older
 *   than the expiry, with their `.info` and `.part`: in a bucket shared with other applications
 *   (what `S3_PREFIX` is for) it would have aborted theirs. Here only uploads under `keyPrefix`
 *   (`{S3_PREFIX}tus/`) are looked at.
 */
class UploadS3Store extends S3Store {
  readonly keyPrefix: string;
  /** The time the expiry is measured at (ms since epoch; the tests move it on). */
  readonly now: () => number;

  constructor(options: ConstructorParameters<typeof S3Store>[0], keyPrefix: string, now: () => number) {
    super(options);
    this.keyPrefix = keyPrefix;
    this.now = now;
  }

  override async deleteExpired(): Promise<number> {
    if (this.getExpiration() === 0) return 0;
    let deleted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.listMultipartUploads({
        Bucket: this.bucket,
        Prefix: this.keyPrefix,
        KeyMarker: keyMarker,
        UploadIdMarker: uploadIdMarker,
      });
      const expired = (page.Uploads ?? []).filter(
        (upload) => upload.Key?.startsWith(this.keyPrefix) && upload.Initiated && this.now() > this.getExpirationDate(upload.Initiated.toISOString()).getTime(),
      );
      for (const upload of expired) {
        const key = upload.Key as string;
        await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: key, UploadId: upload.UploadId });
        await this.client.deleteObjects({
          Bucket: this.bucket,
          Delete: { Objects: [{ Key: this.infoKey(key) }, { Key: this.partKey(key, true) }], Quiet: true },
        });
        await this.clearCache(key);
        deleted += 1;
      }
      if (!page.IsTruncated) return deleted;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  override async remove(id: string): Promise<void> {
    let missing: unknown = null;
    try {
      await super.remove(id);
    } catch (error) {
      if ((error as { status_code?: number }).status_code !== 404) throw error;
      missing = error;
    }
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
    await this.clearCache(id);
    if (missing) throw missing;
  }
}

/** The tus store the configuration asks for (`MEDIA_STORE`), with the expiration extension on. */
export function createUploadStore(
  config: Pick<Config, 'dataDir' | 'mediaStore' | 's3'>,
  options: { credentials?: unknown; now?: () => number } = {},
): DataStore {
  let store: DataStore;
  if (config.mediaStore === 's3' && config.s3) {
    const s3 = config.s3;
    store = new UploadS3Store(
      {
        partSize: UPLOAD_LIMITS.chunkBytes,
        expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
        // Stand-ins for S3 (MinIO, R2, the tests' s3rver) do not all keep object tags: the expiry job
        // and the bucket's lifecycle rule remove leftovers instead.
        useTags: false,
        s3ClientConfig: {
          bucket: s3.bucket,
          region: s3.region,
          ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
          forcePathStyle: s3.forcePathStyle,
          ...(options.credentials ? { credentials: options.credentials as never } : {}),
          // As S3Storage's: with the SDK's default (a CRC on every upload, sent `aws-chunked` with a
          // trailer) a store that does not decode that framing keeps it in the bytes.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          // As S3Storage's: a store that stops answering fails the PATCH (the client resumes) instead of holding it.
          requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
        },
      },
      uploadIdPrefix(config),
      options.now ?? Date.now,
    );
  } else {
    store = new FileStore({ directory: tusDir(config.dataDir), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  }
  // The length is always declared (the limits are checked on it): no deferred length.
  store.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  return store;
}

/**
 * The received file on local disk for processing: the file store's own file, or the S3 store's
 * object downloaded to a temporary file (removed by `done`).
 */
export async function receivedFile(store: DataStore, uploadId: string): Promise<{ path: string; done: () => Promise<void> }> {
  if (store instanceof FileStore) return { path: path.join(store.directory, uploadId), done: async () => {} };
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fw-upload-'));
  const file = path.join(dir, 'source');
  const body = (await (store as S3Store).read(uploadId)) as unknown as Readable | ReadableStream<Uint8Array>;
  const readable = body instanceof Readable ? body : Readable.fromWeb(body as never);
  await pipeline(readable, fs.createWriteStream(file));
  return { path: file, done: () => fs.promises.rm(dir, { recursive: true, force: true }) };
}

/** Removes an upload's bytes from the store; one already gone is fine. */
export async function removeReceived(store: DataStore, uploadId: string, logger?: Logger): Promise<void> {
  try {
    await store.remove(uploadId);
  } catch (error) {
    const status = (error as { status_code?: number }).status_code;
    if (status !== 404 && status !== 410) logger?.warn({ err: error, uploadId }, 'upload bytes not removed from the upload store');
  }
}

// ---------------------------------------------------------------------------------------------
// What a file is

const IMAGE_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'avif', 'avis', 'mif1', 'msf1', 'miaf']);

/**
 * Whether the first bytes are a video's: an ISO base media file (MP4, MOV, 3GP: a `ftyp` box, of a
 * brand that is not a still image's), or a WebM / Matroska file (the EBML header 1A 45 DF A3).
 * Old QuickTime files without `ftyp` start with a `moov`, `mdat`, `wide` or `free` atom.
 */
export function sniffVideo(bytes: Uint8Array): boolean {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return true;
  if (bytes.length < 12) return false;
  const type = String.fromCharCode(...bytes.subarray(4, 8));
  if (type === 'ftyp') return !IMAGE_BRANDS.has(String.fromCharCode(...bytes.subarray(8, 12)));
  return type === 'moov' || type === 'mdat' || type === 'wide' || type === 'free';
}

/** What an upload is by content: `photo`, `video`, or null (neither). */
export function sniffUpload(bytes: Uint8Array): MediaKind | null {
  if (sniffImage(bytes)) return 'photo';
  if (sniffVideo(bytes)) return 'video';
  return null;
}

/** The kind a declared type (`filetype` of `Upload-Metadata`) asks for, or null. */
export function kindOfFiletype(filetype: string): MediaKind | null {
  const type = filetype.trim().toLowerCase();
  if (/^image\/[a-z0-9.+-]+$/.test(type)) return 'photo';
  if (/^video\/[a-z0-9.+-]+$/.test(type)) return 'video';
  return null;
}

/** The largest upload of a kind, and the refusal past it. */
export function sizeLimitOf(kind: MediaKind): { maxBytes: number; refusal: () => MediaRejected } {
  return kind === 'photo'
    ? { maxBytes: MEDIA_LIMITS.maxBytes, refusal: () => new MediaRejected(413, 'file_too_large', MEDIA_MESSAGES.tooLarge) }
    : { maxBytes: VIDEO_LIMITS.maxBytes, refusal: () => new MediaRejected(413, 'file_too_large', VIDEO_MESSAGES.tooLarge) };
}

/** The refusal of content that is not what a kind needs. */
export function wrongContent(kind: MediaKind | null): MediaRejected {
  return kind === 'video'
    ? new MediaRejected(415, 'unsupported_type', VIDEO_MESSAGES.notAVideo)
    : new MediaRejected(415, 'unsupported_type', MEDIA_MESSAGES.notAnImage);
}

/**
 * `Upload-Metadata` (`key base64value` pairs, comma-separated): `filename` and `filetype`, both
 * required, the type an image's or a video's. Null when missing or not valid.
 */
export function parseUploadMetadata(header: string | undefined): { filename: string; filetype: string; kind: MediaKind } | null {
  if (!header) return null;
  const pairs = new Map<string, string>();
  for (const pair of header.split(',')) {
    const [key, value, ...rest] = pair.trim().split(' ');
    if (!key || rest.length > 0 || !/^[\x21-\x7e]+$/.test(key) || pairs.has(key)) return null;
    if (value === undefined || value === '') {
      pairs.set(key, '');
      continue;
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) return null;
    pairs.set(key, Buffer.from(value, 'base64').toString('utf8'));
  }
  const filename = pairs.get('filename')?.trim() ?? '';
  const filetype = pairs.get('filetype')?.trim() ?? '';
  if (!filename || filename.length > 255 || filename.includes('\0')) return null;
  const kind = kindOfFiletype(filetype);
  if (!kind) return null;
  return { filename, filetype, kind };
}

// ---------------------------------------------------------------------------------------------
// Rows

/** The media row of a resumable upload (`status` `uploading`), made before its first byte. */
export async function createUploadRow(db: Db, clock: Clock, input: { id: string; ownerId: number; kind: MediaKind; bytes: number }): Promise<Media> {
  const now = clock.now();
  const [row] = await db
    .insert(media)
    .values({
      id: input.id,
      ownerId: input.ownerId,
      kind: input.kind,
      status: 'uploading',
      uploadedBytes: input.bytes,
      createdAt: now,
      expiresAt: new Date(now.getTime() + UPLOAD_EXPIRY_MS),
    })
    .returning();
  if (!row) throw new Error('media insert returned no row');
  return row;
}

/** The upload's row when `ownerId` owns it; null otherwise (another person's upload does not exist for them). */
export async function findOwnUpload(db: Db, id: string, ownerId: number): Promise<Media | null> {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.id, id), eq(media.ownerId, ownerId)))
    .limit(1);
  return row ?? null;
}

/** Where an upload stands (`GET /api/uploads/{uploadId}`). */
export function uploadState(row: Pick<Media, 'id' | 'kind' | 'status' | 'failureReason'>): UploadState {
  return { mediaId: row.id, kind: row.kind, status: row.status, reason: row.status === 'failed' ? (row.failureReason ?? UPLOAD_MESSAGES.failedHere) : null };
}

/** Whether an upload still `uploading` has passed its expiry. */
export function isExpired(row: Pick<Media, 'status' | 'expiresAt'>, now: Date): boolean {
  return row.status === 'uploading' && row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
}

/** The kind found by content (set once the first bytes are seen). */
export async function setUploadKind(db: Db, id: string, kind: MediaKind): Promise<void> {
  await db
    .update(media)
    .set({ kind })
    .where(and(eq(media.id, id), eq(media.status, 'uploading')));
}

/** An upload that ends here for a reason the person is told (`failed`, `failure_reason`). */
export async function failUpload(db: Db, id: string, reason: string): Promise<void> {
  await db
    .update(media)
    .set({ status: 'failed', failureReason: reason, expiresAt: null })
    .where(and(eq(media.id, id), eq(media.status, 'uploading')));
}

/** The last byte arrived: `processing` (the caller queues `media.process` in the same transaction). Whether the row moved. */
export async function markProcessing(db: Db, id: string): Promise<boolean> {
  const moved = await db
    .update(media)
    .set({ status: 'processing', expiresAt: null })
    .where(and(eq(media.id, id), eq(media.status, 'uploading')))
    .returning({ id: media.id });
  return moved.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Jobs

export interface UploadJobDeps {
  db: Db;
  clock: Clock;
  storage: Storage;
  logger: Logger;
  uploadStore: DataStore;
  /** The store's id of a media id (`uploadIdPrefix`). */
  uploadIdPrefix: string;
  processVideo?: ProcessVideo | undefined;
}

async function failProcessing(db: Db, id: string, reason: string): Promise<void> {
  await db
    .update(media)
    .set({ status: 'failed', failureReason: reason })
    .where(and(eq(media.id, id), eq(media.status, 'processing')));
}

/**
 * `media.process`: the received bytes become stored media. Photos: read (≤ 20 MB), checked and
 * re-encoded like the multipart call's (`processImage`, `storeProcessedImage`), the row `ready`.
 * Videos: the injected processor (`deps.processVideo`); none: `failed`. A refusal of the content
 * (`MediaRejected`, `MediaProcessingFailed`) fails the row with its sentence; anything else is
 * thrown (retried), and on the last attempt fails the row with `UPLOAD_MESSAGES.failedHere`. A row
 * that is not `processing` (ready, failed, gone) is left alone: retries are harmless. The
 * upload's bytes are removed once the row is ready or failed.
 */
export async function processUpload(deps: UploadJobDeps, mediaId: string, lastAttempt: boolean): Promise<'ready' | 'failed' | 'skipped'> {
  const [row] = await deps.db.select().from(media).where(eq(media.id, mediaId)).limit(1);
  if (!row || row.status !== 'processing') return 'skipped';
  const uploadId = deps.uploadIdPrefix + mediaId;
  let outcome: 'ready' | 'failed';
  try {
    const file = await receivedFile(deps.uploadStore, uploadId);
    try {
      const head = await readHead(file.path);
      const kind = sniffUpload(head);
      if (kind === null) throw new MediaProcessingFailed(wrongContent(row.kind).message);
      if (kind !== row.kind) await deps.db.update(media).set({ kind }).where(eq(media.id, mediaId));
      if (kind === 'photo') {
        const stat = await fs.promises.stat(file.path);
        if (stat.size > MEDIA_LIMITS.maxBytes) throw new MediaProcessingFailed(MEDIA_MESSAGES.tooLarge);
        const processed = await processImage(await fs.promises.readFile(file.path));
        const keys = mediaKeys(mediaId, processed);
        await storeProcessedImage(deps.storage, keys, processed);
        const { display, thumbnail } = processed;
        const updated = await deps.db
          .update(media)
          .set({
            status: 'ready',
            contentType: display.contentType,
            width: display.width,
            height: display.height,
            bytes: display.body.byteLength,
            displayKey: keys.display,
            thumbnailKey: keys.thumbnail,
            thumbnailWidth: thumbnail.width,
            thumbnailHeight: thumbnail.height,
          })
          .where(and(eq(media.id, mediaId), eq(media.status, 'processing')))
          .returning({ id: media.id });
        // Removed meanwhile: its files go too.
        if (updated.length === 0) await Promise.allSettled([deps.storage.delete(keys.display), deps.storage.delete(keys.thumbnail)]);
      } else {
        if (!deps.processVideo) throw new MediaProcessingFailed(VIDEO_MESSAGES.processingFailed);
        await deps.processVideo({ mediaId, sourcePath: file.path });
      }
      outcome = 'ready';
    } finally {
      await file.done();
    }
  } catch (error) {
    if (error instanceof MediaRejected || error instanceof MediaProcessingFailed) {
      await failProcessing(deps.db, mediaId, error.message);
      outcome = 'failed';
    } else if (lastAttempt) {
      deps.logger.error({ err: error, mediaId }, 'upload processing failed on its last attempt');
      await failProcessing(deps.db, mediaId, row.kind === 'video' ? VIDEO_MESSAGES.processingFailed : UPLOAD_MESSAGES.failedHere);
      outcome = 'failed';
    } else {
      throw error;
    }
  }
  await removeReceived(deps.uploadStore, uploadId, deps.logger);
  return outcome;
}

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Rows removed per round of `expireUploads`. */
const EXPIRE_BATCH = 200;

/**
 * `uploads.expire` (hourly): uploads still `uploading` past `expires_at` are removed, rows and
 * bytes; then the store's own sweep of expired uploads (files whose row is gone). Failed rows stay
 * (their reason is what the person is told). Returns how many rows went.
 */
export async function expireUploads(deps: Pick<UploadJobDeps, 'db' | 'clock' | 'logger' | 'uploadStore' | 'uploadIdPrefix'>): Promise<number> {
  let removed = 0;
  for (;;) {
    const now = deps.clock.now();
    const expired = and(eq(media.status, 'uploading'), lte(media.expiresAt, now));
    const batch = deps.db.select({ id: media.id }).from(media).where(expired).orderBy(asc(media.expiresAt)).limit(EXPIRE_BATCH);
    const rows = await deps.db
      .delete(media)
      .where(and(expired, inArray(media.id, batch)))
      .returning({ id: media.id });
    for (const row of rows) await removeReceived(deps.uploadStore, deps.uploadIdPrefix + row.id, deps.logger);
    removed += rows.length;
    if (rows.length < EXPIRE_BATCH) break;
  }
  try {
    await deps.uploadStore.deleteExpired();
  } catch (error) {
    deps.logger.warn({ err: error }, 'the upload store could not sweep its expired uploads');
  }
  return removed;
}
