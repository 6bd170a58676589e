import { Hono, type Context } from 'hono';
import { MEDIA_MESSAGES } from '../../shared/media.ts';
import { reviewExportQuerySchema, reviewExportSchema } from '../../shared/schemas/review-exports.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { adminOnly, clientIp, jsonBody, pathId, query, recentAuthWhen, signedInUser } from '../http.ts';
import { checkSignedLink, mediaLinkKey } from '../services/media-links.ts';
import { fromStorage, streamObject } from './media.ts';
import { findMedia } from '../services/media.ts';
import { countReviews, exportFile, exportHistory, exportMissions, planExport, previewExport, recordExport, rowContext } from '../services/review-exports.ts';

/** Records the history shows. */
const HISTORY_LIMIT = 50;

/** A review export's file, not its preview (`?preview=1`). */
const isExport = (c: Context<AppEnv>) => c.req.query('preview') !== '1';

/** An image opened on its own cannot run anything. */
const IMAGE_CSP = "default-src 'none'; sandbox";

/**
 * Review export (/admin/tools/export-reviews-unilever): admins only, and the public signed photo
 * links its files hold (no session: the signature is the permission). Mounted at `/`: each call
 * names its whole path. docs/api.md "Review export".
 */
export const reviewExportRoutes = new Hono<AppEnv>()
  .get('/admin/tools/export-reviews/projects/:id/missions', adminOnly, async (c) => {
    const items = await exportMissions(c.get('db'), pathId(c, 'id', 'project'));
    return c.json({ items }, 200);
  })

  .get('/admin/tools/export-reviews/history', adminOnly, async (c) => {
    return c.json({ items: await exportHistory(c.get('db'), HISTORY_LIMIT) }, 200);
  })

  // The file holds reviewers' names: a recent sign-in (not for the preview, a few rows on screen).
  .post('/admin/tools/export-reviews', adminOnly, recentAuthWhen(isExport), query(reviewExportQuerySchema), jsonBody(reviewExportSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    const plan = await planExport(db, c.req.valid('json'));
    const context = await rowContext(db, deps.config, deps.clock, plan);
    if (c.req.valid('query').preview === '1') return c.json(await previewExport(db, context), 200);
    const rows = await countReviews(db, plan);
    await recordExport(db, plan, rows, { id: user.id, ip: clientIp(c) });
    const file = exportFile(db, context, deps.clock.now());
    return c.body(file.body, 200, {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'X-Review-Count': String(rows),
    });
  })

  .get('/media/:id/shared', async (c) => {
    const { db, deps } = c.var;
    const id = c.req.param('id');
    const notFound = () => new ApiError(404, 'not_found', MEDIA_MESSAGES.notFound, { headers: { 'Cache-Control': 'no-store' } });
    if (!/^[A-Za-z0-9_-]{22}$/.test(id)) throw notFound();
    const now = deps.clock.now().getTime();
    const check = checkSignedLink(await mediaLinkKey(db, deps.config), id, c.req.query(), now);
    if (!check.ok && check.reason === 'invalid') throw notFound();
    if (!check.ok) throw new ApiError(410, 'link_expired', 'This photo link has expired: ask for a new export', { headers: { 'Cache-Control': 'no-store' } });
    const row = await findMedia(db, id);
    if (!row) throw notFound();
    const key = check.variant === 'display' ? row.displayKey : row.thumbnailKey;
    const extension = key.slice(key.lastIndexOf('.') + 1);
    const maxAge = Math.max(0, Math.floor((check.expires * 1000 - now) / 1000));
    // Always the bytes, from either store (never a redirect): the link outlives any signed store link.
    const response = await fromStorage(c, { mediaId: row.id, key }, () =>
      streamObject(c, key, {
        'Cache-Control': `private, max-age=${maxAge}`,
        'Content-Disposition': `inline; filename="${row.id}${check.variant === 'display' ? '' : '-thumbnail'}.${extension}"`,
        'Content-Security-Policy': IMAGE_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      }),
    );
    if (!response) {
      c.get('logger').warn({ mediaId: row.id, key }, 'media file missing from storage');
      throw notFound();
    }
    return response;
  });
