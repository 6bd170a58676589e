import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

/** Alchemer export append (/admin/tools/alchemer-export-append): admins only. Mounted at `/`: each call names its whole path. */
export const alchemerExportAppendRoutes = new Hono<AppEnv>();
