import type { Context } from 'hono';
import { STATIC_SECURITY_HEADERS } from '../../shared/static-headers.ts';
import type { Config } from '../config.ts';
import type { AppEnv } from '../context.ts';

/** The API's own CSP: JSON needs nothing. Pages get theirs from the static handler. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
/** Strict-Transport-Security's value, the API's and `deploy:nginx`'s. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Whether the answer carries Strict-Transport-Security: the site is public over HTTPS, or this
 * request came over HTTPS (directly, or through a trusted proxy that says so).
 */
export function wantsHsts(config: Config, requestUrl: string, forwardedProto: string | undefined): boolean {
  return config.publicUrl.startsWith('https:') || requestUrl.startsWith('https:') || (config.trustProxy > 0 && forwardedProto === 'https');
}

/**
 * The security headers of an answer, as one object (the static fast path writes it as it is):
 * the list a static host sends (docs/deploy.md), the API's CSP, HSTS where it applies.
 */
export function securityHeaderValues(hsts: boolean): Readonly<Record<string, string>> {
  return hsts ? WITH_HSTS : WITHOUT_HSTS;
}
const WITHOUT_HSTS: Readonly<Record<string, string>> = { ...STATIC_SECURITY_HEADERS, 'Content-Security-Policy': API_CSP };
const WITH_HSTS: Readonly<Record<string, string>> = { ...WITHOUT_HSTS, 'Strict-Transport-Security': HSTS };
/** A header only this middleware sets: present when the answer was made through the context. */
const MARK = 'permissions-policy';

/**
 * Sets the headers every response carries (docs/architecture.md, security rules), before the
 * handler runs. Under Node they go on the Node response itself: whatever the application answers,
 * streams included, is written with them, and a header of the answer's own (a Referrer-Policy, a
 * page's CSP) wins (Node merges them, the answer's first) — cheaper than the Fetch headers of
 * every answer. Elsewhere (`app.request`) through the context; the function returned then gives
 * them to an answer a handler built itself (a stream), once it is made.
 */
export function applySecurityHeaders(c: Context<AppEnv>): (() => void) | null {
  const config = c.get('deps').config;
  const headers = securityHeaderValues(wantsHsts(config, c.req.url, config.trustProxy > 0 ? c.req.header('x-forwarded-proto') : undefined));
  const outgoing = c.env?.outgoing;
  if (outgoing) {
    for (const name in headers) outgoing.setHeader(name, headers[name] as string);
    return null;
  }
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return () => {
    const h = c.res.headers;
    if (h.has(MARK)) return;
    for (const [name, value] of Object.entries(headers))
      if ((name !== 'Referrer-Policy' && name !== 'Content-Security-Policy') || !h.has(name)) h.set(name, value);
  };
}
