import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';

/** One structured log line per request: method, path (never the query: it may hold tokens), status, time. */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
  const logger = c.var.deps.logger.child({ reqId: requestId });
  c.set('requestId', requestId);
  c.set('logger', logger);
  await next();
  c.header('X-Request-Id', requestId);
  const status = c.res.status;
  const entry = { method: c.req.method, path: c.req.path, status, ms: Math.round((performance.now() - started) * 10) / 10 };
  if (status >= 500) logger.error(entry, 'request');
  else logger.info(entry, 'request');
});
