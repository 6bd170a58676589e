import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { signedIn, signedInUser } from '../http.ts';
import { homeFor } from '../services/home.ts';

/**
 * The participant's home: what to do, what waits for review, what is done (`GET /api/home`,
 * any signed-in user; only live projects they are a member of; moderators and admins also get
 * `staff.reviewWaiting`). Rules: `services/home.ts`.
 */
export const homeRoutes = new Hono<AppEnv>().use('*', signedIn).get('/', async (c) => {
  const user = signedInUser(c.get('user'));
  return c.json(await homeFor(c.get('db'), c.get('deps').clock, user), 200);
});
