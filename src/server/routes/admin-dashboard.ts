import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

/** The admin dashboard (`GET /api/admin/dashboard`): mounted at `/`, each call names its whole path and is guarded on its own. */
export const adminDashboardRoutes = new Hono<AppEnv>();
