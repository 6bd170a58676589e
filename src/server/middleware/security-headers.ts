import { createMiddleware } from 'hono/factory';
import { STATIC_SECURITY_HEADERS } from '../../shared/static-headers.ts';
import type { AppEnv } from '../context.ts';

/** The API's own CSP: JSON needs nothing. Pages get theirs from the static handler. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every response carries (docs/architecture.md, security rules). */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const h = c.res.headers;
  // The same list a static host sends (docs/deploy.md); a response may name its own Referrer-Policy.
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) if (name !== 'Referrer-Policy' || !h.has(name)) h.set(name, value);
  if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', API_CSP);
  const config = c.var.deps.config;
  const forwardedProto = config.trustProxy ? c.req.header('x-forwarded-proto') : undefined;
  if (forwardedProto === 'https' || new URL(c.req.url).protocol === 'https:' || config.publicUrl.startsWith('https:')) {
    h.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  }
});
