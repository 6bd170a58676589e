/**
 * Photo uploads: checking what a file really is (magic bytes, then sharp's reading of its
 * header), re-encoding it with sharp (orientation applied, EXIF, GPS, XMP and ICC dropped, sRGB)
 * into a display size and a thumbnail, storing both through the storage interface under
 * server-made keys, the per-account upload reservations (2 at once, the daily byte budget), who
 * may see a photo, and removing one that no submitted answer or kept version holds.
 * `docs/decisions/010-uploads.md` explains the choices.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { MEDIA_LIMITS, MEDIA_MESSAGES, type MediaUploaded } from '../../shared/media.ts';
import { isElevated } from '../../shared/roles.ts';
import type { Db } from '../db/index.ts';
import { media, mediaUploadReservations, type Media, type User } from '../db/schema/index.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The display size's JPEG: quality 82 with mozjpeg's settings (its quantisation tables,
 * progressive scans, optimised coding) except trellis quantisation, which costs about twice the
 * time for 15–20 % fewer bytes (measured in `docs/decisions/010-uploads.md`).
 */
export const DISPLAY_JPEG = { quality: 82, mozjpeg: true, trellisQuantisation: false } as const;
/** WebP quality of the thumbnail. */
export const THUMBNAIL_WEBP_QUALITY = 75;

/**
 * Image work is CPU-heavy and the production machine has two cores: libvips uses one thread per
 * image (`sharp.concurrency(1)`) and one image is processed at a time per process
 * (`PROCESSING_SLOTS`), so uploads never take both cores from the API. More uploads wait their
 * turn (they are already read); at most `UPLOADS_IN_FLIGHT` are read or waiting at once, each
 * holding at most 20 MB. When they are all taken, an upload waits for one, unread, up to
 * `UPLOAD_PLACE_WAIT_MS` (at most `UPLOAD_PLACE_WAITERS` of them wait): a burst of photos is
 * absorbed in the time one takes (tens of milliseconds) instead of refused; past that the API
 * answers 503 with Retry-After. One account holds at most `MEDIA_LIMITS.uploadsAtOnce` places
 * (`reserveUpload`), so it can never take them all.
 */
export const PROCESSING_SLOTS = 1;
export const UPLOADS_IN_FLIGHT = 8;
/** How long an upload waits for a place before the 503 (its body not read meanwhile). */
export const UPLOAD_PLACE_WAIT_MS = 3_000;
/** How many uploads may wait for a place at once; the next is refused at once. */
export const UPLOAD_PLACE_WAITERS = 16;
sharp.concurrency(1);
// Decoded images are not reused between uploads: the cache would only hold memory.
sharp.cache(false);

