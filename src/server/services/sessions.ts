import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import { sessionCacheOf } from '../db/session-cache.ts';
import { sessions, sessionUserColumns, users, type SessionUser } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session used after this long since its last renewal gets a new expiry (sliding). */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

export interface SessionMeta {
  userAgent?: string | null;
  ip?: string | null;
}

/** Starts a session for a user; returns the token for the cookie (never stored as such). */
export async function createSession(db: Db, clock: Clock, userId: number, meta: SessionMeta = {}) {
  const token = randomToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: sha256Hex(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    ip: meta.ip ?? null,
  });
  return { token, expiresAt };
}

function prepareLookup(db: Db) {
  return db
    .select({ user: sessionUserColumns, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('session_lookup');
}

/** Every signed-in request runs this lookup: prepared once per database. */
const lookupFor = preparedFor(prepareLookup);

/** The signed-in user for a session token, or null (unknown, expired, or user not active). */
export async function validateSession(
  db: Db,
  clock: Clock,
  token: string,
): Promise<{ user: SessionUser; sessionId: string; expiresAt: Date; renewed: boolean } | null> {
  if (!token || token.length > 128) return null;
  const id = sha256Hex(token);
  const now = clock.now();
  const lookup = lookupFor(db);
  const cache = sessionCacheOf(db);
  const nowMs = now.getTime();
  const cached = cache?.get(id, nowMs);
  if (cached && cached.expiresAt.getTime() > nowMs && nowMs - cached.lastSeenAt.getTime() <= RENEW_AFTER_MS) {
    return { user: cached.user, sessionId: id, expiresAt: cached.expiresAt, renewed: false };
  }
  const generation = cache?.generation ?? 0;
  const [row] = await lookup.execute({ id, now: now.toISOString() });
  if (!row || row.user.status !== 'active') return null;
  if (nowMs - row.lastSeenAt.getTime() <= RENEW_AFTER_MS) {
    cache?.set(id, { user: row.user, lastSeenAt: row.lastSeenAt, expiresAt: row.expiresAt, cachedAt: nowMs }, generation);
    return { user: row.user, sessionId: id, expiresAt: row.expiresAt, renewed: false };
  }
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
  // At most once a day per session: the dashboard's "active in the last 30 days".
  await db.update(users).set({ lastActiveAt: now }).where(eq(users.id, row.user.id));
  return { user: row.user, sessionId: id, expiresAt, renewed: true };
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

/** A user's sessions, newest use first. */
export function listUserSessions(db: Db, userId: number) {
  return db
    .select({ id: sessions.id, userAgent: sessions.userAgent, ip: sessions.ip, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt));
}

export async function deleteExpiredSessions(db: Db, clock: Clock): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, clock.now()));
}
