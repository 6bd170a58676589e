import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { MEDIA_LIMITS, MEDIA_MESSAGES, VIDEO_MESSAGES } from '../../shared/media.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { enforceRateLimits, missingStaffSecondFactor, signedIn, signedInUser } from '../http.ts';
import { seesMediaInInstructions } from '../services/participation.ts';
import { isActiveRewardImage } from '../services/rewards.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import {
  canSeeMedia,
  createMedia,
  deleteMedia,
  findMedia,
  mediaUploadRateKey,
  mediaView,
  type ReadyMedia,
  MediaRejected,
  processImage,
  releaseUpload,
  reserveUpload,
  withUploadPlace,
} from '../services/media.ts';
import { StorageUnavailableError, type ByteRange } from '../storage/index.ts';
import { StorageFullError } from '../storage/local.ts';

/**
 * Room for the multipart framing around the file (boundaries, part headers, a long file name):
 * the request body may be this much larger than `MEDIA_LIMITS.maxBytes`; the file itself may not.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const BODY_LIMIT = MEDIA_LIMITS.maxBytes + MULTIPART_OVERHEAD_BYTES;

/** The images are immutable for an id; only the people allowed ever get them. */
const IMAGE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
/** An image opened on its own cannot run anything, even if a browser were to sniff it. */
const IMAGE_CSP = "default-src 'none'; sandbox";

const tooLarge = () => new MediaRejected(413, 'file_too_large', MEDIA_MESSAGES.tooLarge);
const fileRequired = () => new MediaRejected(400, 'file_required', MEDIA_MESSAGES.fileRequired);
const stalled = () => new MediaRejected(408, 'upload_stalled', MEDIA_MESSAGES.stalled);

/** The next chunk of the body, or 408 `upload_stalled` (the stream cancelled) when none comes within `stallMs`. */
function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>, stallMs: number): Promise<ReadableStreamReadResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reader.cancel().catch(() => {});
      reject(stalled());
    }, stallMs);
    reader.read().then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Reads the request body, counting bytes as they arrive: past `limit` it stops reading (cancels
 * the stream) and refuses with 413, so at most `limit` bytes are ever held. Runs whether or not
 * `Content-Length` was sent (chunked uploads are counted the same way). A body that sends nothing
 * for `stallMs` is cut off with 408 (`MEDIA_LIMITS.stallSeconds`), so a client trickling or
 * stopped mid-body gives its place back at once instead of holding it until the server's
 * request timeout.
 */
async function readBodyCapped(request: Request, limit: number, stallMs: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await nextChunk(reader, stallMs);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * What can be refused from the headers alone, before anything else: not multipart (400), a
 * declared `Content-Length` over the limit (413). Returns the declared length, or null when none
 * was sent (chunked).
 */
function checkUploadHeaders(c: Context<AppEnv>): number | null {
  const contentType = c.req.header('content-type') ?? '';
  if (contentType.split(';')[0]?.trim().toLowerCase() !== 'multipart/form-data') throw fileRequired();
  const declared = c.req.header('content-length')?.trim();
  if (declared === undefined || !/^\d+$/.test(declared)) return null;
  if (Number(declared) > BODY_LIMIT) throw tooLarge();
  return Number(declared);
}

/** The `file` part of a multipart body, checked for presence, emptiness and size. */
async function uploadedFile(c: Context<AppEnv>, stallMs: number): Promise<Buffer> {
  const contentType = c.req.header('content-type') ?? '';
  let form: FormData;
  try {
    // The raw body is dropped once parsed: the file part is then the only copy held.
    form = await new Response(await readBodyCapped(c.req.raw, BODY_LIMIT, stallMs), { headers: { 'Content-Type': contentType } }).formData();
  } catch (error) {
    if (error instanceof MediaRejected) throw error;
    throw new MediaRejected(400, 'invalid_upload', MEDIA_MESSAGES.invalidUpload);
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw fileRequired();
  if (file.size === 0) throw new MediaRejected(400, 'file_empty', MEDIA_MESSAGES.empty);
  if (file.size > MEDIA_LIMITS.maxBytes) throw tooLarge();
  return Buffer.from(await file.arrayBuffer());
}

/**
 * A refusal from the media service as the API's error. 408 closes the connection: the client has
 * stopped sending. A 413's unread rest is drained, or the connection closed when it is too large
 * (`src/server/drain.ts`, docs/decisions/021-draining-refused-bodies.md).
 */
function asApiError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return storageUnavailable();
  if (error instanceof StorageFullError) return storageFull();
  if (!(error instanceof MediaRejected)) return error;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  if (error.status === 408) headers.Connection = 'close';
  return new ApiError(error.status, error.code, error.message, { headers });
}

/** The photo of the path's id if the caller may see it; 404 for everyone else (never 403). */
async function visibleMedia(c: Context<AppEnv>): Promise<ReadyMedia> {
  const row = await findMedia(c.get('db'), c.req.param('id') ?? '');
  const user = c.get('user');
  // Staff see everyone's photos once they have the second factor the staff area requires (issue 29 §3).
  if (row && canSeeMedia(user, row, !(user && missingStaffSecondFactor(c, user)))) return row;
  // A picture in the instructions of a mission the caller takes part in.
  if (row && user && (await seesMediaInInstructions(c.get('db'), user.id, row.id))) return row;
  // The image of an active reward (uploaded by staff: services/rewards.ts), shown to everyone signed in.
  if (row && user && (await isActiveRewardImage(c.get('db'), row.id))) return row;
  throw new ApiError(404, 'not_found', MEDIA_MESSAGES.notFound);
}

/** Whether `If-None-Match` names the ETag (or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/** How long a signed photo link works (S3 with S3_DELIVERY=redirect). */
export const SIGNED_LINK_SECONDS = 2 * 60 * 60;
/**
 * Links are signed at the start of the hour, so every request of that hour gets the same link
 * and the browser's cache of the image keeps working; a link then still has at least an hour.
 */
export const SIGNED_LINK_WINDOW_SECONDS = 60 * 60;
/** A cached redirect stops being used this long before its link expires (clock differences). */
export const SIGNED_LINK_MARGIN_SECONDS = 5 * 60;

export const STORAGE_UNAVAILABLE_MESSAGE = 'Photos cannot be reached right now: try again in a minute';

/**
 * Runs a storage call; a store that cannot be reached (`StorageUnavailableError`: network down,
 * bad credentials) is logged and answered 503 `storage_unavailable` with Retry-After, never a 500.
 */
export async function fromStorage<T>(c: Context<AppEnv>, about: Record<string, unknown>, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    c.get('logger').error({ err: error, ...about }, 'media storage unavailable');
    throw storageUnavailable();
  }
}