/** Why an upload was refused: the HTTP status, a code and the message for the person. */
export class MediaRejected extends Error {
  readonly status: 400 | 408 | 413 | 415 | 429 | 503;
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;
  constructor(status: 400 | 408 | 413 | 415 | 429 | 503, code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'MediaRejected';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const rejectNotAnImage = () => new MediaRejected(415, 'unsupported_type', MEDIA_MESSAGES.notAnImage);
const rejectHeic = () => new MediaRejected(415, 'heic_unsupported', MEDIA_MESSAGES.heicUnsupported);
const rejectUnreadable = () => new MediaRejected(400, 'unreadable_image', MEDIA_MESSAGES.unreadable);
const rejectTooManyPixels = () => new MediaRejected(400, 'too_many_pixels', MEDIA_MESSAGES.tooManyPixels);

// ---------------------------------------------------------------------------------------------
// What a file is

/** The kinds of image accepted. `heif` covers HEIC (HEVC) and AVIF (AV1) in the HEIF container. */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'heif';

export interface SniffedImage {
  kind: ImageKind;
  /** HEIF only: the file says it holds HEVC (HEIC) pictures, or it is a generic HEIF that is not AVIF. */
  hevc: boolean;
}

const HEVC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const AV1_BRANDS = new Set(['avif', 'avis']);
const GENERIC_HEIF_BRANDS = new Set(['mif1', 'msf1', 'miaf']);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * What an image file is by its first bytes (magic numbers), or null when it is none of the kinds
 * accepted. Names and declared types are never looked at.
 */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { kind: 'jpeg', hevc: false };
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return { kind: 'png', hevc: false };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { kind: 'webp', hevc: false };
  // ISO base media file: a `ftyp` box holding the major brand and the compatible ones.
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
    const end = Math.min(bytes.length, boxSize >= 16 && boxSize <= 4096 ? boxSize : 16);
    const brands = [ascii(bytes, 8, 12)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
    const has = (set: Set<string>) => brands.some((brand) => set.has(brand));
    if (!has(HEVC_BRANDS) && !has(AV1_BRANDS) && !has(GENERIC_HEIF_BRANDS)) return null; // a video (isom, mp42, qt…)
    return { kind: 'heif', hevc: has(HEVC_BRANDS) || !has(AV1_BRANDS) };
  }
  return null;
}

/**
 * Whether this platform's sharp decodes HEIC (HEVC). The prebuilt binaries carry libheif with the
 * AV1 decoder only: `sharp.format.heif.input.buffer` is true for AVIF, and `.heic` is missing
 * from its suffixes. A sharp built against a system libvips with libde265 lists `.heic`.
 */
export function heicSupported(): boolean {
  const input = sharp.format.heif.input;
  return input.buffer && (input.fileSuffix ?? []).includes('.heic');
}

// ---------------------------------------------------------------------------------------------
// Re-encoding

/** One admission at a time past `limit`; waiting callers go in arrival order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(limit: number) {
    this.free = limit;
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

const processing = new Slots(PROCESSING_SLOTS);
let uploadsInFlight = 0;
/** Uploads waiting for a place, first come first served: each is handed the place an upload leaves. */
const placeWaiters: (() => void)[] = [];

/** A place for this upload: at once, or handed over by an upload that ends within `UPLOAD_PLACE_WAIT_MS`; false when none came. */
function takeUploadPlace(): Promise<boolean> {
  if (uploadsInFlight < UPLOADS_IN_FLIGHT) {
    uploadsInFlight += 1;
    return Promise.resolve(true);
  }
  if (placeWaiters.length >= UPLOAD_PLACE_WAITERS) return Promise.resolve(false);
  return new Promise((resolve) => {
    const handOver = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      const index = placeWaiters.indexOf(handOver);
      if (index >= 0) placeWaiters.splice(index, 1);
      resolve(false);
    }, UPLOAD_PLACE_WAIT_MS);
    placeWaiters.push(handOver);
  });
}

/** An upload ends: its place goes to the first one waiting, else back to the pool. */
function leaveUploadPlace(): void {
  const next = placeWaiters.shift();
  if (next) next();
  else uploadsInFlight -= 1;
}

/**
 * Holds one of the `UPLOADS_IN_FLIGHT` places while `task` runs (reading the body and processing
 * it), waiting up to `UPLOAD_PLACE_WAIT_MS` for one; 503 with Retry-After when none comes.
 */
export async function withUploadPlace<T>(task: () => Promise<T>): Promise<T> {
  if (!(await takeUploadPlace())) throw new MediaRejected(503, 'busy', MEDIA_MESSAGES.busy, 5);
  try {
    return await task();
  } finally {
    leaveUploadPlace();
  }
}

