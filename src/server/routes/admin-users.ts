import { Hono } from 'hono';
import { userListQuerySchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { query, staffOnly } from '../http.ts';
import { listUsers } from '../services/users.ts';

/**
 * The admin area's users and invitations (docs/permissions.md): mounted at `/`, each call names
 * its whole path and is guarded on its own (`staffOnly` or `adminOnly`). Points adjustments are
 * in `points.ts`.
 */
export const adminUserRoutes = new Hono<AppEnv>().get('/admin/users', staffOnly, query(userListQuerySchema), async (c) => {
  const query = c.req.valid('query');
  return c.json(await listUsers(c.var.db, query), 200);
});
