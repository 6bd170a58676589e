import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { redactSecrets } from '../../shared/redact.ts';
import type { AppEnv } from '../context.ts';

/**
 * One structured log line per request: method, path, status, time. Never the query (it may hold
 * tokens), and the path without its link token: a page request for `/reset-password/<token>` is
 * logged as `/reset-password/[token]` (src/shared/redact.ts; docs/permissions.md, "Secrets").
 */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
  const logger = c.var.deps.logger.child({ reqId: requestId });
  c.set('requestId', requestId);
  c.set('logger', logger);
  await next();
  c.header('X-Request-Id', requestId);
  const status = c.res.status;
  const entry = { method: c.req.method, path: redactSecrets(c.req.path), status, ms: Math.round((performance.now() - started) * 10) / 10 };
  if (status >= 500) logger.error(entry, 'request');
  else logger.info(entry, 'request');
});
