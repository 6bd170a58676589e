import { and, desc, eq, gt, isNull, like, lt, ne, or, sql } from 'drizzle-orm';
import { isElevated, type Role } from '../../shared/roles.ts';
import { REAUTH_MAX_AGE_MS } from '../../shared/second-factors.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import { sessionCacheOf } from '../db/session-cache.ts';
import { sessions, sessionUserColumns, users, type SessionUser } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';

/** A participant's session lives 30 days from its last renewal (sliding). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A participant's session used after this long since its last renewal gets a new expiry (sliding). */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * A staff session's row is renewed by the first request more than this long after the last
 * renewal, so its idle time is measured to within 5 minutes (and the row written at most once per
 * 5 minutes per session, not on every call).
 */
export const STAFF_RENEW_AFTER_MS = 5 * 60 * 1000;
/** How many characters of a session's id (the SHA-256 of its token, hex) the account's list shows and `DELETE /api/account/sessions/{id}` takes. */
export const SESSION_SHORT_ID_LENGTH = 12;

/** The staff session limits (`STAFF_SESSION_HOURS`, `STAFF_SESSION_IDLE_MINUTES`): the configuration has them. */
export type SessionLimits = Pick<Config, 'staffSessionHours' | 'staffSessionIdleMinutes'>;
/** The limits when no configuration is at hand: 12 hours after sign-in, 60 minutes idle. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { staffSessionHours: 12, staffSessionIdleMinutes: 60 };

const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/**
 * When a session used `now` ends, renewed then: a participant's 30 days later; a staff member's
 * (moderator, admin) after the idle time, but never later than the fixed time after sign-in.
 */
export function sessionExpiry(role: Role, createdAt: Date, now: Date, limits: SessionLimits): Date {
  if (!isElevated(role)) return new Date(now.getTime() + SESSION_TTL_MS);
  return new Date(Math.min(now.getTime() + limits.staffSessionIdleMinutes * MINUTE_MS, createdAt.getTime() + limits.staffSessionHours * HOUR_MS));
}

/**
 * Whether a session is over at `now`, whatever its row's `expires_at` says: a staff session also
 * ends after the idle time since it was last seen and the fixed time after sign-in (a row made for
 * a participant who became staff, or with other limits, obeys the staff rule as well).
 */
function staffSessionOver(role: Role, createdAt: Date, lastSeenAt: Date, now: Date, limits: SessionLimits): boolean {
  if (!isElevated(role)) return false;
  const nowMs = now.getTime();
  return nowMs >= lastSeenAt.getTime() + limits.staffSessionIdleMinutes * MINUTE_MS || nowMs >= createdAt.getTime() + limits.staffSessionHours * HOUR_MS;
}

export interface SessionMeta {
  userAgent?: string | null;
  ip?: string | null;
  /** The sign-in passed a second factor (or used a passkey). */
  secondFactor?: boolean;
  /** The user's role: a staff session starts with the staff expiry (left out: a participant's; the first renewal corrects it). */
  role?: Role;
  /** The staff limits (the configuration); default 12 h and 60 min. */
  limits?: SessionLimits;
}

/** Starts a session for a user; returns the token for the cookie (never stored as such) and when it ends. */
export async function createSession(db: Db, clock: Clock, userId: number, meta: SessionMeta = {}) {
  const token = randomToken();
  const now = clock.now();
  const expiresAt = sessionExpiry(meta.role ?? 'participant', now, now, meta.limits ?? DEFAULT_SESSION_LIMITS);
  const id = sha256Hex(token);
  await db.insert(sessions).values({
    id,
    userId,
    createdAt: now,
    lastSeenAt: now,
    authenticatedAt: now,
    secondFactor: meta.secondFactor ?? false,
    expiresAt,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    ip: meta.ip ?? null,
  });
  return { token, expiresAt, sessionId: id };
}