export const STORAGE_FULL_MESSAGE = 'There is no room left to store photos right now: try again later';

/** The photos' disk is full (LocalStorage's `StorageFullError`): 507, nothing of the photo kept. */
const storageFull = () => new ApiError(507, 'storage_full', STORAGE_FULL_MESSAGE, { headers: { 'Retry-After': '300', 'Cache-Control': 'no-store' } });

const storageUnavailable = () =>
  new ApiError(503, 'storage_unavailable', STORAGE_UNAVAILABLE_MESSAGE, { headers: { 'Retry-After': '60', 'Cache-Control': 'no-store' } });

/**
 * The object's bytes as the response body (200), read as they are sent: a stream, never the whole
 * file in memory. A HEAD request only looks the object up (an opened, unread stream would hold a
 * file or a connection). Null when the store has no such object.
 */
export async function streamObject(c: Context<AppEnv>, key: string, headers: Record<string, string>): Promise<Response | null> {
  const storage = c.get('deps').storage;
  if (c.req.method === 'HEAD') {
    const found = await storage.stat(key);
    return found ? c.body(null, 200, { ...headers, 'Content-Type': found.contentType, 'Content-Length': String(found.bytes) }) : null;
  }
  const opened = await storage.open(key);
  if (!opened) return null;
  const body = Readable.toWeb(opened.body) as ReadableStream<Uint8Array>;
  return c.body(body, 200, { ...headers, 'Content-Type': opened.contentType, 'Content-Length': String(opened.bytes) });
}

/**
 * From S3 with S3_DELIVERY=redirect: a 302 to a signed link to the object (signed at the start of
 * the hour, cached privately while it works); null when the store has no links (the API streams).
 */
