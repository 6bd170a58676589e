import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { parse } from 'hono/utils/cookie';
import type { AppEnv } from '../context.ts';
import { validateSession } from '../services/sessions.ts';

/** Over HTTPS the cookie takes the `__Host-` prefix (Secure, no Domain, Path=/). */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-fw_session' : 'fw_session';
}

function cookieOptions(publicUrl: string) {
  return { httpOnly: true, sameSite: 'Lax', path: '/', secure: publicUrl.startsWith('https:') } as const;
}

export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: Date): void {
  const { publicUrl } = c.var.deps.config;
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - c.var.deps.clock.now().getTime()) / 1000));
  setCookie(c, sessionCookieName(publicUrl), token, { ...cookieOptions(publicUrl), maxAge });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { publicUrl } = c.var.deps.config;
  deleteCookie(c, sessionCookieName(publicUrl), cookieOptions(publicUrl));
}

export function sessionToken(c: Context<AppEnv>): string | undefined {
  return getCookie(c, sessionCookieName(c.get('deps').config.publicUrl));
}

/** The session token in a `Cookie` header (for code that has the header, not a context). */
export function sessionTokenOf(cookieHeader: string | undefined, publicUrl: string): string | undefined {
  if (!cookieHeader) return undefined;
  const name = sessionCookieName(publicUrl);
  return parse(cookieHeader, name)[name];
}

/** Reads the session cookie and sets `user` (or null) for the routes after it. */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  const token = sessionToken(c);
  c.set('user', null);
  c.set('sessionId', null);
  if (token) {
    const found = await validateSession(c.var.db, c.var.deps.clock, token);
    if (found) {
      c.set('user', found.user);
      c.set('sessionId', found.sessionId);
      // Sliding expiry: the cookie lives as long as the renewed session.
      if (found.renewed) setSessionCookie(c, token, found.expiresAt);
    }
  }
  await next();
});
