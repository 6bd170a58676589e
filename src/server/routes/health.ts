import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { noStore } from '../http.ts';

/** GET /api/health: 200 when the database answers, 503 when it does not. */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  noStore(c);
  try {
    await c.get('deps').database.ping(2000);
    return c.json({ status: 'ok', db: 'ok' } as const, 200);
  } catch (error) {
    c.get('logger').warn({ err: error }, 'health check: database did not answer');
    return c.json({ status: 'error', db: 'error' } as const, 503);
  }
});
