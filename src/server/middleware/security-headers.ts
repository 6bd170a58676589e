import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';

/** The API's own CSP: JSON needs nothing. Pages get theirs from the static handler. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every response carries (docs/architecture.md, security rules). */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const h = c.res.headers;
  h.set('X-Content-Type-Options', 'nosniff');
  if (!h.has('Referrer-Policy')) h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  h.set('X-Frame-Options', 'DENY');
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Cross-Origin-Resource-Policy', 'same-origin');
  h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
  if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', API_CSP);
  const config = c.var.deps.config;
  const forwardedProto = config.trustProxy ? c.req.header('x-forwarded-proto') : undefined;
  if (forwardedProto === 'https' || new URL(c.req.url).protocol === 'https:' || config.publicUrl.startsWith('https:')) {
    h.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  }
});
