/**
 * Resumable uploads: the tus protocol (https://tus.io/protocols/resumable-upload, 1.0.0; the
 * creation, creation-with-upload, termination and expiration extensions) at `/api/uploads`, by
 * `@tus/server` (`handleWeb`), and `GET /api/uploads/{uploadId}`: where an upload stands. Our
 * checks run before tus sees a request: a session, the owner of the upload (another person's is
 * 404), `Upload-Metadata`, the size limits of the kind, the daily budget and uploads per hour on
 * creation, the content's first bytes, the account's uploads at once around each PATCH, the
 * expiry. Refusals are our JSON errors with tus' headers (`Tus-Resumable`). Bodies are streamed
 * to the upload store, never held (app.ts leaves this path out of the JSON body limit).
 * `docs/decisions/038-field-capture.md`, "Resumable uploads"; `docs/api.md`, "Resumable uploads".
 */
import { MemoryLocker, Server, type DataStore, type Upload } from '@tus/server';
import { Hono, type Context } from 'hono';
import { MEDIA_MESSAGES, UPLOAD_MESSAGES, UPLOADS_PATH } from '../../shared/media.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { errorBody } from '../errors.ts';
import { RATE_LIMITS, hitRateLimit } from '../services/rate-limit.ts';
import { checkDailyBytes, isMediaId, MediaRejected, mediaUploadRateKey, newMediaId, releaseUpload, reserveUpload } from '../services/media.ts';
import {
  createUploadRow,
  createUploadStore,
  failUpload,
  findOwnUpload,
  isExpired,
  markProcessing,
  parseUploadMetadata,
  removeReceived,
  setUploadKind,
  sizeLimitOf,
  SNIFF_BYTES,
  sniffUpload,
  uploadIdPrefix,
  uploadState,
  wrongContent,
} from '../services/uploads.ts';
import type { Media } from '../db/schema/index.ts';
import { media } from '../db/schema/index.ts';
import { eq } from 'drizzle-orm';

const TUS_RESUMABLE = '1.0.0';
const OFFSET_STREAM = 'application/offset+octet-stream';

/** One tus server per application (its store follows the configuration), made on first use. */
const servers = new WeakMap<AppDeps, { server: Server; store: DataStore; prefix: string }>();

