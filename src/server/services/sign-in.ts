/**
 * Sign-in (issue 29 §2, §4): starting a session, the second step of a sign-in whose password was
 * right (pending sign-ins and their cookie), "trust this browser" (participants) and
 * re-authentication's proof of a recent sign-in. The routes are `routes/auth.ts` (password, second
 * step, re-authentication) and `routes/passkey-auth.ts` (a passkey alone).
 *
 * - A pending sign-in is a random token in the `fw_pending` cookie (`__Host-fw_pending` over
 *   HTTPS; 5 minutes, HttpOnly, SameSite=Lax), stored as its SHA-256 with the user and a count of
 *   second steps, taken before each is checked (`countSecondStep`): at most five are checked, and
 *   the fifth wrong one deletes it. It is used up (deleted) by the step that
 *   starts the session, in one `DELETE … RETURNING`: two right codes at once start one session.
 * - A trusted browser is a random token in the `fw_trusted` cookie (`__Host-fw_trusted`; 30 days),
 *   stored as its SHA-256 with its user: that participant's password alone signs in on it. Staff
 *   are never offered it, and a staff account ignores the cookie.
 * - `sessions.authenticated_at` is the last proof of who is there (the sign-in, renewed by
 *   `POST /api/auth/reauth`: `markReauthenticated`, sessions.ts). `recentAuth` (http.ts) takes the
 *   request's (`c.get('authenticatedAt')`) when it is recent, else reads the row by the session's
 *   id (`sessionAuthenticatedAt`): the request's may come from a session cache that a
 *   re-authentication, here or in another process, has not reached.
 */