function prepareLookup(db: Db) {
  return db
    .select({
      user: sessionUserColumns,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      authenticatedAt: sessions.authenticatedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('session_lookup');
}

/** Every signed-in request runs this lookup: prepared once per database. */
const lookupFor = preparedFor(prepareLookup);

/** A valid session: its user, its id, when it ends, whether this request renewed it, and the last proof of who signed in. */
export interface ValidSession {
  user: SessionUser;
  sessionId: string;
  expiresAt: Date;
  renewed: boolean;
  /** The sign-in or the last re-authentication (`markReauthenticated`): sensitive actions need it recent. */
  authenticatedAt: Date;
}

/**
 * The signed-in user for a session token, or null (unknown, expired, or user not active).
 * Renews the session when due: a participant's at most once a day (30 days from then), a staff
 * member's at most every 5 minutes (`sessionExpiry`); `renewed` says the cookie must be sent again.
 */
export async function validateSession(db: Db, clock: Clock, token: string, limits: SessionLimits = DEFAULT_SESSION_LIMITS): Promise<ValidSession | null> {
  if (!token || token.length > 128) return null;
  const id = sha256Hex(token);
  const now = clock.now();
  const lookup = lookupFor(db);
  const cache = sessionCacheOf(db);
  const nowMs = now.getTime();
  const renewAfter = (role: Role) => (isElevated(role) ? STAFF_RENEW_AFTER_MS : RENEW_AFTER_MS);
  const cached = cache?.get(id, nowMs);
  if (
    cached &&
    cached.expiresAt.getTime() > nowMs &&
    nowMs - cached.lastSeenAt.getTime() <= renewAfter(cached.user.role) &&
    !staffSessionOver(cached.user.role, cached.createdAt, cached.lastSeenAt, now, limits)
  ) {
    return { user: cached.user, sessionId: id, expiresAt: cached.expiresAt, renewed: false, authenticatedAt: cached.authenticatedAt };
  }
  const generation = cache?.generation ?? 0;
  const [row] = await lookup.execute({ id, now: now.toISOString() });
  if (!row || row.user.status !== 'active') return null;
  if (staffSessionOver(row.user.role, row.createdAt, row.lastSeenAt, now, limits)) {
    // Over by the staff rule though its row says otherwise: gone for good (and from the account's list).
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (nowMs - row.lastSeenAt.getTime() <= renewAfter(row.user.role)) {
    cache?.set(id, { ...row, cachedAt: nowMs }, generation);
    return { user: row.user, sessionId: id, expiresAt: row.expiresAt, renewed: false, authenticatedAt: row.authenticatedAt };
  }
  const expiresAt = sessionExpiry(row.user.role, row.createdAt, now, limits);
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
  // At most once a day per user: the dashboard's "active in the last 30 days" (a staff session renews every few minutes).
  await db
    .update(users)
    .set({ lastActiveAt: now })
    .where(and(eq(users.id, row.user.id), or(isNull(users.lastActiveAt), lt(users.lastActiveAt, new Date(nowMs - RENEW_AFTER_MS)))));
  return { user: row.user, sessionId: id, expiresAt, renewed: true, authenticatedAt: row.authenticatedAt };
}

/** A re-authentication (`POST /api/auth/reauth`): the session's proof of who signed in is now. */
export async function markReauthenticated(db: Db, clock: Clock, sessionId: string): Promise<Date> {
  const now = clock.now();
  await db.update(sessions).set({ authenticatedAt: now }).where(eq(sessions.id, sessionId));
  return now;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
}

/** Ends every session of a user (password reset, role change, disable), or all but one. */
export async function deleteUserSessions(db: Db, userId: number, exceptSessionId?: string): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(exceptSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)) : eq(sessions.userId, userId))
    .returning({ id: sessions.id });
  return ended.length;
}

/**
 * Ends one of a user's own sessions by the short id the account's list shows (the first 12
 * characters of its id): the ended session (its full id, device and address), or null when the
 * user has none by that id (another person's is none of theirs).
 */
export async function deleteUserSession(db: Db, userId: number, shortId: string): Promise<{ id: string; userAgent: string | null; ip: string | null } | null> {
  if (!new RegExp(`^[0-9a-f]{${SESSION_SHORT_ID_LENGTH}}$`).test(shortId)) return null;
  const [ended] = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), like(sessions.id, `${shortId}%`)))
    .returning({ id: sessions.id, userAgent: sessions.userAgent, ip: sessions.ip });
  return ended ?? null;
}

/** A user's live sessions, newest use first (a staff session over by its limits is left out). */
export async function listUserSessions(db: Db, clock: Clock, user: { id: number; role: Role }, limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
  const now = clock.now();
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt));
  return rows.filter((row) => !staffSessionOver(user.role, row.createdAt, row.lastSeenAt, now, limits));
}

export async function deleteExpiredSessions(db: Db, clock: Clock): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, clock.now()));
}

/** When the session's last proof of who is there (sign-in or re-authentication) was; null for no such session. */
export async function sessionAuthenticatedAt(db: Db, sessionId: string): Promise<Date | null> {
  const [row] = await db.select({ at: sessions.authenticatedAt }).from(sessions).where(eq(sessions.id, sessionId)).limit(1);
  return row?.at ?? null;
}

/** Whether a session's proof is recent enough for a sensitive call (`REAUTH_MAX_AGE_MS`). */
export function isRecent(authenticatedAt: Date | null, now: Date): boolean {
  return authenticatedAt !== null && now.getTime() - authenticatedAt.getTime() < REAUTH_MAX_AGE_MS;
}