export interface EncodedImage {
  body: Buffer;
  contentType: 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

export interface ProcessedImage {
  /** What the upload was. */
  kind: ImageKind;
  /** Longest side ≤ `MEDIA_LIMITS.displaySide`, oriented, JPEG. */
  display: EncodedImage;
  /** Longest side ≤ `MEDIA_LIMITS.thumbnailSide`, WebP. */
  thumbnail: EncodedImage;
}

const SHARP_FORMAT_OF: Record<ImageKind, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', heif: 'heif' };

/**
 * Checks an upload and re-encodes it. Refuses (`MediaRejected`), before decoding any pixels:
 * 415 what is not a JPEG, PNG, WebP or HEIF by content, or HEIC where the platform cannot decode
 * it; 400 what sharp cannot read and what has more than `MEDIA_LIMITS.maxPixels` pixels. Then,
 * one image at a time: EXIF orientation applied (`autoOrient()`), transparency flattened on white,
 * shrunk to the display size (JPEG, no metadata: EXIF, GPS, XMP and ICC are dropped, colours
 * converted to sRGB), and the thumbnail made from the display image.
 */
export async function processImage(input: Uint8Array): Promise<ProcessedImage> {
  const sniffed = sniffImage(input);
  if (!sniffed) throw rejectNotAnImage();
  const heic = heicSupported();
  if (sniffed.kind === 'heif' && sniffed.hevc && !heic) throw rejectHeic();

  // The header only: dimensions and format, no pixels decoded.
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw rejectUnreadable();
  }
  if (metadata.format !== SHARP_FORMAT_OF[sniffed.kind]) throw rejectNotAnImage();
  if (metadata.format === 'heif' && metadata.compression === 'hevc' && !heic) throw rejectHeic();
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw rejectUnreadable();
  if (width * height > MEDIA_LIMITS.maxPixels) throw rejectTooManyPixels();

