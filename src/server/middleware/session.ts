import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Role } from '../../shared/roles.ts';
import type { AppEnv } from '../context.ts';
import { jsonError } from '../errors.ts';
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
  return getCookie(c, sessionCookieName(c.var.deps.config.publicUrl));
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

/** 401 without a session; 403 when the user's role is not among `roles` (when given). */
export function requireUser(roles?: readonly Role[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (!user) return jsonError(c, 401, 'unauthenticated', 'Sign in to continue');
    if (roles && !roles.includes(user.role)) return jsonError(c, 403, 'forbidden', 'You do not have access to this');
    await next();
  });
}
