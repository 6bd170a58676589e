import { Hono } from 'hono';
import { userListQuerySchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { readQuery, staffOnly } from '../http.ts';
import { listUsers } from '../services/users.ts';

/** The admin area's users (moderators and admins); points adjustments are in `points.ts`. */
export const adminUserRoutes = new Hono<AppEnv>().use('*', staffOnly).get('/', async (c) => {
  const query = readQuery(c, userListQuerySchema);
  return c.json(await listUsers(c.var.db, query), 200);
});