async function signedRedirect(c: Context<AppEnv>, key: string, options: { contentDisposition: string; cacheControl: string }): Promise<Response | null> {
  // Signed against the store's clock, so the wall clock (never the app's test clock).
  const now = Date.now();
  const windowStart = Math.floor(now / (SIGNED_LINK_WINDOW_SECONDS * 1000)) * SIGNED_LINK_WINDOW_SECONDS * 1000;
  const link = await fromStorage(c, { key }, () =>
    c.get('deps').storage.signedUrl(key, { signedAt: new Date(windowStart), expiresInSeconds: SIGNED_LINK_SECONDS, ...options }),
  );
  if (link === null) return null;
  // No ETag on the redirect: a browser revalidating it would get 304 and follow the old,
  // expired link. It is cached (privately) only while its link still works.
  const maxAge = Math.max(0, Math.floor((windowStart + SIGNED_LINK_SECONDS * 1000 - now) / 1000) - SIGNED_LINK_MARGIN_SECONDS);
  return c.body(null, 302, {
    Location: link,
    'Cache-Control': `private, max-age=${maxAge}`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
}

/**
 * Serves the display image or the thumbnail with its stored type, an ETag and the image headers;
 * from S3 with S3_DELIVERY=redirect, a 302 to a signed link instead (docs/api.md "Media").
 */
async function serveImage(c: Context<AppEnv>, which: 'display' | 'thumbnail') {
  const row = await visibleMedia(c);
  const key = which === 'display' ? row.displayKey : row.thumbnailKey;
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return serveStoredImage(c, { mediaId: row.id, key }, `${row.id}${which === 'display' ? '' : '-thumbnail'}.${extension}`, which, MEDIA_MESSAGES.notFound);
}

/** One stored image (a photo's display or thumbnail, a video's poster): ETag `"{id}-{which}"`, 304, a signed-link redirect or the bytes. */
async function serveStoredImage(c: Context<AppEnv>, about: { mediaId: string; key: string }, filename: string, which: string, notFound: string) {
  const etag = `"${about.mediaId}-${which}"`;
  const disposition = `inline; filename="${filename}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    'Cache-Control': IMAGE_CACHE_CONTROL,
    'Content-Disposition': disposition,
    'Content-Security-Policy': IMAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
  };
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  const redirect = await signedRedirect(c, about.key, { contentDisposition: disposition, cacheControl: IMAGE_CACHE_CONTROL });
  if (redirect) return redirect;
  const response = await fromStorage(c, about, () => streamObject(c, about.key, headers));
  if (!response) {
    c.get('logger').warn(about, which === 'poster' ? 'poster file missing from storage' : 'media file missing from storage');
    throw new ApiError(404, 'not_found', notFound);
  }
  return response;
}

// ---------------------------------------------------------------------------------------------
// Videos: played with byte ranges (Safari asks for them before it plays anything)

/**
 * The byte range a `Range` header asks of an object of `size` bytes (RFC 9110 §14): `bytes=a-b`,
 * `bytes=a-` or `bytes=-n` (the last n). `null` when the header is absent, not a single bytes
 * range or malformed (the whole object is sent then, as RFC 9110 lets a server do);
 * `'unsatisfiable'` when it starts past the end (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** A ready video of the path's id if the caller is its owner or staff (`canSeeMedia`); 404 for everyone else and for photos. */
async function visibleVideo(c: Context<AppEnv>): Promise<ReadyMedia> {
  const row = await findMedia(c.get('db'), c.req.param('id') ?? '');
  const user = c.get('user');
  if (row && row.kind === 'video' && canSeeMedia(user, row, !(user && missingStaffSecondFactor(c, user)))) return row;
  throw new ApiError(404, 'not_found', VIDEO_MESSAGES.notFound);
}

/**
 * `GET`/`HEAD /api/media/{id}/video`: the MP4 with `Accept-Ranges: bytes`; a `Range` → 206 with
 * `Content-Range`, one past the end → 416; `If-Range` other than the ETag → the whole file; S3
 * with S3_DELIVERY=redirect → 302 to a signed link (S3 answers ranges itself).
 */
async function serveVideo(c: Context<AppEnv>) {
  const row = await visibleVideo(c);
  const key = row.displayKey;
  const etag = `"${row.id}-video"`;
  const disposition = `inline; filename="${row.id}.mp4"`;
  const headers: Record<string, string> = {
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'Cache-Control': IMAGE_CACHE_CONTROL,
    'Content-Disposition': disposition,
    'Content-Security-Policy': IMAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
  };
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  const about = { mediaId: row.id, key };
  const redirect = await signedRedirect(c, key, { contentDisposition: disposition, cacheControl: IMAGE_CACHE_CONTROL });
  if (redirect) return redirect;

  const storage = c.get('deps').storage;
  const found = await fromStorage(c, about, () => storage.stat(key));
  if (!found) {
    c.get('logger').warn(about, 'video file missing from storage');
    throw new ApiError(404, 'not_found', VIDEO_MESSAGES.notFound);
  }
  // A Range counts only while the file is the one the browser has (If-Range: our strong ETag; a date never matches).
  const ifRange = c.req.header('if-range');
  const range = ifRange === undefined || ifRange.trim() === etag ? parseRange(c.req.header('range'), found.bytes) : null;
  if (range === 'unsatisfiable') {
    throw new ApiError(416, 'range_not_satisfiable', VIDEO_MESSAGES.rangeNotSatisfiable, {
      headers: { 'Content-Range': `bytes */${found.bytes}`, 'Accept-Ranges': 'bytes' },
    });
  }
  const length = range ? range.end - range.start + 1 : found.bytes;
  const status = range ? 206 : 200;
  const answer: Record<string, string> = { ...headers, 'Content-Type': found.contentType, 'Content-Length': String(length) };
  if (range) answer['Content-Range'] = `bytes ${range.start}-${range.end}/${found.bytes}`;
  if (c.req.method === 'HEAD') return c.body(null, status, answer);
  const opened = await fromStorage(c, about, () => storage.open(key, range ?? undefined));
  if (!opened) throw new ApiError(404, 'not_found', VIDEO_MESSAGES.notFound);
  return c.body(Readable.toWeb(opened.body) as ReadableStream<Uint8Array>, status, answer);
}

/** `GET /api/media/{id}/poster`: a video's poster frame (WebP), to the same people as the video. */
async function servePoster(c: Context<AppEnv>) {
  const row = await visibleVideo(c);
  return serveStoredImage(c, { mediaId: row.id, key: row.thumbnailKey }, `${row.id}-poster.webp`, 'poster', VIDEO_MESSAGES.notFound);
}

/**
 * Uploads (photos) and serving them to their owner and to moderators and admins. Anyone else,
 * signed in or not, gets 404 for a photo that exists. Uploads are not admin actions: no audit
 * rows, a debug log line each.
 */
export const mediaRoutes = new Hono<AppEnv>()
  .post('/', signedIn, async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    await enforceRateLimits(c, [[mediaUploadRateKey(user.id), RATE_LIMITS.mediaUploadsPerUser]]);
    try {
      const declared = checkUploadHeaders(c);
      // Before a byte of the body is read: one of the account's 2 places and the bytes it may
      // take of today's budget (the declared length, else the most a body may be).
      const reservation = await reserveUpload(db, deps.clock, user.id, declared ?? BODY_LIMIT);
      let stored = false;
      const started = performance.now();
      let row: ReadyMedia;
      try {
        row = await withUploadPlace(async () => {
          const file = await uploadedFile(c, deps.config.uploadStallMs);
          const processed = await processImage(file);
          const made = await createMedia(db, deps.clock, deps.storage, {
            ownerId: user.id,
            uploadedBytes: file.byteLength,
            processed,
            reservationId: reservation,
          });
          stored = true;
          return made;
        });
      } finally {
        if (!stored) {
          await releaseUpload(db, reservation).catch((error: unknown) =>
            c.get('logger').warn({ err: error, reservation }, 'upload reservation not released; it stops counting when it expires'),
          );
        }
      }
      c.get('logger').debug(
        {
          mediaId: row.id,
          ownerId: user.id,
          uploadedBytes: row.uploadedBytes,
          bytes: row.bytes,
          width: row.width,
          height: row.height,
          ms: Math.round(performance.now() - started),
        },
        'media uploaded',
      );
      c.header('Location', `/api/media/${row.id}`);
      return c.json(mediaView(row), 201);
    } catch (error) {
      if (error instanceof StorageUnavailableError) c.get('logger').error({ err: error, ownerId: user.id }, 'media storage unavailable: upload refused');
      if (error instanceof StorageFullError) c.get('logger').error({ err: error, ownerId: user.id }, 'media storage full: upload refused');
      throw asApiError(error);
    }
  })

  .get('/:id', (c) => serveImage(c, 'display'))

  .get('/:id/thumbnail', (c) => serveImage(c, 'thumbnail'))

  .get('/:id/video', (c) => serveVideo(c))

  .get('/:id/poster', (c) => servePoster(c))

  .delete('/:id', signedIn, async (c) => {
    const user = signedInUser(c.get('user'));
    let result: Awaited<ReturnType<typeof deleteMedia>>;
    try {
      result = await deleteMedia(c.get('db'), c.get('deps').storage, { id: c.req.param('id'), ownerId: user.id });
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
      // The row is gone (storage is only reached after it): the photo no longer exists for anyone;
      // its files are left in the store, unreachable, only space.
      c.get('logger').warn({ err: error, mediaId: c.req.param('id') }, 'media deleted; its files were not (storage unavailable)');
      result = 'deleted';
    }
    if (result === 'not_found') throw new ApiError(404, 'not_found', MEDIA_MESSAGES.notFound);
    if (result === 'in_use') throw new ApiError(409, 'in_use', MEDIA_MESSAGES.inUse);
    c.get('logger').debug({ mediaId: c.req.param('id'), ownerId: user.id }, 'media deleted');
    return c.body(null, 204);
  });
