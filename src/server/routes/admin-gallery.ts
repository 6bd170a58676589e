import { Hono, type Context } from 'hono';
import { GALLERY_MESSAGES } from '../../shared/gallery.ts';
import { galleryMediaPatchSchema, galleryQuerySchema, galleryZipSchema } from '../../shared/schemas/gallery.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { check, clientIp, jsonBody, query, signedInUser, staffOnly, validationError } from '../http.ts';
import { galleryItem, galleryPage, galleryZipStream, planGalleryZip, updateGalleryMedia } from '../services/gallery.ts';

const notFoundPhoto = () => new ApiError(404, 'not_found', GALLERY_MESSAGES.notFound);

/**
 * The body of `POST /api/admin/media/zip`: JSON `{ ids }`, or a plain form post
 * (`application/x-www-form-urlencoded`, `ids` repeated) so the browser streams the ZIP to disk
 * instead of holding it (the same-origin check still applies: `middleware/csrf.ts`).
 */
async function zipIds(c: Context<AppEnv>): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(await c.req.text());
    return {
      ids: form
        .getAll('ids')
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter(Boolean),
    };
  }
  if (type !== 'application/json') throw new ApiError(415, 'unsupported_media_type', 'Send JSON (Content-Type: application/json)');
  const text = await c.req.text();
  try {
    return text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
  }
}

/** A download's file name: `fieldwork-photos-YYYY-MM-DD.zip`. */
function zipFileName(now: Date): string {
  return `fieldwork-photos-${now.toISOString().slice(0, 10)}.zip`;
}

/** The photo gallery (`/api/admin/gallery`, `/api/admin/media/…`): mounted at `/`, each call names its whole path and is guarded on its own. */
export const adminGalleryRoutes = new Hono<AppEnv>()
  .get('/admin/gallery', staffOnly, query(galleryQuerySchema), async (c) => c.json(await galleryPage(c.get('db'), c.req.valid('query'))))

  .post('/admin/media/zip', staffOnly, async (c) => {
    const user = signedInUser(c.get('user'));
    const parsed = galleryZipSchema.safeParse(await zipIds(c));
    if (!parsed.success) throw validationError(parsed.error);
    const plan = await planGalleryZip(c.get('db'), parsed.data.ids, { id: user.id, ip: clientIp(c) });
    return c.body(galleryZipStream(c.get('deps').storage, plan, c.get('logger')), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${zipFileName(c.get('deps').clock.now())}"`,
      'X-Content-Type-Options': 'nosniff',
    });
  })

  .patch(
    '/admin/media/:id',
    staffOnly,
    // What the path names must exist (404) before the body is read (400).
    check(async (c) => {
      if (!(await galleryItem(c.get('db'), c.req.param('id') ?? ''))) throw notFoundPhoto();
    }),
    jsonBody(galleryMediaPatchSchema),
    async (c) => {
      const user = signedInUser(c.get('user'));
      const item = await updateGalleryMedia(c.get('db'), c.req.param('id'), c.req.valid('json'), { id: user.id, ip: clientIp(c) });
      return c.json(item);
    },
  );
