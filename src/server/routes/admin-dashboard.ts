import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { staffOnly } from '../http.ts';
import { dashboard } from '../services/dashboard.ts';

/** The admin dashboard (`GET /api/admin/dashboard`): mounted at `/`, each call names its whole path and is guarded on its own. */
export const adminDashboardRoutes = new Hono<AppEnv>()
  /** Moderators and admins: the site's numbers, at most 10 s old (`services/dashboard.ts`). */
  .get('/admin/dashboard', staffOnly, async (c) => c.json(await dashboard(c.get('db'), c.get('deps').clock), 200));