import { and, eq, gt, lt, lte, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { PENDING_SIGN_IN_MAX_FAILURES, PENDING_SIGN_IN_MS, REAUTH_MAX_AGE_MS, TRUSTED_BROWSER_MS } from '../../shared/second-factors.ts';
import { rememberedLanguage, type Language } from '../../shared/languages.ts';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { Clock } from './clock.ts';
import { pendingSignIns, trustedBrowsers, users, webauthnChallenges, type SessionUser, type User } from '../db/schema/index.ts';
import { clientIp } from '../http.ts';
import { sessionToken, setSessionCookie } from '../middleware/session.ts';
import { recordSignIn } from './account.ts';
import { audit } from './audit.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { noteNewBrowser } from './new-sign-in.ts';
import { createSession, deleteSession } from './sessions.ts';

/** How a session was started (the `user.sign_in` audit row's `method`). */
export type SignInMethod = 'password' | 'password+trusted-browser' | 'password+totp' | 'password+recovery' | 'password+passkey' | 'passkey';

// ---------------------------------------------------------------------------------------------
// Cookies

type CookiePrefix = 'fw_pending' | 'fw_trusted';

/** Over HTTPS a cookie takes the `__Host-` prefix (Secure, no Domain, Path=/), as the session's does. */
function cookieName(c: Context<AppEnv>, name: CookiePrefix): string {
  return c.get('deps').config.publicUrl.startsWith('https:') ? `__Host-${name}` : name;
}

function cookieOptions(c: Context<AppEnv>) {
  return { httpOnly: true, sameSite: 'Lax', path: '/', secure: c.get('deps').config.publicUrl.startsWith('https:') } as const;
}

function setOwnCookie(c: Context<AppEnv>, name: CookiePrefix, token: string, lifeMs: number): void {
  setCookie(c, cookieName(c, name), token, { ...cookieOptions(c), maxAge: Math.floor(lifeMs / 1000) });
}

function ownCookie(c: Context<AppEnv>, name: CookiePrefix): string | undefined {
  const value = getCookie(c, cookieName(c, name));
  // Our tokens are 43 characters of base64url; anything else is no token of ours.
  return value && /^[A-Za-z0-9_-]{20,128}$/.test(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// Sessions

/**
 * Starts a session for `user` on this browser: the browser's previous session ends, the new one
 * is created (its `authenticated_at` now; `second_factor` as given), its cookie set, the sign-in
 * recorded (`users.last_sign_in_at`) and audited (`user.sign_in` with the method), and a browser
 * the account was never signed in on is mailed about (`noteNewBrowser`, new-sign-in.ts).
 */
export async function startSession(
  c: Context<AppEnv>,
  user: Pick<User | SessionUser, 'id' | 'role'>,
  options: { secondFactor: boolean; method?: SignInMethod },
): Promise<void> {
  const { db, deps } = c.var;
  const ip = clientIp(c);
  const previous = sessionToken(c);
  if (previous) await deleteSession(db, previous);
  const session = await createSession(db, deps.clock, user.id, {
    userAgent: c.req.header('user-agent'),
    ip,
    secondFactor: options.secondFactor,
    role: user.role,
    limits: deps.config,
  });
  await recordSignIn(db, deps.clock, user.id);
  await adoptDeviceLanguage(db, user.id, rememberedLanguage(c.req.header('cookie')));
  setSessionCookie(c, session.token, session.expiresAt);
  const method = options.method ?? (options.secondFactor ? 'passkey' : 'password');
  await audit(db, { actorId: user.id, via: 'api', action: 'user.sign_in', targetType: 'user', targetId: user.id, after: { method }, ip });
  await noteNewBrowser(c, user.id);
}

/**
 * A language chosen on this device (the switcher's cookie) becomes the account's when the account
 * never chose one (issue 31): a visitor who switched to German and signs in stays in German, and
 * their other devices follow. An account's own choice is never replaced.
 */
export async function adoptDeviceLanguage(db: Db, userId: number, language: Language | null): Promise<void> {
  if (!language) return;
  await db
    .update(users)
    .set({ preferences: sql`jsonb_set(${users.preferences}, '{language}', to_jsonb(${language}::text))` })
    .where(and(eq(users.id, userId), sql`${users.preferences} ->> 'language' is null`));
}

/** The moment a proof made now stops being recent (the `until` of `POST /api/auth/reauth`). */
export function recentUntil(now: Date): Date {
  return new Date(now.getTime() + REAUTH_MAX_AGE_MS);
}

// ---------------------------------------------------------------------------------------------
// Pending sign-ins (a right password waiting for its second step)

export interface PendingSignIn {
  /** The SHA-256 of the cookie's token. */
  id: string;
  userId: number;
  failures: number;
  expiresAt: Date;
}

/** Starts a pending sign-in for `userId` and sets its cookie (a new one replaces this browser's earlier one). */
export async function createPendingSignIn(c: Context<AppEnv>, userId: number): Promise<void> {
  const { db, deps } = c.var;
  const now = deps.clock.now();
  const earlier = ownCookie(c, 'fw_pending');
  // This browser's earlier one, and the person's that ran out (no sweeper job needed: the rows stay few).
  await db
    .delete(pendingSignIns)
    .where(or(earlier ? eq(pendingSignIns.id, sha256Hex(earlier)) : undefined, and(eq(pendingSignIns.userId, userId), lte(pendingSignIns.expiresAt, now))));
  const token = randomToken();
  await db
    .insert(pendingSignIns)
    .values({ id: sha256Hex(token), userId, failures: 0, createdAt: now, expiresAt: new Date(now.getTime() + PENDING_SIGN_IN_MS) });
  setOwnCookie(c, 'fw_pending', token, PENDING_SIGN_IN_MS);
}

/** This browser's live pending sign-in (its cookie's), or null: none, unknown, expired or ended. */
export async function pendingSignIn(c: Context<AppEnv>): Promise<PendingSignIn | null> {
  const token = ownCookie(c, 'fw_pending');
  if (!token) return null;
  const { db, deps } = c.var;
  const [row] = await db
    .select({ id: pendingSignIns.id, userId: pendingSignIns.userId, failures: pendingSignIns.failures, expiresAt: pendingSignIns.expiresAt })
    .from(pendingSignIns)
    .where(and(eq(pendingSignIns.id, sha256Hex(token)), gt(pendingSignIns.expiresAt, deps.clock.now())))
    .limit(1);
  return row ?? null;
}

/**
 * Counts a second step before it is checked, in one statement that also checks there is one left
 * (`failures < PENDING_SIGN_IN_MAX_FAILURES`): however many arrive at once, at most five are ever
 * checked against one pending sign-in. The step's number, or null when none are left or it is
 * over. (A right step then ends it, so `failures` counts the wrong ones.)
 */
export async function countSecondStep(c: Context<AppEnv>, pending: PendingSignIn): Promise<number | null> {
  const { db, deps } = c.var;
  const [row] = await db
    .update(pendingSignIns)
    .set({ failures: sql`${pendingSignIns.failures} + 1` })
    .where(and(eq(pendingSignIns.id, pending.id), lt(pendingSignIns.failures, PENDING_SIGN_IN_MAX_FAILURES), gt(pendingSignIns.expiresAt, deps.clock.now())))
    .returning({ failures: pendingSignIns.failures });
  return row?.failures ?? null;
}

/** After a wrong second step: the fifth (`PENDING_SIGN_IN_MAX_FAILURES`) ends the pending sign-in (deleted, its cookie cleared); true then. */
export async function endAfterWrongStep(c: Context<AppEnv>, pending: PendingSignIn, step: number): Promise<boolean> {
  if (step < PENDING_SIGN_IN_MAX_FAILURES) return false;
  await c.var.db.delete(pendingSignIns).where(eq(pendingSignIns.id, pending.id));
  clearPendingCookie(c);
  return true;
}

/**
 * Uses the pending sign-in up (deletes it, if still live) and clears its cookie; true when this
 * call deleted it (of two parallel right second steps, one).
 */
export async function consumePendingSignIn(c: Context<AppEnv>, pending: PendingSignIn): Promise<boolean> {
  const { db, deps } = c.var;
  const deleted = await db
    .delete(pendingSignIns)
    .where(and(eq(pendingSignIns.id, pending.id), gt(pendingSignIns.expiresAt, deps.clock.now())))
    .returning({ id: pendingSignIns.id });
  clearPendingCookie(c);
  return deleted.length > 0;
}

export function clearPendingCookie(c: Context<AppEnv>): void {
  deleteCookie(c, cookieName(c, 'fw_pending'), cookieOptions(c));
}

// ---------------------------------------------------------------------------------------------
// Trusted browsers (participants)

/** Whether this browser's trusted-browser cookie is live for `userId`. */
export async function isTrustedBrowser(c: Context<AppEnv>, userId: number): Promise<boolean> {
  const token = ownCookie(c, 'fw_trusted');
  if (!token) return false;
  const { db, deps } = c.var;
  const [row] = await db
    .select({ id: trustedBrowsers.id })
    .from(trustedBrowsers)
    .where(and(eq(trustedBrowsers.id, sha256Hex(token)), eq(trustedBrowsers.userId, userId), gt(trustedBrowsers.expiresAt, deps.clock.now())))
    .limit(1);
  return row !== undefined;
}

/** Trusts this browser for `userId` for `TRUSTED_BROWSER_MS` (its earlier trust, for anyone, ends). */
export async function trustBrowser(c: Context<AppEnv>, userId: number): Promise<void> {
  const { db, deps } = c.var;
  const now = deps.clock.now();
  const earlier = ownCookie(c, 'fw_trusted');
  // This browser's earlier trust, and the person's that ran out.
  await db
    .delete(trustedBrowsers)
    .where(or(earlier ? eq(trustedBrowsers.id, sha256Hex(earlier)) : undefined, and(eq(trustedBrowsers.userId, userId), lte(trustedBrowsers.expiresAt, now))));
  const token = randomToken();
  await db.insert(trustedBrowsers).values({ id: sha256Hex(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + TRUSTED_BROWSER_MS) });
  setOwnCookie(c, 'fw_trusted', token, TRUSTED_BROWSER_MS);
}

/**
 * Housekeeping (the server's hourly sweep, beside expired sessions): pending sign-ins, WebAuthn
 * challenges and trusted browsers past their expiry. Each is refused once expired anyway; this
 * only keeps the tables small.
 */
export async function deleteExpiredSignInSteps(db: Db, clock: Clock): Promise<void> {
  const now = clock.now();
  await db.delete(pendingSignIns).where(lt(pendingSignIns.expiresAt, now));
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db.delete(trustedBrowsers).where(lt(trustedBrowsers.expiresAt, now));
}
