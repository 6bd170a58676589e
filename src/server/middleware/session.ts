import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { parse, serialize } from 'hono/utils/cookie';
import type { Config } from '../config.ts';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { SessionUser } from '../db/schema/index.ts';
import type { Clock } from '../services/clock.ts';
import { validateSession } from '../services/sessions.ts';

/** Over HTTPS the cookie takes the `__Host-` prefix (Secure, no Domain, Path=/). */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-fw_session' : 'fw_session';
}

function cookieOptions(publicUrl: string) {
  return { httpOnly: true, sameSite: 'Lax', path: '/', secure: publicUrl.startsWith('https:') } as const;
}

/** The `Set-Cookie` value that keeps `token` in the browser until `expiresAt` (as of `now`). */
function sessionCookieHeader(publicUrl: string, token: string, expiresAt: Date, now: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return serialize(sessionCookieName(publicUrl), token, { ...cookieOptions(publicUrl), maxAge });
}

export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: Date): void {
  c.header('Set-Cookie', sessionCookieHeader(c.get('deps').config.publicUrl, token, expiresAt, c.get('deps').clock.now()), { append: true });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { publicUrl } = c.get('deps').config;
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

/** A request's session: its user, its id and, when this request renewed it, the cookie to send back. */
export interface RequestSession {
  user: SessionUser;
  sessionId: string;
  /** The sign-in or the last re-authentication (`recentAuth` reads it through the context's `authenticatedAt`). */
  authenticatedAt: Date;
  /**
   * Sliding expiry: the `Set-Cookie` value carrying the renewed expiry (the same token) when this
   * request renewed the session's row (a participant's at most once a day, a staff member's at
   * most every 5 minutes), else null. Whatever answers the request sends it: were it dropped, the
   * row would be fresh for the next request, which then renews nothing, and the browser would drop
   * the cookie when the first expiry came, however active its owner.
   */
  setCookie: string | null;
}

/**
 * The session of a request's cookie token, or null: the one lookup of page loads
 * (src/server/static.ts) and API calls (`loadSession`), both of which renew the session.
 */
export async function requestSession(
  db: Db,
  clock: Clock,
  config: Pick<Config, 'publicUrl' | 'staffSessionHours' | 'staffSessionIdleMinutes'>,
  token: string | undefined,
): Promise<RequestSession | null> {
  const found = token ? await validateSession(db, clock, token, config) : null;
  if (!found || !token) return null;
  const { publicUrl } = config;
  return {
    user: found.user,
    sessionId: found.sessionId,
    authenticatedAt: found.authenticatedAt,
    setCookie: found.renewed ? sessionCookieHeader(publicUrl, token, found.expiresAt, clock.now()) : null,
  };
}

/** Reads the session cookie and sets `user` (or null), `sessionId` and `authenticatedAt` for the routes after it. */
export async function loadSession(c: Context<AppEnv>): Promise<void> {
  const deps = c.get('deps');
  const found = await requestSession(c.get('db'), deps.clock, deps.config, sessionToken(c));
  c.set('user', found?.user ?? null);
  c.set('sessionId', found?.sessionId ?? null);
  c.set('authenticatedAt', found?.authenticatedAt ?? null);
  if (found?.setCookie) c.header('Set-Cookie', found.setCookie, { append: true });
}
