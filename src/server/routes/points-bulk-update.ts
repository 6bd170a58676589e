import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

/** Points bulk update (/admin/tools/points-bulk-update): admins only. Mounted at `/`: each call names its whole path. */
export const pointsBulkUpdateRoutes = new Hono<AppEnv>();
