import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

/** The photo gallery (`/api/admin/gallery`, `/api/admin/media/…`): mounted at `/`, each call names its whole path and is guarded on its own. */
export const adminGalleryRoutes = new Hono<AppEnv>();
