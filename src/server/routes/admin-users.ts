import { Hono } from 'hono';
import { userListQuerySchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { query, staffOnly } from '../http.ts';
import { listUsers } from '../services/users.ts';

/** The admin area's users (moderators and admins); points adjustments are in `points.ts`. */
export const adminUserRoutes = new Hono<AppEnv>().use('*', staffOnly).get('/', query(userListQuerySchema), async (c) => {
  const query = c.req.valid('query');
  return c.json(await listUsers(c.var.db, query), 200);
});
