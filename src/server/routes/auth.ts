import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { requireUser } from '../middleware/session.ts';
import { publicUser } from '../services/users.ts';

/** SPEC.md §7 auth calls. Sign-in, registration and the rest arrive with the identity issue. */
export const authRoutes = new Hono<AppEnv>().get('/', requireUser(), (c) => {
  c.header('Cache-Control', 'no-store');
  const user = c.var.user;
  if (!user) throw new Error('requireUser let an anonymous request through');
  return c.json(publicUser(user), 200);
});