function tusFor(deps: AppDeps) {
  let made = servers.get(deps);
  if (made) return made;
  const store = deps.uploadStore ?? createUploadStore(deps.config, { now: () => deps.clock.now().getTime() });
  const prefix = uploadIdPrefix(deps.config);
  const server = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    // One request at a time on an upload, in every process; a new one asks the holder to let go (services/upload-locker.ts).
    locker: deps.uploadLocker ?? new MemoryLocker(),
    // The id was chosen (and its row written) before tus sees the creation: `creationIds`.
    namingFunction: (req) => {
      const id = creationIds.get(req as unknown as Request);
      if (!id) throw { status_code: 500, body: 'no upload id' };
      return prefix + id;
    },
    // The URL names the media id; the store's id has the store's prefix (`tus/` in S3).
    generateUrl: (_req, { id }) => `${UPLOADS_PATH}/${id.slice(prefix.length)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath && isMediaId(lastPath) ? prefix + lastPath : undefined),
    allowedOrigins: [deps.config.publicUrl],
    disableTerminationForFinishedUploads: true,
    onUploadFinish: async (_req, upload: Upload) => {
      const mediaId = upload.id.slice(prefix.length);
      const db = deps.database.db;
      await db.transaction(async (tx) => {
        if (await markProcessing(tx, mediaId)) await deps.jobs.send('media.process', { mediaId }, { tx });
      });
      return {};
    },
  });
  made = { server, store, prefix };
  servers.set(deps, made);
  return made;
}

/** The media id a creation request was given (read by tus' naming function). */
const creationIds = new WeakMap<Request, string>();

/** A refusal as our JSON error, with tus' protocol header. */
function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Tus-Resumable': TUS_RESUMABLE, 'Cache-Control': 'no-store', ...headers },
  });
}

function fromRejected(error: MediaRejected): Response {
  return refusal(error.status, error.code, error.message, error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) });
}

const notFound = () => refusal(404, 'not_found', UPLOAD_MESSAGES.notFound);
const expired = () => refusal(410, 'upload_expired', UPLOAD_MESSAGES.expired);
const finished = () => refusal(409, 'upload_finished', UPLOAD_MESSAGES.finished);

/** tus' own error answers (plain text) as ours: the status and tus' headers kept, the words ours. */
const TUS_ERRORS: Record<number, [code: string, message: string]> = {
  400: ['invalid_upload_request', UPLOAD_MESSAGES.invalidRequest],
  403: ['invalid_upload_request', UPLOAD_MESSAGES.invalidRequest],
  404: ['not_found', UPLOAD_MESSAGES.notFound],
  409: ['offset_mismatch', UPLOAD_MESSAGES.offsetMismatch],
  410: ['upload_expired', UPLOAD_MESSAGES.expired],
  412: ['tus_version', UPLOAD_MESSAGES.tusResumable],
  413: ['file_too_large', UPLOAD_MESSAGES.tooLarge],
};

async function asOurs(c: Context<AppEnv>, response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text().catch(() => '');
  const headers = new Headers(response.headers);
  headers.set('Content-Type', 'application/json; charset=UTF-8');
  headers.delete('Content-Length');
  const known = TUS_ERRORS[response.status];
  if (known) return new Response(JSON.stringify(errorBody(known[0], known[1])), { status: response.status, headers });
  // A store that failed (disk, S3): the client can only try again; tus' words go to the log.
  c.get('logger').error({ status: response.status, tus: text.slice(0, 200), path: c.req.path }, 'resumable upload failed in the upload store');
  headers.set('Retry-After', '30');
  return new Response(JSON.stringify(errorBody('upload_failed', UPLOAD_MESSAGES.failedHere)), { status: 503, headers });
}

/** The request's body as a stream again, after its first bytes were read to see what the file is. */
async function peek(request: Request, want: number): Promise<{ head: Uint8Array; request: Request }> {
  if (!request.body) return { head: new Uint8Array(0), request };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < want) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  const head = Buffer.concat(chunks);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.byteLength > 0) controller.enqueue(head);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const init: RequestInit & { duplex: 'half' } = { method: request.method, headers: request.headers, body, duplex: 'half', signal: request.signal };
  return { head, request: new Request(request.url, init) };
}

/**
 * Checks the first bytes of an upload (the body of its first PATCH, or of a creation with
 * upload): what it is by content, and the kind's size limit. The row's kind follows the content.
 * Null when it may go on; else the refusal (the upload failed, its bytes removed).
 */
async function checkContent(c: Context<AppEnv>, row: Pick<Media, 'id' | 'kind'>, uploadLength: number, head: Uint8Array): Promise<MediaRejected | null> {
  // Too few bytes to tell (a tiny first chunk): the processing job checks the whole file.
  if (head.byteLength < Math.min(16, uploadLength)) return null;
  const kind = sniffUpload(head);
  const refused = kind === null ? wrongContent(row.kind) : uploadLength > sizeLimitOf(kind).maxBytes ? sizeLimitOf(kind).refusal() : null;
  if (refused) return refused;
  if (kind && kind !== row.kind) await setUploadKind(c.get('db'), row.id, kind);
  return null;
}

/** The signed-in caller's id, or null. */
const callerId = (c: Context<AppEnv>) => c.get('user')?.id ?? null;

const unauthenticated = () => refusal(401, 'unauthenticated', 'Sign in to continue');

/** POST: a new upload (creation, creation-with-upload). */
async function create(c: Context<AppEnv>): Promise<Response> {
  const userId = callerId(c);
  if (userId === null) return unauthenticated();
  const { db, deps } = c.var;
  if (c.req.header('tus-resumable') !== TUS_RESUMABLE) return refusal(412, 'tus_version', UPLOAD_MESSAGES.tusResumable, { 'Tus-Version': TUS_RESUMABLE });
  const metadata = parseUploadMetadata(c.req.header('upload-metadata'));
  if (!metadata) return refusal(400, 'invalid_metadata', UPLOAD_MESSAGES.metadata);
  const declared = c.req.header('upload-length')?.trim();
  if (declared === undefined || !/^\d{1,16}$/.test(declared)) return refusal(400, 'invalid_length', UPLOAD_MESSAGES.length);
  const length = Number(declared);
  if (length === 0) return refusal(400, 'file_empty', MEDIA_MESSAGES.empty);
  const limit = sizeLimitOf(metadata.kind);
  if (length > limit.maxBytes) return fromRejected(limit.refusal());

  const hit = await hitRateLimit(db, deps.clock, mediaUploadRateKey(userId), RATE_LIMITS.mediaUploadsPerUser);
  if (!hit.allowed) return refusal(429, 'rate_limited', 'Too many attempts. Try again later.', { 'Retry-After': String(hit.retryAfterSeconds) });
  const budget = await checkDailyBytes(db, deps.clock, userId, length);
  if (!budget.allowed) return fromRejected(new MediaRejected(429, 'daily_upload_limit', MEDIA_MESSAGES.dailyBytes, budget.retryAfterSeconds));

  const withBody = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === OFFSET_STREAM;
  let request = c.req.raw;
  let reservation: number | null = null;
  const id = newMediaId();
  try {
    if (withBody) {
      reservation = await reserveUpload(db, deps.clock, userId, 0);
      const peeked = await peek(request, SNIFF_BYTES);
      request = peeked.request;
      const refused = await checkContent(c, { id, kind: metadata.kind }, length, peeked.head);
      if (refused) {
        await request.body?.cancel().catch(() => {});
        return fromRejected(refused);
      }
      const kind = peeked.head.byteLength >= 16 ? (sniffUpload(peeked.head) ?? metadata.kind) : metadata.kind;
      await createUploadRow(db, deps.clock, { id, ownerId: userId, kind, bytes: length });
    } else {
      await createUploadRow(db, deps.clock, { id, ownerId: userId, kind: metadata.kind, bytes: length });
    }
    creationIds.set(request, id);
    const { server } = tusFor(deps);
    const response = await asOurs(c, await server.handleWeb(request));
    if (response.status >= 400) await db.delete(media).where(eq(media.id, id));
    c.get('logger').debug({ mediaId: id, ownerId: userId, bytes: length, kind: metadata.kind, status: response.status }, 'resumable upload created');
    return response;
  } catch (error) {
    if (error instanceof MediaRejected) return fromRejected(error);
    throw error;
  } finally {
    if (reservation !== null) await releaseUpload(db, reservation).catch(() => {});
  }
}

/** HEAD, PATCH, DELETE of an upload, and GET (its state). */
async function ofUpload(c: Context<AppEnv>): Promise<Response> {
  const userId = callerId(c);
  if (userId === null) return unauthenticated();
  const { db, deps } = c.var;
  const id = c.req.param('uploadId') ?? '';
  const row = isMediaId(id) ? await findOwnUpload(db, id, userId) : null;
  const method = c.req.method;
  if (!row)
    return method === 'HEAD' ? new Response(null, { status: 404, headers: { 'Tus-Resumable': TUS_RESUMABLE, 'Cache-Control': 'no-store' } }) : notFound();
  if (method === 'GET') return c.json(uploadState(row), 200, { 'Cache-Control': 'no-store' });
  if (c.req.header('tus-resumable') !== TUS_RESUMABLE) return refusal(412, 'tus_version', UPLOAD_MESSAGES.tusResumable, { 'Tus-Version': TUS_RESUMABLE });
  const now = deps.clock.now();
  const { server, store, prefix } = tusFor(deps);

  if (method === 'HEAD') {
    if (isExpired(row, now) || row.status === 'failed')
      return new Response(null, { status: 410, headers: { 'Tus-Resumable': TUS_RESUMABLE, 'Cache-Control': 'no-store' } });
    if (row.status !== 'uploading') {
      // Every byte arrived (the bytes may be gone from the store already): the client is done.
      const size = String(row.uploadedBytes);
      return new Response(null, {
        status: 200,
        headers: { 'Tus-Resumable': TUS_RESUMABLE, 'Cache-Control': 'no-store', 'Upload-Offset': size, 'Upload-Length': size },
      });
    }
    return asOurs(c, await server.handleWeb(c.req.raw));
  }

  if (method === 'DELETE') {
    if (row.status !== 'uploading' && row.status !== 'failed') return finished();
    const response = await server.handleWeb(c.req.raw);
    if (response.status >= 400 && response.status !== 404 && response.status !== 410) return asOurs(c, response);
    await db.delete(media).where(eq(media.id, row.id));
    await removeReceived(store, prefix + row.id, c.get('logger'));
    c.get('logger').debug({ mediaId: row.id, ownerId: userId }, 'resumable upload terminated');
    return new Response(null, { status: 204, headers: { 'Tus-Resumable': TUS_RESUMABLE } });
  }

  // PATCH
  if (isExpired(row, now) || row.status === 'failed') {
    await c.req.raw.body?.cancel().catch(() => {});
    return expired();
  }
  if (row.status !== 'uploading') {
    await c.req.raw.body?.cancel().catch(() => {});
    return finished();
  }
  let reservation: number;
  try {
    reservation = await reserveUpload(db, deps.clock, userId, 0);
  } catch (error) {
    if (error instanceof MediaRejected) return fromRejected(error);
    throw error;
  }
  try {
    let request = c.req.raw;
    if (c.req.header('upload-offset')?.trim() === '0') {
      const peeked = await peek(request, SNIFF_BYTES);
      request = peeked.request;
      const refused = await checkContent(c, row, row.uploadedBytes, peeked.head);
      if (refused) {
        await request.body?.cancel().catch(() => {});
        await failUpload(db, row.id, refused.message);
        await removeReceived(store, prefix + row.id, c.get('logger'));
        return fromRejected(refused);
      }
    }
    return await asOurs(c, await server.handleWeb(request));
  } finally {
    await releaseUpload(db, reservation).catch(() => {});
  }
}

/**
 * `/api/uploads` (POST, OPTIONS) and `/api/uploads/{uploadId}` (HEAD, PATCH, DELETE, GET). The
 * caller is authorised here on every call; tus only ever sees requests already allowed.
 */
export const uploadRoutes = new Hono<AppEnv>()
  .options('/', (c) => tusFor(c.var.deps).server.handleWeb(c.req.raw))
  .options('/:uploadId', (c) => tusFor(c.var.deps).server.handleWeb(c.req.raw))
  .post('/', (c) => create(c))
  .on(['HEAD', 'PATCH', 'DELETE', 'GET'], '/:uploadId', (c) => ofUpload(c));
