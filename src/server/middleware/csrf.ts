import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { UPLOADS_PATH } from '../../shared/media.ts';
import { jsonError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Server-to-server calls that carry their own credential instead of a session, and so need no
 * same-origin check: Alchemer's webhook (`POST /api/surveys/{id}/webhook`, authenticated by the
 * survey's webhook secret, JSON or form-encoded; `docs/alchemer.md`), and the gift-card provider's
 * (`POST /api/webhooks/rewards/{provider}`, signed over its raw body).
 */
const SERVER_TO_SERVER = [/^\/api\/surveys\/[^/]+\/webhook\/?$/, /^\/api\/webhooks\/rewards\/[^/]+\/?$/];

/**
 * Calls a page may also make as a plain form post (same origin still required): the gallery's
 * ZIP, so the browser streams the download to disk (`POST /api/admin/media/zip`).
 */
const FORM_POSTS = [/^\/api\/admin\/media\/zip\/?$/];

/** A tus request of the resumable uploads (`/api/uploads`, `/api/uploads/{id}`) with its protocol header. */
function isUploadRequest(c: Context<AppEnv>): boolean {
  const path = c.req.path;
  return (
    (path === UPLOADS_PATH || (path.startsWith(`${UPLOADS_PATH}/`) && !path.slice(UPLOADS_PATH.length + 1).includes('/'))) &&
    c.req.header('tus-resumable') !== undefined
  );
}

/**
 * Every state-changing API call must come from our own pages: a same-origin `Origin` header and
 * a JSON (or multipart upload) body. Browsers cannot forge either cross-site without CORS. The
 * refusal (403 or 415), or null when the call may go on.
 */
export function crossOriginRefusal(c: Context<AppEnv>): Response | null {
  if (SAFE_METHODS.has(c.req.method)) return null;
  if (c.req.method === 'POST' && SERVER_TO_SERVER.some((pattern) => pattern.test(c.req.path))) return null;
  const origin = c.req.header('origin');
  const allowed = new Set([new URL(c.req.url).origin, c.get('deps').config.publicUrl]);
  if (!origin || !allowed.has(origin)) return jsonError(c, 403, 'forbidden_origin', 'Cross-origin requests are not allowed');
  // Resumable uploads (tus): every request carries `Tus-Resumable`, a header no form can send and
  // no other site's script may send here without a CORS preflight we never allow; Origin checked above.
  if (isUploadRequest(c)) return null;
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const formPost = type === 'application/x-www-form-urlencoded' && c.req.method === 'POST' && FORM_POSTS.some((pattern) => pattern.test(c.req.path));
  if (type !== 'application/json' && type !== 'multipart/form-data' && !formPost) {
    return jsonError(c, 415, 'unsupported_media_type', 'Send JSON (Content-Type: application/json)');
  }
  return null;
}