  return processing.run(async () => {
    let display: OutputInfo & { data: Buffer };
    try {
      const result = await sharp(input, { failOn: 'error', limitInputPixels: MEDIA_LIMITS.maxPixels, sequentialRead: true })
        .autoOrient() // the EXIF orientation applied (what `rotate()` without an angle does)
        .flatten({ background: '#ffffff' })
        .resize({ width: MEDIA_LIMITS.displaySide, height: MEDIA_LIMITS.displaySide, fit: 'inside', withoutEnlargement: true })
        .jpeg(DISPLAY_JPEG)
        .toBuffer({ resolveWithObject: true });
      display = { ...result.info, data: result.data };
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) throw rejectTooManyPixels();
      throw rejectUnreadable();
    }
    const thumbnail = await sharp(display.data, { failOn: 'error' })
      .resize({ width: MEDIA_LIMITS.thumbnailSide, height: MEDIA_LIMITS.thumbnailSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: THUMBNAIL_WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return {
      kind: sniffed.kind,
      display: { body: display.data, contentType: 'image/jpeg', width: display.width, height: display.height },
      thumbnail: { body: thumbnail.data, contentType: 'image/webp', width: thumbnail.info.width, height: thumbnail.info.height },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Records

/** The rate-limit key of a user's uploads (`RATE_LIMITS.mediaUploadsPerUser`). */
export function mediaUploadRateKey(userId: number): string {
  return `media:uploads:user:${userId}`;
}

/** A new media id: 16 random bytes, base64url (22 characters): unguessable. */
export function newMediaId(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether a path segment can be a media id (anything else is 404 without a query). */
export function isMediaId(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}

const EXTENSION_OF: Record<EncodedImage['contentType'], string> = { 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The storage keys of a media id: `{id}/display.jpg`, `{id}/thumb.webp`. */
export function mediaKeys(id: string, processed: Pick<ProcessedImage, 'display' | 'thumbnail'>): { display: string; thumbnail: string } {
  return { display: `${id}/display.${EXTENSION_OF[processed.display.contentType]}`, thumbnail: `${id}/thumb.${EXTENSION_OF[processed.thumbnail.contentType]}` };
}

/** The answer of `POST /api/media` for a stored photo. */
export function mediaView(row: ReadyMedia): MediaUploaded {
  return { id: row.id, url: `/api/media/${row.id}`, thumbnailUrl: `/api/media/${row.id}/thumbnail`, width: row.width, height: row.height, bytes: row.bytes };
}

/**
 * Puts a processed photo's display image and thumbnail in storage under `keys` (`mediaKeys`): the
 * one way both uploads store photos (the multipart call's `createMedia`, the resumable uploads'
 * `media.process` job). A failure removes what was put, then throws.
 */
export async function storeProcessedImage(
  storage: Storage,
  keys: { display: string; thumbnail: string },
  processed: Pick<ProcessedImage, 'display' | 'thumbnail'>,
): Promise<void> {
  try {
    await storage.put(keys.display, processed.display.body, processed.display.contentType);
    await storage.put(keys.thumbnail, processed.thumbnail.body, processed.thumbnail.contentType);
  } catch (error) {
    await Promise.allSettled([storage.delete(keys.display), storage.delete(keys.thumbnail)]);
    throw error;
  }
}

/**
 * Stores a processed upload (display, thumbnail, then the row; files are removed again when the
 * row cannot be written) and returns its row. `createdAt` is the clock's, so the daily budget
 * follows the same time as the rate limits. The upload's reservation (`reserveUpload`), when
 * given, is removed in the same transaction as the row is written: its bytes move from reserved
 * to uploaded at once, never counted twice or not at all.
 */
export async function createMedia(
  db: Db,
  clock: Clock,
  storage: Storage,
  input: { ownerId: number; uploadedBytes: number; processed: ProcessedImage; reservationId?: number },
): Promise<ReadyMedia> {
  const id = newMediaId();
  const { display, thumbnail } = input.processed;
  const keys = mediaKeys(id, input.processed);
  try {
    await storeProcessedImage(storage, keys, input.processed);
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(media)
        .values({
          id,
          ownerId: input.ownerId,
          contentType: display.contentType,
          width: display.width,
          height: display.height,
          bytes: display.body.byteLength,
          uploadedBytes: input.uploadedBytes,
          displayKey: keys.display,
          thumbnailKey: keys.thumbnail,
          thumbnailWidth: thumbnail.width,
          thumbnailHeight: thumbnail.height,
          createdAt: clock.now(),
        })
        .returning();
      if (!row || !isReadyMedia(row)) throw new Error('media insert returned no ready row');
      if (input.reservationId !== undefined) await tx.delete(mediaUploadReservations).where(eq(mediaUploadReservations.id, input.reservationId));
      return row;
    });
  } catch (error) {
    await Promise.allSettled([storage.delete(keys.display), storage.delete(keys.thumbnail)]);
    throw error;
  }
}

/** A stored photo or video whose files are in storage (`status` `ready`): its sizes and keys are known. */
export type ReadyMedia = Media & {
  status: 'ready';
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  displayKey: string;
  thumbnailKey: string;
  thumbnailWidth: number;
  thumbnailHeight: number;
};

/** Whether a media row is ready (its files stored, its sizes known). */
export function isReadyMedia(row: Media): row is ReadyMedia {
  return (
    row.status === 'ready' &&
    row.contentType !== null &&
    row.width !== null &&
    row.height !== null &&
    row.bytes !== null &&
    row.displayKey !== null &&
    row.thumbnailKey !== null &&
    row.thumbnailWidth !== null &&
    row.thumbnailHeight !== null
  );
}

/** A ready photo or video by id; null when there is none, or it is still uploading, processing or failed. */
export async function findMedia(db: Db, id: string): Promise<ReadyMedia | null> {
  if (!isMediaId(id)) return null;
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  return row && isReadyMedia(row) ? row : null;
}

/** Who may see a photo: its owner, moderators and admins (`staffPowers`: false for staff still without the second factor the staff area requires). Everyone else is told it does not exist. */
export function canSeeMedia(user: Pick<User, 'id' | 'role'> | null, row: Pick<Media, 'ownerId'>, staffPowers = true): boolean {
  return user !== null && (user.id === row.ownerId || (staffPowers && isElevated(user.role)));
}

/**
 * A copy of a photo owned by someone else (`ownerId`): both files copied through storage under a
 * new id, and a new row, attached at once (it is made for a mission's instructions). The copy is
 * not an upload: `uploaded_bytes` is 0, so it costs its owner nothing of the daily budget. Null
 * when the original's display image is missing from storage.
 */
export async function copyMedia(db: Db, clock: Clock, storage: Storage, original: ReadyMedia, ownerId: number): Promise<Media | null> {
  const id = newMediaId();
  const rekey = (key: string) => `${id}/${key.slice(key.indexOf('/') + 1)}`;
  const keys = { display: rekey(original.displayKey), thumbnail: rekey(original.thumbnailKey) };
  try {
    if (!(await storage.copy(original.displayKey, keys.display))) return null;
    if (!(await storage.copy(original.thumbnailKey, keys.thumbnail))) {
      await storage.delete(keys.display);
      return null;
    }
    const now = clock.now();
    const [row] = await db
      .insert(media)
      .values({ ...original, id, ownerId, uploadedBytes: 0, displayKey: keys.display, thumbnailKey: keys.thumbnail, createdAt: now, attachedAt: now })
      .returning();
    if (!row) throw new Error('media insert returned no row');
    return row;
  } catch (error) {
    await Promise.allSettled([storage.delete(keys.display), storage.delete(keys.thumbnail)]);
    throw error;
  }
}

/**
 * The per-user daily budget (`MEDIA_LIMITS.bytesPerDay`, bytes as uploaded over the last 24 h):
 * whether `incoming` more bytes fit, and if not, in how many seconds enough of the earlier uploads
 * leave the window for them to fit.
 */
export async function checkDailyBytes(
  db: Db,
  clock: Clock,
  ownerId: number,
  incoming: number,
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const now = clock.now();
  const since = new Date(now.getTime() - DAY_MS);
  const inWindow = and(eq(media.ownerId, ownerId), gt(media.createdAt, since));
  const [total] = await db
    .select({ used: sql<string | number>`coalesce(sum(${media.uploadedBytes}), 0)` })
    .from(media)
    .where(inWindow);
  const used = Number(total?.used ?? 0);
  const limit = MEDIA_LIMITS.bytesPerDay;
  if (used + incoming <= limit) return { allowed: true };
  // Over: walk the window oldest first until enough bytes have left it (rare, so a plain scan).
  const rows = await db.select({ createdAt: media.createdAt, bytes: media.uploadedBytes }).from(media).where(inWindow).orderBy(asc(media.createdAt));
  let remaining = used;
  for (const row of rows) {
    remaining -= row.bytes;
    if (remaining + incoming <= limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((row.createdAt.getTime() + DAY_MS - now.getTime()) / 1000)) };
    }
  }
  return { allowed: false, retryAfterSeconds: Math.ceil(DAY_MS / 1000) };
}

// ---------------------------------------------------------------------------------------------
// Upload reservations

/**
 * How long a reservation counts: longer than any upload can take (the server's request timeout is
 * 300 s, then the image waits its turn to be processed). A row left by a killed process stops
 * counting after this; the daily housekeeping deletes it.
 */
export const UPLOAD_RESERVATION_TTL_MS = 10 * 60_000;
/** The first key of the per-account advisory lock taken while reserving (the second is the user id). */
const UPLOAD_LOCK_KEY = 727_301;

/**
 * Takes one of the account's upload places before the body is read (`media_upload_reservations`,
 * in one transaction under a per-account advisory lock, so two uploads at once, from one process
 * or several, are decided one after the other): 429 `too_many_uploads` when the account already
 * holds `MEDIA_LIMITS.uploadsAtOnce` unexpired reservations; 429 `daily_upload_limit` (with
 * Retry-After) when the bytes uploaded in the last 24 h, plus those reserved, plus `bytes` are
 * over the daily budget. Returns the reservation's id: `createMedia` removes it with the new row,
 * `releaseUpload` on any failure.
 */
export async function reserveUpload(db: Db, clock: Clock, ownerId: number, bytes: number): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${UPLOAD_LOCK_KEY}::int, ${ownerId}::int)`);
    const [held] = await tx
      .select({ count: sql<number>`count(*)::int`, bytes: sql<string | number>`coalesce(sum(${mediaUploadReservations.bytes}), 0)` })
      .from(mediaUploadReservations)
      .where(and(eq(mediaUploadReservations.ownerId, ownerId), gt(mediaUploadReservations.expiresAt, now)));
    if (Number(held?.count ?? 0) >= MEDIA_LIMITS.uploadsAtOnce) throw new MediaRejected(429, 'too_many_uploads', MEDIA_MESSAGES.tooManyUploads, 5);
    const budget = await checkDailyBytes(tx, clock, ownerId, Number(held?.bytes ?? 0) + bytes);
    if (!budget.allowed) throw new MediaRejected(429, 'daily_upload_limit', MEDIA_MESSAGES.dailyBytes, budget.retryAfterSeconds);
    const [row] = await tx
      .insert(mediaUploadReservations)
      .values({ ownerId, bytes, createdAt: now, expiresAt: new Date(now.getTime() + UPLOAD_RESERVATION_TTL_MS) })
      .returning({ id: mediaUploadReservations.id });
    if (!row) throw new Error('reservation insert returned no row');
    return row.id;
  });
}

/** Gives a reservation back (the upload failed or was refused); nothing happens when it is gone already. */
export async function releaseUpload(db: Db, reservationId: number): Promise<void> {
  await db.delete(mediaUploadReservations).where(eq(mediaUploadReservations.id, reservationId));
}

/** Deletes the reservations that stopped counting (left by a killed process); returns how many. */
export async function deleteExpiredReservations(db: Db, clock: Clock): Promise<number> {
  const gone = await db
    .delete(mediaUploadReservations)
    .where(lte(mediaUploadReservations.expiresAt, clock.now()))
    .returning({ id: mediaUploadReservations.id });
  return gone.length;
}

// ---------------------------------------------------------------------------------------------
// Removing

/**
 * Removes the owner's photo unless something a moderator may look at holds it: a submitted (not
 * draft) survey response or mission entry of theirs, a kept version of one of their entries
 * (`entry_submissions`: the review history, even when the current draft no longer has the
 * photo), a mission's instructions, or a reward (its image). One statement, so a concurrent submit either sees the
 * photo or its removal. Files go after the row; a file left behind by a failure is unreachable
 * and only takes space.
 */
export async function deleteMedia(db: Db, storage: Storage, input: { id: string; ownerId: number }): Promise<'deleted' | 'not_found' | 'in_use'> {
  if (!isMediaId(input.id)) return 'not_found';
  const quoted = JSON.stringify(input.id);
  const link = `/api/media/${input.id}`;
  const deleted = await db
    .delete(media)
    .where(
      and(
        eq(media.id, input.id),
        eq(media.ownerId, input.ownerId),
        sql`not exists (select 1 from survey_responses r where r.user_id = ${input.ownerId} and r.status <> 'draft' and strpos(r.answers::text, ${quoted}) > 0)`,
        sql`not exists (select 1 from mission_entries e where e.user_id = ${input.ownerId} and e.status <> 'draft' and strpos(e.answers::text, ${quoted}) > 0)`,
        sql`not exists (select 1 from entry_submissions s join mission_entries e on e.id = s.entry_id where e.user_id = ${input.ownerId} and strpos(s.answers::text, ${quoted}) > 0)`,
        sql`not exists (select 1 from missions m where strpos(m.instructions, ${link}) > 0)`,
        // A reward's image (issue 30): participants are shown it; make the reward use another first.
        sql`not exists (select 1 from rewards w where w.image_media_id = ${input.id})`,
      ),
    )
    .returning({ displayKey: media.displayKey, thumbnailKey: media.thumbnailKey });
  const row = deleted[0];
  if (!row) {
    const [existing] = await db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.id, input.id), eq(media.ownerId, input.ownerId)))
      .limit(1);
    return existing ? 'in_use' : 'not_found';
  }
  await Promise.all([row.displayKey, row.thumbnailKey].filter((key) => key !== null).map((key) => storage.delete(key)));
  return 'deleted';
}
