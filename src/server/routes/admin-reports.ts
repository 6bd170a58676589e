import { Hono } from 'hono';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import { adminListQuerySchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { readQuery } from '../http.ts';
import { requireUser } from '../middleware/session.ts';
import { listReports } from '../services/client-reports.ts';

/** The "Client errors" admin tool (moderator and admin): stored reports, searched and paginated. */
export const adminReportRoutes = new Hono<AppEnv>().use('*', requireUser(ELEVATED_ROLES)).get('/', async (c) => {
  const query = readQuery(c, adminListQuerySchema);
  const { reports, total } = await listReports(c.var.db, query);
  c.header('Cache-Control', 'no-store');
  return c.json({ reports, total, page: query.page, perPage: query.perPage }, 200);
});
