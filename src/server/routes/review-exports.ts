import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

/** Review export (/admin/tools/export-reviews-unilever): admins only. Mounted at `/`: each call names its whole path. */
export const reviewExportRoutes = new Hono<AppEnv>();
